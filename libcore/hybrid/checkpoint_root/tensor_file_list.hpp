#pragma once
// ROOT/checkpoint/tensor_files.json, beside the manifest: which tensors came from which
// .npy / .safetensors file, so that the files can be written back (atenia checkpoint restore
// --out) or read back whole (nltrain's run directory holds its trainer state as one such file).
// Each file's header bytes are a checksummed blob in the persistent cache
// (kernel_meta/tensorfile:<file>); its tensors are the entries of the manifest.
#include <cstdint>
#include <string>
#include <vector>

#include "common/file_system.hpp"
#include "common/result.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint_root/root_layout.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"

namespace hybrid {

[[nodiscard]] std::string files_path(const CacheRoot& root);
[[nodiscard]] std::string header_key(const std::string& file);

struct SavedFile {
  std::string file;    // a plain file name
  std::string format;  // "npy" or "safetensors"
};

// The list, validated; empty when the root holds none (a checkpoint of --tensors only). A root
// without the list whose cache holds a saved file's header blob (kernel_meta/tensorfile:*) lost
// its list: an io error naming the missing file (a damaged checkpoint, exit 2), for every reader.
[[nodiscard]] common::Result<std::vector<SavedFile>> read_file_list(const CacheRoot& root);

// Replaces the list atomically; `tensors[i]` are the names of `files[i]`'s tensors, in order.
[[nodiscard]] common::Status write_file_list(common::FileSystem& fs, const CacheRoot& root,
                                             const std::vector<SavedFile>& files,
                                             const std::vector<std::vector<std::string>>& tensors);

// The layout of one saved file, parsed from its verified header blob (what restore --out and
// inspect both read). A blob gone (.bin or .meta) is an io error naming the missing file (a
// damaged checkpoint, exit 2); a damaged one is malformed. assemble_saved_file fails the same way.
[[nodiscard]] common::Result<TensorFile> saved_file_layout(const PersistentHybridCache& cache, const SavedFile& file);

// What restore --out and inspect check of one saved file without loading it: its header blob
// parses, and each tensor blob it names has the header's length and its checksum (streamed, 1 MiB
// at a time), failing as saved_file_layout does.
[[nodiscard]] common::Status verify_saved_file(const PersistentHybridCache& cache, const SavedFile& file);

// One saved file, whole, from its verified blobs: the bytes `save --from` read, bit for bit.
struct AssembledFile {
  TensorFile layout;
  std::vector<std::uint8_t> bytes;
};
[[nodiscard]] common::Result<AssembledFile> assemble_saved_file(const PersistentHybridCache& cache, const SavedFile& file);

// Writes every file `save --from` took in back under `dir` (created when absent), from the
// verified blobs, all or nothing: nothing is written unless every file verifies, and a failing
// write removes what the call wrote. A symbolic link at a name in `dir` is replaced, never
// written through (see the .cpp for why and for the one case a failure cannot undo).
[[nodiscard]] common::Result<std::vector<std::string>> write_tensor_files(
    const CacheRoot& root, const std::string& dir, common::FileSystem& fs = common::real_file_system());

}  // namespace hybrid
