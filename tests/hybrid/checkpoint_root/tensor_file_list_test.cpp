// Saved tensor files in a checkpoint root: a missing blob is an io error (a corrupt checkpoint,
// exit 2) naming the missing file.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/file_system.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint_root/tensor_file_list.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"
#include "support/temp_dir.hpp"

// A named namespace around the whole file: the unity build compiles it in one translation unit
// with other tests, whose helpers have the same names.
namespace tensor_file_list_test {

using Bytes = std::vector<std::uint8_t>;

// A .npy file of `n` little-endian float32 values 0, 1, 2... (format 1.0, header padded to 64).
Bytes npy_file(std::size_t n, std::uint8_t salt) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(n) + ",), }";
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<std::uint8_t>(dict.size() & 0xff),
               static_cast<std::uint8_t>(dict.size() >> 8)};
  out.insert(out.end(), dict.begin(), dict.end());
  for (std::size_t i = 0; i < 4 * n; ++i) out.push_back(static_cast<std::uint8_t>(i * 7 + salt));
  return out;
}

// A checkpoint root holding the given .npy files as `save --from` stores them: the header blob,
// one tensor blob each, and tensor_files.json.
void make_root(const hybrid::CacheRoot& root, const std::map<std::string, Bytes>& files) {
  const hybrid::PersistentHybridCache cache(root.blobs());
  std::vector<hybrid::SavedFile> list;
  std::vector<std::vector<std::string>> names;
  for (const auto& [name, bytes] : files) {
    const std::string stem = name.substr(0, name.size() - 4);
    auto layout = hybrid::parse_npy(bytes, stem, name);
    REQUIRE(layout.ok());
    const auto& h = layout->header;
    REQUIRE(cache.put_blob(hybrid::CacheKind::kernel_meta, hybrid::header_key(name),
                           {reinterpret_cast<const std::uint8_t*>(h.data()), h.size()}, 0, true)
                .ok());
    const auto& t = layout->tensors.at(0);
    REQUIRE(cache.put_blob(hybrid::CacheKind::tensor, hybrid::tensor_cache_key(t.name, t.length),
                           {bytes.data() + t.offset, t.length}, 0, true)
                .ok());
    list.push_back({name, "npy"});
    names.push_back({t.name});
  }
  REQUIRE(hybrid::write_file_list(common::real_file_system(), root, list, names).ok());
}

TEST_CASE("tensor_file_list: a missing blob or .meta is an io error naming the missing file") {
  for (const char* gone : {"blobs/tensor/tensor:b:len12.bin", "blobs/tensor/tensor:b:len12.meta",
                           "blobs/kernel_meta/tensorfile:b.npy.bin", "blobs/kernel_meta/tensorfile:b.npy.meta"}) {
    CAPTURE(gone);
    testsupport::TempDir tmp;
    const hybrid::CacheRoot root{tmp.file("ck")};
    make_root(root, {{"a.npy", npy_file(6, 1)}, {"b.npy", npy_file(3, 2)}});
    REQUIRE(std::filesystem::remove(root.root + "/" + gone));
    // What restore --out and nltrain read a saved file through.
    const hybrid::PersistentHybridCache cache(root.blobs());
    auto whole = hybrid::assemble_saved_file(cache, {"b.npy", "npy"});
    REQUIRE_FALSE(whole.ok());
    CHECK(whole.error().code() == common::ErrorCode::io);
    CHECK(whole.error().to_string().find(root.root + "/" + gone + " is missing") != std::string::npos);
  }
}

}  // namespace tensor_file_list_test
