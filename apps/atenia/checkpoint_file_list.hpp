#pragma once
// ROOT/checkpoint/tensor_files.json, beside the manifest: which tensors came from which
// .npy / .safetensors file, so `restore --out` can write the files back. Each file's header
// bytes are a checksummed blob in the persistent cache (kernel_meta/tensorfile:<file>).
#include <string>
#include <vector>

#include "cache_root.hpp"
#include "common/result.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"

namespace atenia::cli {

[[nodiscard]] std::string files_path(const CacheRoot& root);
[[nodiscard]] std::string header_key(const std::string& file);

struct SavedFile {
  std::string file;    // a plain file name
  std::string format;  // "npy" or "safetensors"
};

// The list, validated; empty when the root holds none (a checkpoint of --tensors only).
[[nodiscard]] common::Result<std::vector<SavedFile>> read_file_list(const CacheRoot& root);

// The layout of one saved file, parsed from its verified header blob (what restore --out and
// inspect both read).
[[nodiscard]] common::Result<hybrid::TensorFile> saved_file_layout(const hybrid::PersistentHybridCache& cache,
                                                                   const SavedFile& file);

// Writes every file `save --from` took in back under `dir`, from the verified blobs.
[[nodiscard]] common::Result<std::vector<std::string>> write_tensor_files(const CacheRoot& root, const std::string& dir);

}  // namespace atenia::cli
