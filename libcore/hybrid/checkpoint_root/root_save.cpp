#include "hybrid/checkpoint_root/root_save.hpp"

#include <span>

#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint/checkpoint_store.hpp"
#include "hybrid/checkpoint_root/batched_sync.hpp"
#include "hybrid/checkpoint_root/blob_sweep.hpp"
#include "hybrid/checkpoint_root/dir_fd.hpp"
#include "hybrid/checkpoint_root/save_lock.hpp"
#include "hybrid/checkpoint_root/save_rollback.hpp"
#include "hybrid/checkpoint_root/tensor_file_list.hpp"
#include "hybrid/graph/batch_scenario.hpp"

namespace hybrid {

namespace {

// Registers a saved tensor on its tier for the manifest. The bytes live once, in the blob
// just written (fsynced and renamed into place); restore places them from there. So RAM, CPU
// and SSD entries are registered by size alone: spilling an SSD tensor here as well wrote and
// fsynced every byte a second time, into a spill file nothing reads (restore spills afresh).
// VRAM keeps the real registration: without a GPU it degrades to RAM, and the manifest must
// record the tier the tensor really got.
common::Status place_saved(HybridMemoryManager& mem, const std::string& id, std::span<const std::uint8_t> data,
                           MemoryTier tier) {
  if (tier == MemoryTier::vram) return mem.register_tensor_with_data(id, Bytes(data.begin(), data.end()), tier);
  mem.register_tensor(id, data.size(), tier);
  return {};
}

// Everything up to the manifest, the commit point; any error leaves the caller to roll back.
common::Result<HybridCheckpoint> write_all(const CacheRoot& root, HybridMemoryManager& mem, SaveInputs& in,
                                           common::FileSystem& fs) {
  BatchedSyncFileSystem batched(fs);
  const PersistentHybridCache cache(root.blobs(), batched);
  for (const TensorSpec& t : in.generated) {
    Bytes payload = scenario_payload(t.id, t.bytes);
    if (t.grad) {
      if (auto r = mem.gradients().persist(t.id, payload, in.created_unix, true); !r) return common::Error(r.error());
    } else if (auto r = cache.put_blob(CacheKind::tensor, tensor_cache_key(t.id, t.bytes), payload, in.created_unix, true);
               !r) {
      return common::Error(r.error());
    }
    if (auto r = place_saved(mem, t.id, payload, t.tier); !r) return r.error();
    mem.hints().set_desired_tier(t.id, t.desired);
    mem.hints().set_last_plan_summary(t.id, t.summary);
  }
  std::vector<SavedFile> saved;
  std::vector<std::vector<std::string>> names;
  for (LoadedFile& lf : in.files) {
    const auto& header = lf.layout.header;
    if (auto r = cache.put_blob(CacheKind::kernel_meta, header_key(lf.file),
                                {reinterpret_cast<const std::uint8_t*>(header.data()), header.size()}, in.created_unix,
                                true);
        !r) {
      return common::Error(r.error());
    }
    names.emplace_back();
    for (const auto& t : lf.layout.tensors) {
      const std::span<const std::uint8_t> data(lf.bytes.data() + t.offset, t.length);
      if (auto r = cache.put_blob(CacheKind::tensor, tensor_cache_key(t.name, t.length), data, in.created_unix, true);
          !r) {
        return common::Error(r.error());
      }
      if (auto r = place_saved(mem, t.name, data, in.files_tier); !r) return r.error();
      names.back().push_back(t.name);
    }
    saved.push_back({lf.file, to_string(lf.layout.format)});
    lf.bytes = {};  // stored in the blobs now
  }
  if (auto s = write_file_list(batched, root, saved, names); !s) return s.error();
  if (auto s = batched.flush(root.root); !s) return s.error();  // every blob durable before the manifest names it
  auto cp = save_checkpoint(root.checkpoint(), in.created_unix, mem, fs);
  if (!cp) return common::Error(cp.error());
  return std::move(cp.value());
}

}  // namespace

common::Result<SaveOutcome> save_into_root(const CacheRoot& root, HybridMemoryManager& mem, SaveInputs inputs,
                                           common::FileSystem& fs) {
  if (auto s = refuse_links_below(root.root); !s) return s.error();
  // Readers wait for the whole save, its sweep included (save_lock.hpp).
  auto save_lock = SaveLock::for_save(root.root);
  if (!save_lock) return save_lock.error();
  // A save that fails part-way removes every file it added and puts back every file it
  // replaced (blobs of the same id and length, the file list), so the previous checkpoint
  // stays loadable, bit for bit; the caller's lock keeps other writers out.
  auto rollback = SaveRollback::begin(root.root);
  if (!rollback) return rollback.error();
  auto cp = write_all(root, mem, inputs, fs);
  if (!cp) {
    rollback->rollback();
    return cp.error();
  }
  rollback->commit();
  SaveOutcome out{std::move(cp.value()), std::nullopt};
  // Past the commit point: the blobs no entry references any more (a tensor saved again under
  // another length, files an earlier killed save left) go now, never before.
  if (auto swept = sweep_unreferenced_blobs(root); !swept) out.sweep_failed = swept.error();
  return out;
}

CacheRoot committed_root(const std::string& root) {
  return CacheRoot{SaveRollback::pending(root) ? SaveRollback::committed_dir(root) : root};
}

}  // namespace hybrid
