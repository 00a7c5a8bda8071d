#pragma once
// nltrain's run directory is a hybrid checkpoint root (hybrid/checkpoint_root/root_layout.hpp):
//   RUN/checkpoint/checkpoint.meta        the manifest (CRC-32C), written last: the commit point
//   RUN/checkpoint/tensor_files.json      one file, trainer_state.safetensors (state_file.hpp)
//   RUN/blobs/kernel_meta/tensorfile:...  its header, with the metadata (config, counts, run record)
//   RUN/blobs/tensor/tensor%:<name>...    one checksummed blob per tensor
// A save goes through hybrid::save_into_root, the path of `atenia checkpoint save --from`: so
// `atenia checkpoint inspect RUN` lists the run's tensors and `atenia checkpoint restore RUN
// --out DIR` writes trainer_state.safetensors back. Why this shape:
// - nl stays free of hybrid and hybrid free of nl; this library is the one that links both.
// - The state goes in as ONE tensor file, not as loose tensors plus a side file: the store already
//   keeps a file's header (and so its __metadata__) as a checksummed blob inside the same
//   all-or-nothing save, so what is not a tensor needs no second file, format or integrity check.
// - The manifest's created_unix is the trainer's step (a logical time): the same run gives the
//   same bytes, so two runs that agree have identical run directories (the resume tests compare
//   them file for file).
// - Every tensor is on the RAM tier: nltrain trains on the CPU; the memory manager that places
//   them under a budget is a later item.
//
// Cost (tests/bench/nl_store_checkpoint_bench.cpp, a shared virtual disk): a save takes 0.09-0.7 s
// (by the disk's load) against 3-25 ms for the single file, at d=32 and d=128 alike: nearly all
// of it is file-system metadata (188 files each created, renamed, linked into the rollback
// backup and unlinked again), not bytes or fsyncs. A save per step is for tests, not training.
//
// Old runs: a directory holding only checkpoint.nltrain (nl/checkpoint.hpp) still loads; the
// first save in the new layout removes it once the new checkpoint is committed (a stale copy
// that an older nltrain would silently resume from, an older step, is worse than none).
#include <string>

#include "common/file_system.hpp"
#include "common/result.hpp"
#include "nl/checkpoint.hpp"
#include "nl_store/state_file.hpp"

namespace nl_store {

inline constexpr const char* kStateFileName = "trainer_state.safetensors";
inline constexpr const char* kLegacyCheckpointFile = "checkpoint.nltrain";

// The file a report names for the run's checkpoint: RUN/checkpoint/checkpoint.meta.
[[nodiscard]] std::string run_manifest_path(const std::string& dir);

// DIR holds a checkpoint in either layout (a committed one, or one a killed save left pending).
[[nodiscard]] bool has_run_checkpoint(const std::string& dir);

// Writes the checkpoint into DIR (which exists; the caller holds DirLock on it for the whole
// run). A failure at any write leaves the previous checkpoint as it was. A symbolic link
// anywhere under DIR is refused before anything is written.
// An fp64 run's state is saved with F64 tensors (state_file.hpp).
[[nodiscard]] common::Status save_run(const std::string& dir, const nl::Checkpoint& c,
                                      common::FileSystem& fs = common::real_file_system());
[[nodiscard]] common::Status save_run(const std::string& dir, const nl::Checkpoint64& c,
                                      common::FileSystem& fs = common::real_file_system());

// Reads and verifies DIR's checkpoint: the new layout (the committed one while a save is pending),
// else DIR/checkpoint.nltrain; DIR may also name an old checkpoint file itself. Only reads.
// An fp32 run's: an fp64 run's state is refused (invalid_argument, naming both precisions).
[[nodiscard]] common::Result<nl::Checkpoint> load_run(const std::string& dir);
// Whichever precision DIR holds (an old checkpoint file is always fp32).
[[nodiscard]] common::Result<AnyCheckpoint> load_any_run(const std::string& dir);

}  // namespace nl_store
