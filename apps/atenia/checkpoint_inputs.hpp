#pragma once
// What `atenia checkpoint save` reads before it writes anything: the --tensors list of generated
// tensors and the .npy / .safetensors files of --from, checked whole (ids, sizes, the tensor
// count) so that a bad input is refused with nothing written under the root.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "hybrid/checkpoint_root/root_save.hpp"
#include "hybrid/memory/memory_tier.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"

namespace atenia::cli {

// Each tensor becomes two files under the root (payload and .meta): a file of thousands of
// zero-length tensors would otherwise turn a few hundred KB of input into thousands of files.
inline constexpr std::size_t kMaxCheckpointTensors = 1024;

using hybrid::TensorSpec;  // what save_into_root takes (root_save.hpp)

// The longest tensor id (a safetensors name); longer ones are refused.
inline constexpr std::size_t kMaxTensorIdBytes = 1024;

// Why `id` cannot name a tensor (a manifest line, a cache file name), or nothing.
[[nodiscard]] std::optional<std::string> bad_id(const std::string& id);

[[nodiscard]] common::Result<std::vector<TensorSpec>> read_tensor_specs(const std::string& path);

using hybrid::LoadedFile;

// `ids` holds the ids taken already (the --tensors list); the files' tensor ids are added.
[[nodiscard]] common::Result<std::vector<LoadedFile>> load_tensor_files(const std::vector<std::string>& paths,
                                                                        std::set<std::string>& ids);

}  // namespace atenia::cli
