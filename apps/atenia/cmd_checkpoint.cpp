// atenia checkpoint save|restore|inspect|recover ROOT (APX 13.9): registration, `recover`, and
// what the subcommands share.
// recover: with the root locked, rolls back a save that was killed part-way (its files put
// back, the files it added removed), then removes the blobs no manifest entry references.
#include <iostream>

#include "cli_common/path_option.hpp"
#include "cache_root.hpp"
#include "checkpoint_commands.hpp"
#include "cli_common/count_option.hpp"
#include "cli_support.hpp"
#include "commands.hpp"
#include "common/dir_lock.hpp"
#include "common/file_system.hpp"
#include "hybrid/checkpoint_root/blob_sweep.hpp"
#include "hybrid/checkpoint_root/save_rollback.hpp"

namespace atenia::cli {

nlohmann::ordered_json entry_json(const hybrid::CheckpointEntry& e) {
  return {{"id", e.id},
          {"is_grad", e.is_grad},
          {"tier", hybrid::to_string(e.tier)},
          {"len", e.len_bytes},
          {"cache_kind", e.cache_kind ? nlohmann::ordered_json(hybrid::to_string(*e.cache_kind)) : nullptr},
          {"cache_key", e.cache_key ? nlohmann::ordered_json(*e.cache_key) : nullptr},
          {"desired_tier", e.desired_tier ? nlohmann::ordered_json(hybrid::to_string(*e.desired_tier)) : nullptr},
          {"plan_summary", e.last_plan_summary ? nlohmann::ordered_json(*e.last_plan_summary) : nullptr}};
}

int fail_checkpoint(const hybrid::CheckpointError& e) { return report(e); }

int run_recover(const CheckpointOptions& o) {
  auto& fs = common::real_file_system();
  if (!fs.is_dir(o.root)) return report(common::Error::io(o.root + ": no such checkpoint root (a directory)"));
  auto lock = common::DirLock::acquire(o.root);
  if (!lock) return report(lock.error());
  auto rolled = hybrid::SaveRollback::recover(o.root);
  if (!rolled) return report(rolled.error());
  auto swept = hybrid::sweep_unreferenced_blobs(CacheRoot{o.root});
  if (!swept) return report(swept.error());
  std::cout << (*rolled ? "rolled back an interrupted save" : "no interrupted save") << "; removed " << *swept
            << " unreferenced blob files\n";
  return committed_exit("the root was recovered");
}

Registration add_checkpoint_command(CLI::App& app) {
  auto o = std::make_shared<CheckpointOptions>();
  auto* sub = app.add_subcommand("checkpoint", "Save, restore, inspect or recover a hybrid checkpoint under a cache root");
  sub->require_subcommand(1);
  auto* save = sub->add_subcommand("save", "Store tensors in the cache root and write its checkpoint");
  save->add_option("root", o->root, "cache root directory")->required();
  save->add_option("--tensors", o->tensors, "JSON file listing generated tensors to checkpoint (- for stdin)");
  save->add_option("--from", o->from, "a .npy or .safetensors file whose tensors to checkpoint (repeatable; - for stdin)");
  save->add_option("--tier", o->tier, "tier for the tensors of --from files: ram, ssd, vram or cpu")->capture_default_str();
  cli_common::add_count_option(save, "--created-unix", o->created_unix, "logical timestamp recorded in the manifest");
  save->add_flag("--json", o->json, "machine-readable output");
  auto* restore = sub->add_subcommand("restore", "Restore the checkpoint into a fresh memory manager (refused while a save is pending recovery)");
  restore->add_option("root", o->root, "cache root directory")->required();
  restore->add_flag("--lazy", o->lazy, "register entries without loading their bytes (13.9.3)");
  restore->add_flag("--gpu-available", o->gpu_available, "a GPU is available: VRAM entries go back on VRAM when they fit, and the warm start is planned for it");
  cli_common::add_path_option(restore, "--out", o->out, "write the .npy / .safetensors files saved with --from back into this directory");
  restore->add_flag("--json", o->json, "machine-readable output");
  auto* inspect = sub->add_subcommand("inspect", "List the manifest and verify every blob restore would read (writes nothing)");
  inspect->add_option("root", o->root, "cache root directory")->required();
  inspect->add_flag("--json", o->json, "machine-readable output");
  auto* recover = sub->add_subcommand("recover", "Roll back a save that was killed part-way and remove unreferenced blobs");
  recover->add_option("root", o->root, "cache root directory")->required();
  return {sub, [o, save, restore, recover] {
            if (save->parsed()) return run_save(*o);
            if (restore->parsed()) return run_restore(*o);
            if (recover->parsed()) return run_recover(*o);
            return run_inspect(*o);
          }};
}

}  // namespace atenia::cli
