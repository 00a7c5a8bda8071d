#include "explain_spill.hpp"

#include <iostream>

#include "cli_support.hpp"
#include "common/file_system.hpp"
#include "hybrid/explain/spill_explanation.hpp"
#include "hybrid/learning/trainer_table.hpp"

namespace atenia::cli {
namespace {

constexpr const char* kNoSpillData = "No learned spill placement for the given context.";

nlohmann::ordered_json evidence_json(const hybrid::SpillEvidence& e) {
  return {{"tier", e.decision.tier}, {"codec", e.decision.codec}, {"runs", e.runs}, {"kib_per_s", e.kib_per_s}, {"moved_bytes", e.moved_bytes}};
}

}  // namespace

int run_explain_spill(std::uint8_t ram_band, const std::string& table, bool json) {
  hybrid::TrainerTable t;
  if (!table.empty()) {
    auto loaded = hybrid::read_trainer_table_full(common::real_file_system(), table);
    if (!loaded) return report(loaded.error());
    t = std::move(loaded.value());
  }
  const nlohmann::ordered_json context{{"ram_band", ram_band}};
  const auto why = hybrid::explain_spill(t.spill, ram_band);
  if (!why) {
    if (json) {
      std::cout << nlohmann::ordered_json{{"context", context}, {"decision", "spill"}, {"learned", false}, {"message", kNoSpillData}}.dump() << "\n";
    } else {
      std::cout << kNoSpillData << "\n";
    }
    return kExitOk;
  }
  if (json) {
    nlohmann::ordered_json evidence = nlohmann::ordered_json::array();
    for (const auto& e : why->evidence) evidence.push_back(evidence_json(e));
    const nlohmann::ordered_json out{{"context", context},
                                     {"decision", "spill"},
                                     {"learned", true},
                                     {"recommended_tier", why->recommended.decision.tier},
                                     {"recommended_codec", why->recommended.decision.codec},
                                     {"kib_per_s", why->recommended.kib_per_s},
                                     {"runs", why->recommended.runs},
                                     {"evidence", evidence},
                                     {"explanation", why->explanation}};
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  std::cout << why->explanation << "\nEvidence (mean KiB/s moved out and back, per choice):\n";
  for (const auto& e : why->evidence) {
    std::cout << "  " << e.decision.tier << " " << e.decision.codec << ": " << e.kib_per_s << " KiB/s over " << e.runs
              << (e.runs == 1 ? " run, " : " runs, ") << e.moved_bytes << " bytes moved\n";
  }
  return kExitOk;
}

}  // namespace atenia::cli
