#pragma once
// atenia explain --spill --ram-band=<0..3> [--table F] [--json]: the learned spill tier and codec
// for a RAM band, with the evidence (hybrid/explain/spill_explanation.hpp); JSON per
// schemas/atenia-explain-result.v0.2.0.json.
#include <cstdint>
#include <string>

namespace atenia::cli {

[[nodiscard]] int run_explain_spill(std::uint8_t ram_band, const std::string& table, bool json);

}  // namespace atenia::cli
