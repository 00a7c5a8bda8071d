// atenia checkpoint inspect ROOT [--json]
// Lists the manifest and checks every blob restore (and restore --out) would read -- presence,
// length, checksum, and each entry's size against the blob limit (the manifest parser) --
// without restoring; any bad one makes the exit 1. Each entry saved from a tensor file (--from,
// or an nltrain run directory) shows its dtype and shape there, and every entry the drift a
// restore on this host would report (13.9.2). It only reads: a save pending recovery is
// reported, and the committed checkpoint is what is shown.
#include <iostream>
#include <map>

#include "cache_root.hpp"
#include "checkpoint_commands.hpp"
#include "cli_support.hpp"
#include "common/file_system.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint/checkpoint_drift.hpp"
#include "hybrid/checkpoint/checkpoint_store.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"
#include "hybrid/checkpoint_root/save_rollback.hpp"
#include "hybrid/checkpoint_root/tensor_file_list.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"

namespace atenia::cli {

namespace {

// What restore --out would trip on in one saved file: its header blob, the header itself, or a
// tensor blob it names; empty when all is well.
std::string header_problem(const hybrid::PersistentHybridCache& cache, const hybrid::SavedFile& f) {
  auto layout = hybrid::saved_file_layout(cache, f);
  if (!layout) return layout.error().message();
  for (const auto& t : layout->tensors) {
    auto len = cache.verify_blob(hybrid::CacheKind::tensor, hybrid::tensor_cache_key(t.name, t.length));
    if (!len) return hybrid::to_string(len.error());
    if (*len != t.length) return "tensor " + t.name + ": length mismatch with the header";
  }
  return {};
}

// dtype and shape of every tensor of the saved files, by entry id; a file whose header does
// not read is left out here (header_problem reports it).
std::map<std::string, hybrid::FileTensor> file_tensors(const hybrid::PersistentHybridCache& cache,
                                                       const std::vector<hybrid::SavedFile>& files) {
  std::map<std::string, hybrid::FileTensor> out;
  for (const auto& f : files) {
    auto layout = hybrid::saved_file_layout(cache, f);
    if (!layout) continue;
    for (auto& t : layout->tensors) out.emplace(t.name, std::move(t));
  }
  return out;
}

std::vector<std::string> drift_of(const hybrid::CheckpointEntry& e) {
  std::vector<std::string> out;
  if (auto r = hybrid::detect_drift(e, hybrid::restore_tier(e.tier), hybrid::kRestoreAssumesGpu)) {
    for (const auto& d : r->drifts) out.push_back(hybrid::to_string(d));
  }
  return out;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace

int run_inspect(const CheckpointOptions& o) {
  auto& fs = common::real_file_system();
  if (fs.exists(o.root) && !fs.is_dir(o.root)) return report(ensure_cache_root(CacheRoot{o.root}).error());
  // A save that is running or was killed: its backup holds exactly the committed files, so
  // that is what is inspected, and nothing under the root is touched.
  const bool pending = hybrid::SaveRollback::pending(o.root);
  if (pending) {
    std::cerr << "atenia: note: a checkpoint save into " << o.root << " is running or was interrupted; shown: the "
              << "committed checkpoint; `atenia checkpoint recover " << o.root << "` rolls the save back\n";
  }
  const CacheRoot root{pending ? hybrid::SaveRollback::committed_dir(o.root) : o.root};
  auto cp = hybrid::read_manifest(fs, root.checkpoint());
  if (!cp) return fail_checkpoint(cp.error());
  const hybrid::PersistentHybridCache cache(root.blobs());
  auto files = hybrid::read_file_list(root);
  if (!files) return report(files.error());
  const auto shapes = file_tensors(cache, *files);
  int bad = 0;
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const auto& e : cp->entries) {
    std::string blob = "none";
    if (!e.cache_kind && e.tier != hybrid::MemoryTier::cpu) {
      blob = "no cache reference to restore from";  // restore refuses such an entry
      ++bad;
    } else if (e.cache_kind && e.cache_key) {
      auto len = cache.verify_blob(*e.cache_kind, *e.cache_key);  // streamed: bounded memory
      if (!len) blob = hybrid::to_string(len.error());
      else if (*len != e.len_bytes) blob = "length mismatch with manifest";
      else blob = "ok";
      if (blob != "ok") ++bad;
    }
    const auto shape = e.is_grad ? shapes.end() : shapes.find(e.id);
    const std::vector<std::string> drift = drift_of(e);
    if (o.json) {
      auto j = entry_json(e);
      j["blob"] = blob;
      if (shape != shapes.end()) j["dtype"] = shape->second.dtype, j["shape"] = shape->second.shape;
      j["drift"] = drift;
      entries.push_back(j);
    } else {
      std::cout << "ENTRY id=" << e.id << " is_grad=" << (e.is_grad ? 1 : 0) << " tier=" << hybrid::to_string(e.tier)
                << " len=" << e.len_bytes << " cache_key=" << e.cache_key.value_or("none")
                << " desired_tier=" << (e.desired_tier ? hybrid::to_string(*e.desired_tier) : "none")
                << " blob=" << blob;
      if (shape != shapes.end()) std::cout << " dtype=" << shape->second.dtype << " shape=" << shape_text(shape->second.shape);
      std::cout << " drift=";
      for (std::size_t i = 0; i < drift.size(); ++i) std::cout << (i ? "," : "") << drift[i];
      std::cout << (drift.empty() ? "none" : "") << "\n";
    }
  }
  for (const hybrid::SavedFile& f : *files) {
    if (auto why = header_problem(cache, f); !why.empty()) {
      ++bad;
      if (!o.json) std::cout << "FILE file=" << f.file << " header=" << why << "\n";
    }
  }
  if (o.json) {
    std::cout << nlohmann::ordered_json{{"version", cp->version}, {"created_unix", cp->created_unix},
                                        {"entries", entries}, {"bad_blobs", bad}}.dump()
              << "\n";
  } else {
    std::cout << "version=" << cp->version << " created_unix=" << cp->created_unix << " entries=" << cp->entries.size()
              << " bad_blobs=" << bad << "\n";
  }
  return bad == 0 ? kExitOk : kExitFailure;
}

}  // namespace atenia::cli
