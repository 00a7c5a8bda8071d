// atenia explain --gpu-available=<true|false> --vram-band=<0..3> --ram-band=<0..3> [--table F] [--json]
// (APX 13.11.4), or atenia explain --spill --ram-band=<0..3> [--table F] [--json] (the learned spill
// tier and codec: explain_spill.hpp). Bad or missing arguments: the usage line and exit 1, as the
// seed says.
#include <iostream>

#include "cli_common/path_option.hpp"
#include "commands.hpp"
#include "explain_spill.hpp"
#include "common/file_system.hpp"
#include "hybrid/explain/narrative.hpp"
#include "hybrid/learning/trainer_table.hpp"

namespace atenia::cli {

namespace {

constexpr const char* kUsage =
    "Usage: atenia explain --gpu-available=<true|false> --vram-band=<0..3> --ram-band=<0..3>";
constexpr const char* kSpillUsage = "   or: atenia explain --spill --ram-band=<0..3>";
constexpr const char* kNoData = "No learned data available for the given context.";

nlohmann::ordered_json context_json(const hybrid::LearningContextSnapshot& c) {
  return {{"gpu_available", c.gpu_available}, {"vram_band", c.vram_band}, {"ram_band", c.ram_band}};
}

}  // namespace

int run_explain(int argc, char** argv) {
  CLI::App app{"Explain the learned CPU/GPU choice for one context", "atenia explain"};
  std::string gpu;
  int vram = -1, ram = -1;
  std::string table;
  bool json = false, spill = false;
  // Required by hand below: --spill asks for the RAM band alone.
  auto* gpu_opt = app.add_option("--gpu-available", gpu, "true or false: whether the context has a GPU");
  auto* vram_opt = app.add_option("--vram-band", vram, "VRAM pressure band, 0..3 (0: < 0.50, 1: < 0.75, 2: < 0.90, 3: >= 0.90)");
  app.add_option("--ram-band", ram, "RAM pressure band, 0..3 (same bands)")->required();
  app.add_flag("--spill", spill, "Explain the learned spill tier and codec for the RAM band instead (nltrain train --episodes)");
  cli_common::add_path_option(&app, "--table", table, "a learning table saved by `atenia learn` (default: an empty one)");
  app.add_flag("--json", json, "machine-readable output");
  try {
    app.parse(argc - 1, argv + 1);
  } catch (const CLI::CallForHelp&) {
    std::cout << kUsage << " [--table F] [--json]\n" << kSpillUsage << " [--table F] [--json]\n\n"
              << app.help("", CLI::AppFormatMode::Sub);
    return kExitOk;
  } catch (const CLI::ParseError&) {
    std::cerr << kUsage << "\n";
    return kExitFailure;
  }
  if (spill) {
    if (gpu_opt->count() > 0 || vram_opt->count() > 0 || ram < 0 || ram > 3) {
      std::cerr << kSpillUsage << "\n";
      return kExitFailure;
    }
    return run_explain_spill(static_cast<std::uint8_t>(ram), table, json);
  }
  if ((gpu != "true" && gpu != "false") || vram < 0 || vram > 3 || ram < 0 || ram > 3) {
    std::cerr << kUsage << "\n";
    return kExitFailure;
  }

  hybrid::SelfTrainer trainer;  // fresh, as in 13.11.4, unless a saved table is given
  if (!table.empty()) {
    auto loaded = hybrid::read_trainer_table_strict(common::real_file_system(), table);
    if (!loaded) return report(loaded.error());
    trainer = std::move(loaded.value());
  }
  const hybrid::LearningContextSnapshot ctx{gpu == "true", static_cast<std::uint8_t>(vram),
                                            static_cast<std::uint8_t>(ram)};
  const auto text = hybrid::explain_decision(trainer, ctx);
  const auto structured = text ? hybrid::explain_decision_structured(trainer, ctx) : std::nullopt;
  if (!text || !structured) {
    if (json) {
      nlohmann::ordered_json out{{"context", context_json(ctx)}, {"learned", false}, {"message", kNoData}};
      std::cout << out.dump() << "\n";
    } else {
      std::cout << kNoData << "\n";
    }
    return kExitOk;
  }
  const auto narrative = hybrid::build_narrative(*text, *structured);
  if (!json) {
    std::cout << narrative.narrative << "\n";
    return kExitOk;
  }
  nlohmann::ordered_json factors = nlohmann::ordered_json::array();
  for (const auto& f : structured->factors) {
    factors.push_back({{"kind", hybrid::to_string(f.kind)}, {"weight", float_json(f.weight)}, {"description", f.description}});
  }
  nlohmann::ordered_json out{{"context", context_json(ctx)},
                             {"learned", true},
                             {"recommended_backend", hybrid::display_name(narrative.recommended_backend)},
                             {"confidence", float_json(narrative.confidence)},
                             {"explanation", text->explanation},
                             {"factors", factors},
                             {"narrative", narrative.narrative}};
  std::cout << out.dump() << "\n";
  return kExitOk;
}

}  // namespace atenia::cli
