#include "hybrid/cache/persistent_cache.hpp"

#include "common/atomic_file.hpp"
#include "common/sha256.hpp"
#include "hybrid/cache/cache_meta_format.hpp"
#include "hybrid/format/format_sum.hpp"

#include <fstream>

namespace hybrid {

namespace {

constexpr std::size_t kMaxKeyBytes = 200;
constexpr std::size_t kMaxMetaBytes = 4096;
constexpr CacheKind kAllKinds[] = {CacheKind::tensor, CacheKind::gradient, CacheKind::kernel_meta};

CacheError io(const std::string& what, const common::Error& e) { return CacheError::io(what + ": " + e.to_string()); }

std::span<const std::byte> as_bytes_span(std::span<const std::uint8_t> d) {
  return {reinterpret_cast<const std::byte*>(d.data()), d.size()};
}

CacheResult<void> validate_key(std::string_view key) {
  if (key.empty()) return CacheError::invalid_key("cache key is empty");
  if (key.size() > kMaxKeyBytes) {
    return CacheError::invalid_key("cache key is " + std::to_string(key.size()) + " bytes; the limit is " +
                                   std::to_string(kMaxKeyBytes));
  }
  if (key == "." || key == "..") return CacheError::invalid_key("cache key '" + std::string(key) + "' is reserved");
  if (key.find_first_of(std::string_view("/\\\0", 3)) != std::string_view::npos) {
    return CacheError::invalid_key("cache key holds '/', '\\' or NUL");
  }
  return {};
}

std::string entry_name(CacheKind kind, std::string_view key) {
  return std::string(to_string(kind)) + "/" + std::string(key);
}

// The payload at `path` if it is present and matches `meta`; not_found when absent, corrupt
// (naming the mismatch) otherwise.
CacheResult<std::vector<std::uint8_t>> read_matching(common::FileSystem& fs, const std::string& path,
                                                     const CacheEntryMeta& meta) {
  if (!fs.exists(path)) return CacheError::not_found("payload " + path + " is missing");
  auto size = fs.file_size(path);
  if (!size) return io("Cannot stat cache payload " + path, size.error());
  if (*size != meta.len_bytes) {
    return CacheError::corrupt("length mismatch in " + path + ": meta says " + std::to_string(meta.len_bytes) +
                               " bytes, file has " + std::to_string(*size));
  }
  auto raw = fs.read(path, meta.len_bytes);
  if (!raw) return io("Cannot read cache payload " + path, raw.error());
  const auto* p = reinterpret_cast<const std::uint8_t*>(raw->data());
  std::vector<std::uint8_t> bytes(p, p + raw->size());
  if (bytes.size() != meta.len_bytes) {
    return CacheError::corrupt("length mismatch in " + path + ": meta says " + std::to_string(meta.len_bytes) +
                               " bytes, read " + std::to_string(bytes.size()));
  }
  const std::uint32_t sum = format_checksum(meta.sum, bytes);
  if (sum != meta.checksum32) {
    return CacheError::corrupt("checksum mismatch in " + path + ": meta says " + std::to_string(meta.checksum32) +
                               ", payload gives " + std::to_string(sum));
  }
  return bytes;
}

}  // namespace

PersistentHybridCache::PersistentHybridCache(std::string root, common::FileSystem& fs)
    : root_(std::move(root)), fs_(&fs) {}

std::string PersistentHybridCache::bin_path(CacheKind kind, std::string_view key) const {
  return root_ + "/" + entry_name(kind, key) + ".bin";
}

std::string PersistentHybridCache::meta_path(CacheKind kind, std::string_view key) const {
  return root_ + "/" + entry_name(kind, key) + ".meta";
}

CacheResult<void> PersistentHybridCache::ensure_root() const {
  if (root_.empty()) return CacheError::io("cache root path is empty");
  if (fs_->exists(root_) && !fs_->is_dir(root_)) {
    return CacheError::io("cache root " + root_ + " exists and is not a directory");
  }
  for (CacheKind k : kAllKinds) {
    const std::string dir = root_ + "/" + to_string(k);
    if (auto s = fs_->create_dirs(dir); !s) return io("Cannot create cache directory " + dir, s.error());
  }
  return {};
}

CacheResult<CacheEntryMeta> PersistentHybridCache::get_meta(CacheKind kind, std::string_view key) const {
  if (auto v = validate_key(key); !v) return v.error();
  const std::string mpath = meta_path(kind, key);
  // The message names the file that is missing: the cache key alone does not say where to look.
  if (!fs_->exists(mpath)) {
    return CacheError::not_found("no cache entry " + entry_name(kind, key) + ": " + mpath + " is missing");
  }
  auto text = common::read_text(*fs_, mpath, kMaxMetaBytes);
  if (!text) return io("Cannot read cache meta " + mpath, text.error());
  auto meta = parse_cache_meta(*text);
  if (!meta) return CacheError::corrupt(meta.error().message() + " in " + mpath);
  if (meta->kind != kind) {
    return CacheError::corrupt("cache meta " + mpath + " names kind " + to_string(meta->kind));
  }
  if (meta->key && *meta->key != key) {
    return CacheError::corrupt("cache meta " + mpath + " belongs to key '" + *meta->key + "' (swapped or copied files)");
  }
  // Checked before anything is allocated: a meta claiming more than any save can write
  // (a crafted or sparse file) is refused, not read.
  if (meta->len_bytes > kMaxBlobBytes) {
    return CacheError::corrupt("cache meta " + mpath + " claims " + std::to_string(meta->len_bytes) +
                               " bytes; the limit is " + std::to_string(kMaxBlobBytes));
  }
  return meta;
}

bool PersistentHybridCache::exists(CacheKind kind, std::string_view key) const {
  if (!validate_key(key)) return false;
  const std::string bin = bin_path(kind, key);
  return fs_->exists(meta_path(kind, key)) && (fs_->exists(bin) || fs_->exists(bin + ".next"));
}

CacheResult<std::vector<std::uint8_t>> PersistentHybridCache::get_blob(CacheKind kind, std::string_view key) const {
  auto meta = get_meta(kind, key);
  if (!meta) return meta.error();
  const std::string bin = bin_path(kind, key);
  auto main = read_matching(*fs_, bin, *meta);
  if (main) return main;
  // A replace interrupted after its commit point leaves the new payload in .bin.next.
  auto next = read_matching(*fs_, bin + ".next", *meta);
  if (next) return next;
  if (main.error().kind() == CacheFailure::not_found && next.error().kind() == CacheFailure::not_found) {
    return CacheError::not_found("no payload for cache entry " + entry_name(kind, key) + ": " + bin + " is missing");
  }
  return main.error().kind() == CacheFailure::not_found ? next.error() : main.error();
}

CacheResult<std::size_t> PersistentHybridCache::verify_blob(CacheKind kind, std::string_view key) const {
  auto meta = get_meta(kind, key);
  if (!meta) return meta.error();
  const std::string bin = bin_path(kind, key);
  CacheResult<std::size_t> last =
      CacheError::not_found("no payload for cache entry " + entry_name(kind, key) + ": " + bin + " is missing");
  for (const std::string& path : {bin, bin + ".next"}) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::vector<char> chunk(std::size_t{1} << 20);  // bounded memory, whatever the blob's size
    std::uint32_t hash = format_checksum_init(meta->sum);
    std::uint64_t total = 0;
    while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
      const auto n = static_cast<std::size_t>(in.gcount());
      total += n;
      if (total > meta->len_bytes) break;
      hash = format_checksum_update(meta->sum, hash, {reinterpret_cast<const std::uint8_t*>(chunk.data()), n});
    }
    if (in.bad()) return CacheError::io("Cannot read cache payload " + path);
    if (total != meta->len_bytes) {
      last = CacheError::corrupt("length mismatch in " + path + ": meta says " + std::to_string(meta->len_bytes) +
                                 " bytes, file has " + (total > meta->len_bytes ? "more" : std::to_string(total)));
      continue;
    }
    if (hash != meta->checksum32) {
      last = CacheError::corrupt("checksum mismatch in " + path + ": meta says " + std::to_string(meta->checksum32) +
                                 ", payload gives " + std::to_string(hash));
      continue;
    }
    return static_cast<std::size_t>(total);
  }
  return last;
}

CacheResult<void> PersistentHybridCache::put_blob(CacheKind kind, std::string_view key,
                                                  std::span<const std::uint8_t> bytes, std::uint64_t created_unix,
                                                  bool overwrite) const {
  if (auto v = validate_key(key); !v) return v.error();
  if (auto r = ensure_root(); !r) return r.error();
  if (!overwrite && exists(kind, key)) {
    return CacheError::already_exists("cache entry " + entry_name(kind, key) + " already exists");
  }
  const std::string bin = bin_path(kind, key);
  const std::string next = bin + ".next";
  const std::string mpath = meta_path(kind, key);

  // Settle a replace that an earlier failure interrupted, so .next is free for this one.
  if (fs_->exists(next)) {
    auto meta = get_meta(kind, key);
    if (meta && read_matching(*fs_, next, *meta)) {
      if (auto s = fs_->rename(next, bin); !s) return io("Cannot finish earlier replace of " + bin, s.error());
      if (auto s = fs_->sync_dir(common::parent_dir(bin)); !s) return io("Cannot sync " + bin, s.error());
    } else if (auto s = fs_->remove(next); !s) {
      return io("Cannot remove stale " + next, s.error());
    }
  }

  if (bytes.size() > kMaxBlobBytes) {
    return CacheError::invalid_key("cache entry " + entry_name(kind, key) + " is " + std::to_string(bytes.size()) +
                                   " bytes; the limit is " + std::to_string(kMaxBlobBytes));
  }
  const CacheEntryMeta meta{kind, bytes.size(), format_checksum(FormatSum::crc32c, bytes), created_unix,
                            std::string(key), FormatSum::crc32c};
  if (auto s = common::write_file_atomic(*fs_, next, as_bytes_span(bytes)); !s) {
    return io("Cannot write cache payload " + next, s.error());
  }
  // Commit point: from here on readers see the new version.
  if (auto s = common::write_file_atomic(*fs_, mpath, format_cache_meta(meta)); !s) {
    return io("Cannot write cache meta " + mpath, s.error());
  }
  if (auto s = fs_->rename(next, bin); !s) return io("Cannot install cache payload " + bin, s.error());
  if (auto s = fs_->sync_dir(common::parent_dir(bin)); !s) return io("Cannot sync " + bin, s.error());
  return {};
}

CacheResult<void> PersistentHybridCache::remove(CacheKind kind, std::string_view key) const {
  if (auto v = validate_key(key); !v) return v.error();
  const std::string bin = bin_path(kind, key);
  // The meta goes first: without it the entry is absent, whatever payload files remain.
  for (const std::string& p : {meta_path(kind, key), bin, bin + ".next"}) {
    if (auto s = fs_->remove(p); !s) return io("Cannot remove " + p, s.error());
  }
  return {};
}

namespace {

// An id is a name, not a path. One that was always a safe file name stays as it is (so existing
// checkpoints keep their keys); any other becomes "<kind>%:" and its bytes percent-encoded
// outside [A-Za-z0-9._-], or, when that is long, "<kind>#:" and the SHA-256 of its bytes. The
// three prefixes differ, so distinct ids never share a key.
constexpr std::size_t kMaxPlainIdBytes = 150;

std::string id_key(std::string_view kind, std::string_view id, std::size_t len_bytes) {
  const std::string len = ":len" + std::to_string(len_bytes);
  if (!id.empty() && id.size() <= kMaxPlainIdBytes && id.find_first_of(std::string_view("/\\\0", 3)) == std::string_view::npos) {
    return std::string(kind) + ":" + std::string(id) + len;
  }
  std::string enc;
  for (const char c : id) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '.' || c == '_' || c == '-') {
      enc.push_back(c);
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      enc += {'%', kHex[u >> 4], kHex[u & 15]};
    }
  }
  if (enc.size() <= kMaxPlainIdBytes) return std::string(kind) + "%:" + enc + len;
  return std::string(kind) + "#:" + common::sha256_hex(id) + len;
}

}  // namespace

std::string tensor_cache_key(std::string_view id, std::size_t len_bytes) { return id_key("tensor", id, len_bytes); }

std::string gradient_cache_key(std::string_view id, std::size_t len_bytes) { return id_key("grad", id, len_bytes); }

}  // namespace hybrid
