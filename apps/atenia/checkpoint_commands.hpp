#pragma once
// The four `atenia checkpoint` subcommands (APX 13.9), one file each, over one options struct.
// save writes (locked, all-or-nothing, see save_rollback.hpp); recover rolls an interrupted
// save back; restore and inspect only read and never write under the root.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hybrid/checkpoint/checkpoint_types.hpp"

namespace atenia::cli {

struct CheckpointOptions {
  std::string root;
  std::string tensors;
  std::vector<std::string> from;  // .npy / .safetensors files
  std::string tier = "ram";       // where tensors from files are placed
  std::string out;                // restore: write the files back here
  std::uint64_t created_unix = 0;
  bool lazy = false;
  bool gpu_available = false;
  bool json = false;
};

int run_save(const CheckpointOptions& o);
int run_recover(const CheckpointOptions& o);
int run_restore(const CheckpointOptions& o);
int run_inspect(const CheckpointOptions& o);

[[nodiscard]] nlohmann::ordered_json entry_json(const hybrid::CheckpointEntry& e);
int fail_checkpoint(const hybrid::CheckpointError& e);

}  // namespace atenia::cli
