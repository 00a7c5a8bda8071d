#include "hybrid/memory/ssd_cache.hpp"

#include <cstdio>
#include <limits>

#include "common/atomic_file.hpp"
#include "common/sha256.hpp"
#include "hybrid/codec/crc32c.hpp"
#include "hybrid/codec/rle_codec.hpp"
#include "hybrid/codec/shuffle_zstd_codec.hpp"

namespace hybrid {

namespace {

std::span<const std::byte> as_bytes_span(std::span<const std::uint8_t> data) {
  return {reinterpret_cast<const std::byte*>(data.data()), data.size()};
}

common::Error io(const std::string& what, const common::Error& e) {
  return common::Error::io(what + ": " + e.to_string());
}

// A stream that does not decode (or a codec parameter out of range) is a move that cannot be made;
// a compressor that cannot run is I/O.
common::Error from_codec(const common::Error& e) {
  return e.code() == common::ErrorCode::io ? e : common::Error::invalid_argument(e.message());
}

bool is_safe_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

}  // namespace

SsdCache::SsdCache(std::string dir, common::FileSystem& fs) : dir_(std::move(dir)), fs_(&fs) {}

common::Status SsdCache::ensure_dir() const {
  if (dir_.empty()) return common::Error::invalid_argument("SSD cache directory path is empty");
  if (auto s = fs_->create_dirs(dir_); !s) return io("Cannot create SSD cache directory " + dir_, s.error());
  return {};
}

// Injective: safe characters stay, every other byte becomes ".xx" (two hex digits), and "."
// appears only as that escape, so two ids never share a spill file. A name past 200 bytes
// keeps its first 150 and adds "~" and 32 hex digits of its SHA-256 ("~" is never escaped
// output either).
std::string SsdCache::blob_path(std::string_view tensor_id) const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string name;
  name.reserve(tensor_id.size());
  for (char c : tensor_id) {
    if (is_safe_char(c)) {
      name.push_back(c);
    } else {
      const auto u = static_cast<unsigned char>(c);
      name += '.';
      name += kHex[u >> 4];
      name += kHex[u & 15];
    }
  }
  if (name.size() > 200) name = name.substr(0, 150) + "~" + common::sha256_hex(tensor_id).substr(0, 32);
  return dir_ + "/tensor_" + name + ".bin";
}

common::Status SsdCache::write_blob(const std::string& path, std::span<const std::uint8_t> data) const {
  if (auto s = common::write_file_atomic(*fs_, path, as_bytes_span(data)); !s) {
    return io("Cannot write SSD blob " + path, s.error());
  }
  return {};
}

common::Result<CompressionMeta> SsdCache::write_blob(const std::string& path, std::span<const std::uint8_t> data,
                                                     CompressionKind compression) const {
  return write_blob(path, data, CompressionChoice{compression, 4, 1});
}

common::Result<CompressionMeta> SsdCache::write_blob(const std::string& path, std::span<const std::uint8_t> data,
                                                     const CompressionChoice& choice) const {
  CompressionMeta meta{CompressionKind::none, data.size(), 0, std::nullopt};
  switch (choice.kind) {
    case CompressionKind::none: {
      meta.crc32c = crc32c(data);
      if (auto w = write_blob(path, data); !w) return w.error();
      return meta;
    }
    case CompressionKind::rle: {
      auto [encoded, rle_meta] = rle_compress(data);
      rle_meta.crc32c = crc32c(data);
      if (auto w = write_blob(path, encoded); !w) return w.error();
      return rle_meta;
    }
    case CompressionKind::shuffle_zstd: {
      auto encoded = shuffle_zstd_compress(data, choice.element_size, choice.zstd_level, &meta);
      if (!encoded) return from_codec(encoded.error());
      if (auto w = write_blob(path, *encoded); !w) return w.error();
      return meta;
    }
  }
  return common::Error::invalid_argument("Unknown compression kind");
}

common::Result<Bytes> SsdCache::read_blob(const std::string& path) const {
  // Sized first and read in place: a spilled tensor can be hundreds of MiB, and a second
  // buffer plus copy would double the cost of bringing it back.
  auto size = fs_->file_size(path);
  if (!size) return io("Cannot read SSD blob " + path, size.error());
  if (*size > std::numeric_limits<std::size_t>::max()) return common::Error::io("SSD blob too large: " + path);
  Bytes out(static_cast<std::size_t>(*size));
  if (auto s = fs_->read_exact(path, std::as_writable_bytes(std::span<std::uint8_t>(out))); !s) {
    return io("Cannot read SSD blob " + path, s.error());
  }
  return out;
}

common::Result<Bytes> SsdCache::read_blob_with_meta(const std::string& path, const CompressionMeta& meta) const {
  auto raw = read_blob(path);
  if (!raw) return raw.error();
  Bytes out;
  switch (meta.kind) {
    case CompressionKind::none:
      if (raw->size() != meta.original_bytes) {
        return common::Error::invalid_argument("Invalid SSD blob: length mismatch for uncompressed data");
      }
      out = std::move(raw).value();
      break;
    case CompressionKind::rle: {
      auto decoded = rle_decompress(*raw, meta);
      if (!decoded) return from_codec(decoded.error());
      out = std::move(decoded).value();
      break;
    }
    case CompressionKind::shuffle_zstd: {
      // The codec checks its own header and CRC against the metadata.
      auto decoded = shuffle_zstd_decompress(*raw, meta);
      if (!decoded) return from_codec(decoded.error());
      return std::move(decoded).value();
    }
  }
  if (meta.crc32c && crc32c(out) != *meta.crc32c) {
    return common::Error::invalid_argument("Invalid SSD blob: CRC-32C mismatch in " + path);
  }
  return out;
}

common::Status SsdCache::delete_blob(const std::string& path) const {
  if (auto s = fs_->remove(path); !s) return io("Cannot delete SSD blob " + path, s.error());
  return {};
}

}  // namespace hybrid
