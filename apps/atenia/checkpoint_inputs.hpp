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
#include "hybrid/memory/memory_tier.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"

namespace atenia::cli {

// Each tensor becomes two files under the root (payload and .meta): a file of thousands of
// zero-length tensors would otherwise turn a few hundred KB of input into thousands of files.
inline constexpr std::size_t kMaxCheckpointTensors = 1024;

struct TensorSpec {
  std::string id;
  std::uint64_t bytes = 0;
  hybrid::MemoryTier tier = hybrid::MemoryTier::ram;
  bool grad = false;
  std::optional<hybrid::MemoryTier> desired;
  std::optional<std::string> summary;
};

// The longest tensor id (a safetensors name); longer ones are refused.
inline constexpr std::size_t kMaxTensorIdBytes = 1024;

// Why `id` cannot name a tensor (a manifest line, a cache file name), or nothing.
[[nodiscard]] std::optional<std::string> bad_id(const std::string& id);

[[nodiscard]] common::Result<std::vector<TensorSpec>> read_tensor_specs(const std::string& path);

struct LoadedFile {
  std::string file;  // base name
  hybrid::TensorFile layout;
  std::vector<std::uint8_t> bytes;
};

// `ids` holds the ids taken already (the --tensors list); the files' tensor ids are added.
[[nodiscard]] common::Result<std::vector<LoadedFile>> load_tensor_files(const std::vector<std::string>& paths,
                                                                        std::set<std::string>& ids);

}  // namespace atenia::cli
