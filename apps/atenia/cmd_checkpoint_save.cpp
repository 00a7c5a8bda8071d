// atenia checkpoint save ROOT (--tensors T.json | --from FILE...) [--tier T] [--created-unix N] [--json]
// T.json: {"tensors":[{"id":"w1","bytes":64,"tier":"ram","grad":false,
//                      "desired_tier":"vram","plan_summary":"..."}]}  (last three optional)
// save stores each tensor's bytes (scenario_payload, or the file's) in ROOT's persistent cache,
// places it on its tier and writes ROOT/checkpoint/checkpoint.meta, then removes the blobs the
// new checkpoint no longer references (hybrid::save_into_root, all or nothing).
#include <filesystem>
#include <iostream>
#include <set>

#include "cache_root.hpp"
#include "checkpoint_commands.hpp"
#include "checkpoint_inputs.hpp"
#include "cli_support.hpp"
#include "common/dir_lock.hpp"
#include "common/file_system.hpp"
#include "hybrid/checkpoint/checkpoint_store.hpp"
#include "hybrid/checkpoint_root/root_save.hpp"

namespace atenia::cli {

int run_save(const CheckpointOptions& o) {
  if (o.tensors.empty() && o.from.empty()) {
    return report(common::Error::malformed("checkpoint save needs --tensors FILE or at least one --from FILE"));
  }
  int stdin_inputs = o.tensors == "-" ? 1 : 0;
  for (const auto& f : o.from) stdin_inputs += f == "-" ? 1 : 0;
  if (stdin_inputs > 1) return report(common::Error::malformed("only one input can be - (stdin)"));
  auto tier = hybrid::parse_memory_tier(o.tier);
  if (!tier) return report(common::Error::invalid_argument("--tier: expected ram, ssd, vram or cpu, got \"" + common::excerpt(o.tier) + "\""));
  std::vector<TensorSpec> no_specs;
  auto specs = o.tensors.empty() ? common::Result<std::vector<TensorSpec>>(no_specs) : read_tensor_specs(o.tensors);
  if (!specs) return report(specs.error());
  std::set<std::string> ids;
  for (const auto& t : *specs) ids.insert(t.id);
  auto files = load_tensor_files(o.from, ids);
  if (!files) return report(files.error());
  const CacheRoot root{o.root};
  const bool root_existed = common::real_file_system().exists(root.root);
  if (auto s = ensure_cache_root(root); !s) return report(s.error());
  // One save at a time per root: two would race on the blobs and the manifest's temporaries.
  auto lock = common::DirLock::acquire(root.root);
  if (!lock) return report(lock.error());
  auto mem = make_manager(root, root.ssd(), true);
  auto saved = hybrid::save_into_root(root, mem, {std::move(*specs), std::move(*files), *tier, o.created_unix});
  if (!saved) {
    if (!root_existed) {
      std::error_code ec;
      std::filesystem::remove_all(root.root, ec);  // a root this save created: nothing of anyone else's in it
    }
    return report(saved.error());
  }
  if (saved->sweep_failed) {
    std::cerr << "atenia: warning: the checkpoint was saved, but unreferenced blobs were not removed: "
              << saved->sweep_failed->message() << "\n";
  }
  const hybrid::HybridCheckpoint& cp = saved->checkpoint;
  if (o.json) {
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const auto& e : cp.entries) entries.push_back(entry_json(e));
    std::cout << nlohmann::ordered_json{{"manifest", hybrid::manifest_path(root.checkpoint())}, {"entries", entries}}.dump()
              << "\n";
  } else {
    std::cout << "saved " << cp.entries.size() << " entries to " << hybrid::manifest_path(root.checkpoint()) << "\n";
  }
  return committed_exit("the checkpoint was saved");
}

}  // namespace atenia::cli
