#pragma once
// A run of consecutive steps on one sample: step k+1 starts from step k's parameters_after (and
// optimizer state_after), step_index counts from the input's, and Adam's t advances by one.
#include <cstddef>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "receipt/engine/general_receipt.hpp"

namespace receipt::engine {

struct MultiStepNaming {
  std::string fixture_prefix;  // fixture = prefix + step_index
  std::string source_prefix;   // metadata.source = prefix + step_index + suffix (when non-empty)
  std::string source_suffix;
};

// Sets trace_id's partner step_index (from 0 unless given) and returns `steps` receipts.
[[nodiscard]] common::Result<std::vector<GeneralReceipt>> run_multi_step(GeneralInput first, std::size_t steps,
                                                                          const MultiStepNaming& naming);

}  // namespace receipt::engine
