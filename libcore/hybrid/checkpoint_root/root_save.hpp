#pragma once
// One checkpoint save into a root, all or nothing: generated tensors (atenia's --tensors) and
// the tensors of whole .npy / .safetensors files (atenia's --from, nltrain's trainer state) go
// into the root's persistent cache as checksummed blobs, the files' headers and names into
// tensor_files.json, and the manifest (CRC-32C trailer) is written last. Before anything is
// written the root is refused if it holds a symbolic link (a blob written through it would
// leave the root), and every file in it is kept by SaveRollback, so a save that fails at any
// write, fsync or rename -- or is killed -- leaves the previous checkpoint loadable bit for bit
// (the next writer rolls a killed save back). Once committed, the blobs no entry references
// any more are removed (blob_sweep.hpp).
//
// The caller holds the root's lock (common::DirLock on the root directory) for the whole call:
// atenia for `checkpoint save`, nltrain for the whole training run.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/file_system.hpp"
#include "common/result.hpp"
#include "hybrid/checkpoint/checkpoint_types.hpp"
#include "hybrid/checkpoint_root/root_layout.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/memory/memory_tier.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"

namespace hybrid {

// A generated tensor (its bytes are scenario_payload(id, bytes)), with its placement.
struct TensorSpec {
  std::string id;
  std::uint64_t bytes = 0;
  MemoryTier tier = MemoryTier::ram;
  bool grad = false;
  std::optional<MemoryTier> desired;
  std::optional<std::string> summary;
};

// A whole tensor file, parsed: its tensors become entries named by the file's tensor names.
struct LoadedFile {
  std::string file;  // base name, one per save
  TensorFile layout;
  std::vector<std::uint8_t> bytes;
};

struct SaveInputs {
  std::vector<TensorSpec> generated;
  std::vector<LoadedFile> files;
  MemoryTier files_tier = MemoryTier::ram;
  std::uint64_t created_unix = 0;  // a logical time: the same inputs give the same bytes
};

struct SaveOutcome {
  HybridCheckpoint checkpoint;
  // The save is committed, but removing the blobs it no longer references failed (the next
  // save or `atenia checkpoint recover` retries); the caller may warn.
  std::optional<common::Error> sweep_failed;
};

// `mem` has the root's persistent cache attached (it places the saved tensors for the
// manifest); its SSD tier is not written. Writes go through `fs` (blobs, the file list, the
// manifest), so a fault-injecting file system can fail any of them; SaveRollback itself and the
// sweep work on descriptors. The files' bytes are released as they are stored.
[[nodiscard]] common::Result<SaveOutcome> save_into_root(const CacheRoot& root, HybridMemoryManager& mem,
                                                         SaveInputs inputs,
                                                         common::FileSystem& fs = common::real_file_system());

// Where a reader finds the committed checkpoint of `root`: the root itself, or, while a save
// into it is running or was killed (SaveRollback::pending), the backup that holds exactly the
// committed files. Readers never write, so they never roll anything back themselves.
[[nodiscard]] CacheRoot committed_root(const std::string& root);

}  // namespace hybrid
