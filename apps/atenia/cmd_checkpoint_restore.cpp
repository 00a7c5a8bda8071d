// atenia checkpoint restore ROOT [--lazy] [--gpu-available] [--out DIR] [--json]
// Materializes the checkpoint into a fresh manager and prints what came back, the drift and the
// warm-start plan; --out writes the files saved with --from back, all or nothing, before anything
// is printed (hybrid::write_tensor_files). It only reads ROOT: with a save pending recovery it
// refuses and names the command that recovers.
#include <iostream>
#include <string>
#include <vector>

#include "cache_root.hpp"
#include "checkpoint_commands.hpp"
#include "cli_support.hpp"
#include "common/file_system.hpp"
#include "hybrid/checkpoint/checkpoint_drift.hpp"
#include "hybrid/checkpoint/checkpoint_store.hpp"
#include "hybrid/checkpoint/lazy_restore.hpp"
#include "hybrid/checkpoint/warm_start.hpp"
#include "hybrid/checkpoint_root/save_lock.hpp"
#include "hybrid/checkpoint_root/save_rollback.hpp"
#include "hybrid/checkpoint_root/tensor_file_list.hpp"

namespace atenia::cli {

namespace {

common::Status refuse_pending(const std::string& root) {
  if (!hybrid::SaveRollback::pending(root)) return {};
  return common::Error::io(root + ": a checkpoint save into it is running or was interrupted; run `atenia checkpoint "
                           "recover " + root + "` (or the next checkpoint save) to roll it back, then restore");
}

}  // namespace

int run_restore(const CheckpointOptions& o) {
  const CacheRoot root{o.root};
  // A running save (an nltrain run checkpointing) is waited for, and none starts until the
  // restore is done (save_lock.hpp): what is pending after that is an interrupted save.
  const auto save_lock = hybrid::SaveLock::for_read(root.root);
  if (auto s = refuse_pending(root.root); !s) return report(s.error());
  auto& fs = common::real_file_system();
  if (fs.exists(root.root) && !fs.is_dir(root.root)) return report(ensure_cache_root(root).error());
  ScratchDir scratch;  // the restored SSD tier is a throwaway: restore must not touch ROOT
  auto mem = make_manager(root, scratch.path(), o.gpu_available);
  hybrid::DriftCollector drift;
  hybrid::LazyRegistry lazy;
  std::vector<hybrid::VramFallback> fallbacks;
  // With --gpu-available a VRAM entry goes back on VRAM when it fits; --lazy registers entries
  // without their bytes, so it keeps the hardware-agnostic RAM placement.
  auto cp = o.lazy ? hybrid::restore_checkpoint_lazy(root.checkpoint(), mem, lazy, &drift)
                   : hybrid::restore_checkpoint_on_host(root.checkpoint(), mem, o.gpu_available, &drift, &fallbacks);
  if (!cp) return fail_checkpoint(cp.error());
  for (const auto& f : fallbacks) {
    std::cerr << "atenia: note: " << f.id << " was saved on VRAM and is restored in RAM: " << f.reason << "\n";
  }
  // The files go to --out before anything is printed: a restore that cannot write them all (a
  // damaged checkpoint, a failed write) prints no RESTORED line and leaves DIR as it was.
  std::vector<std::string> written;
  if (!o.out.empty()) {
    auto w = hybrid::write_tensor_files(root, o.out);
    if (!w) return report(w.error());
    written = std::move(w.value());
  }
  const auto plan = hybrid::build_warm_start_plan(mem, cp.value(), drift.reports(), o.gpu_available);

  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const auto& e : cp->entries) {
    const auto tier = mem.get_tier(e.id);
    const char* state = !tier ? "not_restored" : o.lazy && lazy.state(e.id) == hybrid::LazyState::unmaterialized
                                                     ? "lazy"
                                                     : "loaded";
    if (o.json) {
      entries.push_back({{"id", e.id}, {"restored_tier", tier ? hybrid::to_string(*tier) : "none"},
                         {"len", e.len_bytes}, {"state", state}});
    } else {
      std::cout << "RESTORED id=" << e.id << " tier=" << (tier ? hybrid::to_string(*tier) : "none")
                << " len=" << e.len_bytes << " state=" << state << "\n";
    }
  }
  nlohmann::ordered_json drifts = nlohmann::ordered_json::array(), decisions = nlohmann::ordered_json::array();
  for (const auto& r : drift.reports()) {
    if (o.json) drifts.push_back(hybrid::to_string(r));
    else std::cout << "DRIFT " << hybrid::to_string(r) << "\n";
  }
  for (const auto& d : plan.decisions) {
    if (o.json) decisions.push_back({{"id", d.id}, {"action", hybrid::to_string(d.action)}, {"reason", d.reason}});
    else std::cout << "WARM_START id=" << d.id << " action=" << hybrid::to_string(d.action) << " reason=" << d.reason << "\n";
  }
  for (const auto& f : written) {
    if (!o.json) std::cout << "WROTE " << f << "\n";
  }
  if (o.json) {
    std::cout << nlohmann::ordered_json{{"entries", entries}, {"drift", drifts}, {"warm_start", decisions},
                                        {"summary", plan.summary}, {"written", written}}.dump()
              << "\n";
  } else {
    std::cout << plan.summary << "\n";
  }
  return kExitOk;
}

}  // namespace atenia::cli
