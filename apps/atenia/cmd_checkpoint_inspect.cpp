// atenia checkpoint inspect ROOT [--json]
// Lists the manifest and checks every blob restore (and restore --out) would read -- presence,
// length, checksum, and each entry's size against the blob limit (the manifest parser) --
// without restoring; any bad one makes the exit 1. Each entry saved from a tensor file (--from,
// or an nltrain run directory) shows its dtype and shape there, and every entry the drift a
// restore on this host would report (13.9.2). It only reads: a save pending recovery (or running) is
// reported, and the committed checkpoint is what is shown.
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "cache_root.hpp"
#include "checkpoint_commands.hpp"
#include "cli_support.hpp"
#include "common/file_system.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint/checkpoint_drift.hpp"
#include "hybrid/checkpoint/checkpoint_store.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"
#include "hybrid/checkpoint_root/committed_read.hpp"
#include "hybrid/checkpoint_root/tensor_file_list.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"

namespace atenia::cli {

namespace {

// What restore --out would trip on in one saved file: its header blob, the header itself, or a
// tensor blob it names; empty when all is well.
std::string header_problem(const hybrid::PersistentHybridCache& cache, const hybrid::SavedFile& f) {
  auto s = hybrid::verify_saved_file(cache, f);  // the check restore --out makes before it writes
  return s ? std::string{} : s.error().message();
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

// One reading of the committed checkpoint at `root`: what inspect prints, or what stops it.
struct Inspection {
  std::optional<hybrid::CheckpointError> manifest_error;
  std::optional<common::Error> error;
  std::string out;  // for stdout
  int bad = 0;
};

Inspection inspect_once(const CacheRoot& root, bool json) {
  Inspection in;
  auto cp = hybrid::read_manifest(common::real_file_system(), root.checkpoint());
  if (!cp) {
    in.manifest_error = cp.error();
    return in;
  }
  const hybrid::PersistentHybridCache cache(root.blobs());
  auto files = hybrid::read_file_list(root);
  if (!files) {
    in.error = files.error();
    return in;
  }
  const auto shapes = file_tensors(cache, *files);
  int& bad = in.bad;
  std::ostringstream text;
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
    if (json) {
      auto j = entry_json(e);
      j["blob"] = blob;
      if (shape != shapes.end()) j["dtype"] = shape->second.dtype, j["shape"] = shape->second.shape;
      j["drift"] = drift;
      entries.push_back(j);
    } else {
      text << "ENTRY id=" << e.id << " is_grad=" << (e.is_grad ? 1 : 0) << " tier=" << hybrid::to_string(e.tier)
           << " len=" << e.len_bytes << " cache_key=" << e.cache_key.value_or("none")
           << " desired_tier=" << (e.desired_tier ? hybrid::to_string(*e.desired_tier) : "none") << " blob=" << blob;
      if (shape != shapes.end()) text << " dtype=" << shape->second.dtype << " shape=" << shape_text(shape->second.shape);
      text << " drift=";
      for (std::size_t i = 0; i < drift.size(); ++i) text << (i ? "," : "") << drift[i];
      text << (drift.empty() ? "none" : "") << "\n";
    }
  }
  for (const hybrid::SavedFile& f : *files) {
    if (auto why = header_problem(cache, f); !why.empty()) {
      ++bad;
      if (!json) text << "FILE file=" << f.file << " header=" << why << "\n";
    }
  }
  if (json) {
    text << nlohmann::ordered_json{{"version", cp->version}, {"created_unix", cp->created_unix},
                                   {"entries", entries}, {"bad_blobs", bad}}.dump()
         << "\n";
  } else {
    text << "version=" << cp->version << " created_unix=" << cp->created_unix << " entries=" << cp->entries.size()
         << " bad_blobs=" << bad << "\n";
  }
  in.out = std::move(text).str();
  return in;
}

}  // namespace

int run_inspect(const CheckpointOptions& o) {
  auto& fs = common::real_file_system();
  if (fs.exists(o.root) && !fs.is_dir(o.root)) return report(ensure_cache_root(CacheRoot{o.root}).error());
  // A save that is running or was killed: its backup holds exactly the committed files, so that
  // is what is inspected, and nothing under the root is touched. A save that starts or commits
  // while the blobs are read would show a healthy root as damaged: the reading is then taken
  // again (committed_read.hpp), and only a settled one is printed.
  bool pending = false;
  const Inspection in = hybrid::read_committed(o.root, [&](const CacheRoot& root, bool save_pending) {
    pending = save_pending;
    return inspect_once(root, o.json);
  });
  if (pending) {
    std::cerr << "atenia: note: a checkpoint save into " << o.root << " is running or was interrupted; shown: the "
              << "committed checkpoint; `atenia checkpoint recover " << o.root << "` rolls the save back\n";
  }
  if (in.manifest_error) return fail_checkpoint(*in.manifest_error);
  if (in.error) return report(*in.error);
  std::cout << in.out;
  return in.bad == 0 ? kExitOk : kExitFailure;
}

}  // namespace atenia::cli
