#include "nl_store/run_store.hpp"

#include <memory>

#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"
#include "hybrid/checkpoint_root/committed_read.hpp"
#include "hybrid/checkpoint_root/dir_fd.hpp"
#include "hybrid/checkpoint_root/root_save.hpp"
#include "hybrid/checkpoint_root/save_rollback.hpp"
#include "hybrid/checkpoint_root/tensor_file_list.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/memory/vram_adapter.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"
#include "nl_store/state_file.hpp"

namespace nl_store {
namespace {

std::string legacy_path(const std::string& dir) { return dir + "/" + kLegacyCheckpointFile; }

bool has_manifest(const hybrid::CacheRoot& root) {
  return common::real_file_system().exists(hybrid::manifest_path(root.checkpoint()));
}

common::Result<nl::Checkpoint> load_legacy(const std::string& path) {
  auto text = common::read_text(common::real_file_system(), path, nl::kMaxCheckpointBytes);
  if (!text.ok()) return text.error().at_file(path);
  return nl::decode_checkpoint(*text, path);
}

// The run directory's state file, assembled from its blobs.
// `root` is DIR's committed root (DIR itself, or the backup of a save left pending).
common::Result<std::vector<std::uint8_t>> load_root_bytes(const std::string& dir, const hybrid::CacheRoot& root) {
  // Blobs are read through paths under DIR: a link planted there would carry the read outside.
  if (auto s = hybrid::refuse_links_below(dir); !s) return s.error();
  auto manifest = hybrid::read_manifest(common::real_file_system(), root.checkpoint());
  if (!manifest) return common::Error(manifest.error());
  auto files = hybrid::read_file_list(root);
  if (!files) return files.error();
  if (files->size() != 1 || (*files)[0].file != kStateFileName || (*files)[0].format != "safetensors") {
    return common::Error::malformed(hybrid::files_path(root) + ": expected one file, " + kStateFileName +
                                    " (this checkpoint root was not written by nltrain)");
  }
  const hybrid::PersistentHybridCache cache(root.blobs());
  auto whole = hybrid::assemble_saved_file(cache, (*files)[0]);
  if (!whole) return whole.error();
  return std::move(whole->bytes);
}

// The checkpoint in DIR by `decode` (one precision, or either): the new layout, else the legacy
// file (fp32 only: `legacy` converts or refuses it).
template <class Out, class Decode, class Legacy>
common::Result<Out> load_with(const std::string& dir, Decode decode, Legacy legacy) {
  common::FileSystem& fs = common::real_file_system();
  if (fs.node_kind(dir) == common::NodeKind::regular) return legacy(dir);
  if (fs.exists(dir) && !fs.is_dir(dir)) return common::Error::io(dir + ": not a run directory");
  if (has_manifest(hybrid::committed_root(dir))) {
    // A trainer may be saving into DIR meanwhile (`nltrain eval` on a live run, a second `train
    // --resume` that its lock will refuse): committed_read.hpp.
    return hybrid::read_committed(dir, [&](const hybrid::CacheRoot& root, bool) -> common::Result<Out> {
      auto bytes = load_root_bytes(dir, root);
      if (!bytes) return bytes.error();
      return decode(*bytes, dir + "/" + kStateFileName);
    });
  }
  if (fs.exists(legacy_path(dir))) return legacy(legacy_path(dir));
  return common::Error::io(dir + ": no checkpoint here (" + run_manifest_path(dir) + " is missing)");
}

template <class C>
common::Status save(const std::string& dir, const C& c, common::FileSystem& fs) {
  auto fail = [&](const common::Error& e) {
    return common::Error::io("cannot write checkpoint " + run_manifest_path(dir) + " (" + e.message() +
                             "); the previous checkpoint is unchanged");
  };
  auto bytes = encode_state_file(c);
  if (!bytes) return bytes.error();
  const auto span = std::span(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size());
  auto layout = hybrid::parse_safetensors(span, kStateFileName);
  if (!layout) return layout.error();  // our own encoding: a bug, not the user's input
  const hybrid::CacheRoot root{dir};
  hybrid::HybridMemoryManager mem(root.ssd(), std::make_unique<hybrid::NullVramAdapter>());
  mem.attach_persistent_cache(hybrid::PersistentHybridCache(root.blobs()));
  hybrid::SaveInputs in;
  in.files.push_back({kStateFileName, std::move(layout.value()), {span.begin(), span.end()}});
  in.created_unix = c.state.step;
  bytes->clear();
  auto saved = hybrid::save_into_root(root, mem, std::move(in), fs);
  if (!saved) return fail(saved.error());
  // Committed. A sweep that failed leaves unreferenced blobs the next save removes; a legacy file
  // that cannot be removed is never read again (the new layout comes first): neither is an error.
  if (fs.exists(legacy_path(dir))) (void)fs.remove(legacy_path(dir));
  return {};
}

}  // namespace

std::string run_manifest_path(const std::string& dir) { return hybrid::manifest_path(hybrid::CacheRoot{dir}.checkpoint()); }

bool has_run_checkpoint(const std::string& dir) {
  return has_manifest(hybrid::committed_root(dir)) || common::real_file_system().exists(legacy_path(dir));
}

common::Status save_run(const std::string& dir, const nl::Checkpoint& c, common::FileSystem& fs) { return save(dir, c, fs); }
common::Status save_run(const std::string& dir, const nl::Checkpoint64& c, common::FileSystem& fs) { return save(dir, c, fs); }

common::Result<nl::Checkpoint> load_run(const std::string& dir) {
  return load_with<nl::Checkpoint>(
      dir, [](std::span<const std::uint8_t> b, const std::string& what) { return decode_state_file(b, what); }, load_legacy);
}

common::Result<AnyCheckpoint> load_any_run(const std::string& dir) {
  auto legacy = [](const std::string& path) -> common::Result<AnyCheckpoint> {
    auto c = load_legacy(path);
    if (!c) return c.error();
    return AnyCheckpoint(std::move(*c));
  };
  return load_with<AnyCheckpoint>(
      dir, [](std::span<const std::uint8_t> b, const std::string& what) { return decode_any_state_file(b, what); }, legacy);
}

}  // namespace nl_store
