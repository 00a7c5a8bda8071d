// write_tensor_files (what `atenia checkpoint restore --out DIR` runs): nothing left behind by a
// failing write, fsync or rename; a link inside DIR is replaced, never written through; a
// missing blob is an io error (a corrupt checkpoint, exit 2) naming the missing file.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
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
  // Byte by byte: GCC 12 at -O3 misreads the range insert into this vector (-Warray-bounds).
  for (const char c : dict) out.push_back(static_cast<std::uint8_t>(c));
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

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every name in `dir` with what it holds: a link's target, or a regular file's bytes.
std::map<std::string, std::string> listing(const std::string& dir) {
  std::map<std::string, std::string> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    out[name] = e.is_symlink() ? "link:" + std::filesystem::read_symlink(e.path()).string() : read_all(e.path());
  }
  return out;
}

std::string as_text(const Bytes& b) { return {b.begin(), b.end()}; }


TEST_CASE("tensor_file_list: restore --out failing at any write, fsync or rename leaves DIR as it was") {
  const std::map<std::string, Bytes> files{
      {"a.npy", npy_file(6, 1)}, {"b.npy", npy_file(3, 2)}, {"c.npy", npy_file(5, 3)}};
  for (const bool fresh_dir : {true, false}) {
    CAPTURE(fresh_dir);
    int failures = 0;
    for (std::uint64_t n = 1;; ++n) {
      CAPTURE(n);
      testsupport::TempDir tmp;
      const hybrid::CacheRoot root{tmp.file("ck")};
      make_root(root, files);
      const std::string dir = tmp.file("out");
      if (!fresh_dir) {
        std::filesystem::create_directory(dir);
        std::ofstream(dir + "/b.npy") << "the user's old b";
        std::ofstream(dir + "/keep.txt") << "unrelated";
      }
      const auto before = listing(dir);
      common::FaultInjectingFileSystem fs(common::real_file_system());
      fs.fail_at(n);
      auto w = hybrid::write_tensor_files(root, dir, fs);
      if (!fs.fired()) {
        REQUIRE(w.ok());
        CHECK(w->size() == 3);
        auto after = listing(dir);
        for (const auto& [name, bytes] : files) CHECK(after[name] == as_text(bytes));
        CHECK(after.size() == (fresh_dir ? 3 : 4));
        break;
      }
      ++failures;
      CHECK_FALSE(w.ok());
      // Nothing this call created is left (no temporary, no new name, no DIR it made). A name that
      // already existed holds its old bytes or the new ones, never a torn mix: once one rename of
      // the commit replaced it, a later failing rename cannot put the old file back.
      CHECK(std::filesystem::exists(dir) == !fresh_dir);
      const auto after = listing(dir);
      CHECK(after.size() == before.size());
      for (const auto& [name, old] : before) {
        CAPTURE(name);
        REQUIRE(after.count(name) == 1);
        const auto it = files.find(name);
        CHECK((after.at(name) == old || (it != files.end() && after.at(name) == as_text(it->second))));
      }
    }
    CHECK(failures >= 12);  // 3 temporaries (create, append, sync), 3 renames
  }
}

TEST_CASE("tensor_file_list: a link inside DIR is replaced by the restored file, its target untouched") {
  testsupport::TempDir tmp;
  const hybrid::CacheRoot root{tmp.file("ck")};
  const Bytes a = npy_file(4, 9);
  make_root(root, {{"a.npy", a}});
  std::filesystem::create_directory(tmp.file("out"));
  std::filesystem::create_directory(tmp.file("victim"));
  std::ofstream(tmp.file("victim/keep.txt")) << "precious";
  std::filesystem::create_symlink("../victim/keep.txt", tmp.file("out/a.npy"));
  auto w = hybrid::write_tensor_files(root, tmp.file("out"));
  REQUIRE(w.ok());
  CHECK(read_all(tmp.file("victim/keep.txt")) == "precious");
  CHECK_FALSE(std::filesystem::is_symlink(tmp.file("out/a.npy")));
  CHECK(read_all(tmp.file("out/a.npy")) == as_text(a));
}

TEST_CASE("tensor_file_list: a missing blob or .meta is an io error naming the missing file; nothing is written") {
  for (const char* gone : {"blobs/tensor/tensor:b:len12.bin", "blobs/tensor/tensor:b:len12.meta",
                           "blobs/kernel_meta/tensorfile:b.npy.bin", "blobs/kernel_meta/tensorfile:b.npy.meta"}) {
    CAPTURE(gone);
    testsupport::TempDir tmp;
    const hybrid::CacheRoot root{tmp.file("ck")};
    make_root(root, {{"a.npy", npy_file(6, 1)}, {"b.npy", npy_file(3, 2)}});
    REQUIRE(std::filesystem::remove(root.root + "/" + gone));
    auto w = hybrid::write_tensor_files(root, tmp.file("out"));
    REQUIRE_FALSE(w.ok());
    CHECK(w.error().code() == common::ErrorCode::io);
    CHECK(w.error().to_string().find(root.root + "/" + gone + " is missing") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(tmp.file("out")));
    // What nltrain reads a run's state through: the same error.
    const hybrid::PersistentHybridCache cache(root.blobs());
    auto whole = hybrid::assemble_saved_file(cache, {"b.npy", "npy"});
    REQUIRE_FALSE(whole.ok());
    CHECK(whole.error().code() == common::ErrorCode::io);
    CHECK(whole.error().to_string().find(root.root + "/" + gone + " is missing") != std::string::npos);
  }
}

TEST_CASE("tensor_file_list: header blobs without tensor_files.json are a damaged checkpoint, not an empty list") {
  testsupport::TempDir tmp;
  const hybrid::CacheRoot root{tmp.file("ck")};
  make_root(root, {{"a.npy", npy_file(6, 1)}});
  REQUIRE(std::filesystem::remove(hybrid::files_path(root)));
  // Main read the missing list as "no files": inspect passed and restore --out wrote nothing, exit 0.
  auto list = hybrid::read_file_list(root);
  REQUIRE_FALSE(list.ok());
  CHECK(list.error().code() == common::ErrorCode::io);
  CHECK(list.error().to_string() == hybrid::files_path(root) + " is missing, but " + root.blobs() +
                                        "/kernel_meta holds the header blob of a saved file (tensorfile:a.npy); the "
                                        "checkpoint is damaged");
  auto w = hybrid::write_tensor_files(root, tmp.file("out"));
  REQUIRE_FALSE(w.ok());
  CHECK_FALSE(std::filesystem::exists(tmp.file("out")));
  // Without a header blob a root without the list is a checkpoint of --tensors only.
  REQUIRE(std::filesystem::remove(root.blobs() + "/kernel_meta/tensorfile:a.npy.bin"));
  REQUIRE(std::filesystem::remove(root.blobs() + "/kernel_meta/tensorfile:a.npy.meta"));
  auto none = hybrid::read_file_list(root);
  REQUIRE(none.ok());
  CHECK(none->empty());
}

}  // namespace tensor_file_list_test
