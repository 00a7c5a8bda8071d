// atenia checkpoint save ROOT (--tensors T.json | --from FILE...) [--tier T] [--created-unix N] [--json]
// T.json: {"tensors":[{"id":"w1","bytes":64,"tier":"ram","grad":false,
//                      "desired_tier":"vram","plan_summary":"..."}]}  (last three optional)
// save stores each tensor's bytes (scenario_payload, or the file's) in ROOT's persistent cache,
// places it on its tier and writes ROOT/checkpoint/checkpoint.meta, then removes the blobs the
// new checkpoint no longer references.
#include <filesystem>
#include <iostream>
#include <set>
#include <span>

#include "blob_sweep.hpp"
#include "cache_root.hpp"
#include "checkpoint_commands.hpp"
#include "checkpoint_file_list.hpp"
#include "checkpoint_inputs.hpp"
#include "cli_support.hpp"
#include "dir_fd.hpp"
#include "save_rollback.hpp"
#include "common/dir_lock.hpp"
#include "common/file_system.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint/checkpoint_store.hpp"
#include "hybrid/graph/batch_scenario.hpp"

namespace atenia::cli {

namespace {

// Registers a saved tensor on its tier for the manifest. The bytes live once, in the blob
// just written (fsynced and renamed into place); restore places them from there. So RAM, CPU
// and SSD entries are registered by size alone: spilling an SSD tensor here as well wrote and
// fsynced every byte a second time, into a spill file nothing reads (restore spills afresh).
// VRAM keeps the real registration: without a GPU it degrades to RAM, and the manifest must
// record the tier the tensor really got.
common::Status place_saved(hybrid::HybridMemoryManager& mem, const std::string& id,
                           std::span<const std::uint8_t> data, hybrid::MemoryTier tier) {
  if (tier == hybrid::MemoryTier::vram) return mem.register_tensor_with_data(id, hybrid::Bytes(data.begin(), data.end()), tier);
  mem.register_tensor(id, data.size(), tier);
  return {};
}

}  // namespace

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
  if (auto s = refuse_links_below(root.root); !s) return report(s.error());
  // A save that fails part-way removes every file it added and puts back every file it
  // replaced (blobs of the same id and length, the file list), so the previous checkpoint
  // stays loadable, bit for bit; the lock keeps other writers out.
  auto rollback = SaveRollback::begin(root.root);
  if (!rollback) return report(rollback.error());
  auto fail = [&](const common::Error& e) {
    rollback->rollback();
    if (!root_existed) {
      std::error_code ec;
      std::filesystem::remove_all(root.root, ec);  // a root this save created: nothing of anyone else's in it
    }
    return report(e);
  };
  auto mem = make_manager(root, root.ssd(), true);
  const hybrid::PersistentHybridCache& cache = *mem.persistent_cache();
  for (const TensorSpec& t : *specs) {
    hybrid::Bytes payload = hybrid::scenario_payload(t.id, t.bytes);
    if (t.grad) {
      if (auto r = mem.gradients().persist(t.id, payload, o.created_unix, true); !r) {
        return fail(r.error());
      }
    } else if (auto r = cache.put_blob(hybrid::CacheKind::tensor, hybrid::tensor_cache_key(t.id, t.bytes), payload,
                                       o.created_unix, true);
               !r) {
      return fail(r.error());
    }
    if (auto r = place_saved(mem, t.id, payload, t.tier); !r) {
      return fail(r.error());
    }
    mem.hints().set_desired_tier(t.id, t.desired);
    mem.hints().set_last_plan_summary(t.id, t.summary);
  }
  nlohmann::ordered_json file_list = nlohmann::ordered_json::array();
  for (LoadedFile& lf : *files) {
    const auto& header = lf.layout.header;
    if (auto r = cache.put_blob(hybrid::CacheKind::kernel_meta, header_key(lf.file),
                                {reinterpret_cast<const std::uint8_t*>(header.data()), header.size()}, o.created_unix, true);
        !r) {
      return fail(r.error());
    }
    nlohmann::ordered_json names = nlohmann::ordered_json::array();
    for (const auto& t : lf.layout.tensors) {
      const std::span<const std::uint8_t> data(lf.bytes.data() + t.offset, t.length);
      if (auto r = cache.put_blob(hybrid::CacheKind::tensor, hybrid::tensor_cache_key(t.name, t.length), data,
                                  o.created_unix, true);
          !r) {
        return fail(r.error());
      }
      if (auto r = place_saved(mem, t.name, data, *tier); !r) {
        return fail(r.error());
      }
      names.push_back(t.name);
    }
    file_list.push_back({{"file", lf.file}, {"format", hybrid::to_string(lf.layout.format)}, {"tensors", names}});
    lf.bytes = {};  // stored in the blobs now
  }
  if (auto s = common::real_file_system().create_dirs(root.checkpoint()); !s) return fail(s.error());
  if (auto s = write_output(files_path(root), nlohmann::ordered_json{{"version", 1}, {"files", file_list}}.dump() + "\n");
      !s) {
    return fail(s.error());
  }
  auto cp = hybrid::save_checkpoint(root.checkpoint(), o.created_unix, mem);
  if (!cp) return fail(cp.error());
  rollback->commit();
  // Past the commit point: the blobs no entry references any more (a tensor saved again under
  // another length, files an earlier killed save left) go now, never before.
  if (auto swept = sweep_unreferenced_blobs(root); !swept) {
    std::cerr << "atenia: warning: the checkpoint was saved, but unreferenced blobs were not removed: "
              << swept.error().message() << "\n";
  }
  if (o.json) {
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const auto& e : cp->entries) entries.push_back(entry_json(e));
    std::cout << nlohmann::ordered_json{{"manifest", hybrid::manifest_path(root.checkpoint())}, {"entries", entries}}.dump()
              << "\n";
  } else {
    std::cout << "saved " << cp->entries.size() << " entries to " << hybrid::manifest_path(root.checkpoint()) << "\n";
  }
  return committed_exit("the checkpoint was saved");
}

}  // namespace atenia::cli
