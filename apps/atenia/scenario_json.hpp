#pragma once
// Reading `atenia simulate` scenario files into hybrid::BatchScenario, strictly:
//   {"gpu_available": true, "advanced_streams": true,
//    "offload": {"vram_high":0.95,"vram_low":0.85,"ram_high":0.95,"ram_low":0.85,
//                "cooldown_ticks":0,"max_actions_per_tick":4},
//    "tensors": [{"id":"t1","bytes":4096,"tier":"ram"}],
//    "nodes": [{"name":"matmul","kind":"compute_heavy","flops":2000000000,"bytes":4096,"tensors":["t1"]}],
//    "ticks": [{"vram":{"pressure":0.1},"ram":{"pressure":0.1,"total_bytes":1024,"free_bytes":512}}]}
// advanced_streams and offload (and each of its keys) are optional. Errors name the file and
// the JSON pointer (a node naming an unknown tensor: /nodes/<n>/tensors/<k>).
#include <string>

#include "common/result.hpp"
#include "hybrid/graph/batch_scenario.hpp"

namespace atenia::cli {

[[nodiscard]] common::Result<hybrid::BatchScenario> read_scenario(const std::string& path);

}  // namespace atenia::cli
