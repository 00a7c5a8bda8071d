#include "hybrid/checkpoint_root/blob_sweep.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <string>

#include "hybrid/checkpoint_root/tensor_file_list.hpp"
#include "hybrid/checkpoint_root/dir_fd.hpp"
#include "common/file_system.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint/checkpoint_types.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"

namespace hybrid {

namespace {

// "<kind>/<file name>" of every file the checkpoint may read.
common::Result<std::set<std::string>> referenced_blob_files(const CacheRoot& root) {
  auto cp = hybrid::read_manifest(common::real_file_system(), root.checkpoint());
  if (!cp) return cp.error();
  std::set<std::string> out;
  auto add = [&out](hybrid::CacheKind kind, const std::string& key) {
    for (const char* suffix : {".bin", ".meta", ".bin.next"}) out.insert(std::string(hybrid::to_string(kind)) + "/" + key + suffix);
  };
  for (const auto& e : cp->entries) {
    if (e.cache_kind && e.cache_key) add(*e.cache_kind, *e.cache_key);
  }
  auto files = read_file_list(root);
  if (!files) return files.error();
  for (const SavedFile& f : *files) add(hybrid::CacheKind::kernel_meta, header_key(f.file));
  return out;
}

}  // namespace

common::Result<std::size_t> sweep_unreferenced_blobs(const CacheRoot& root) {
  if (!common::real_file_system().exists(hybrid::manifest_path(root.checkpoint()))) return std::size_t{0};
  auto keep = referenced_blob_files(root);
  if (!keep) return keep.error();
  auto r = open_dir_path(root.root);
  if (!r) return r.error();
  if (!r->valid()) return std::size_t{0};
  auto blobs = open_subdir(r->get(), "blobs", root.blobs());
  if (!blobs) return blobs.error();
  if (!blobs->valid()) return std::size_t{0};
  std::size_t removed = 0;
  for (hybrid::CacheKind kind : {hybrid::CacheKind::tensor, hybrid::CacheKind::gradient, hybrid::CacheKind::kernel_meta}) {
    const std::string kind_name = hybrid::to_string(kind);
    const std::string shown = root.blobs() + "/" + kind_name;
    auto dir = open_subdir(blobs->get(), kind_name, shown);
    if (!dir) return dir.error();
    if (!dir->valid()) continue;
    auto entries = list_dir(dir->get(), shown);
    if (!entries) return entries.error();
    for (const DirEntry& e : *entries) {
      if (e.type != EntryType::file || keep->contains(kind_name + "/" + e.name)) continue;
      if (::unlinkat(dir->get(), e.name.c_str(), 0) != 0 && errno != ENOENT) {
        return common::Error::io("cannot remove " + shown + "/" + e.name + ": " + std::strerror(errno));
      }
      ++removed;
    }
  }
  return removed;
}

}  // namespace hybrid
