// atenia stats --table F [--json]: the learning snapshot of a saved table (APX 13.11.0).
#include <iostream>

#include "cli_common/path_option.hpp"
#include "commands.hpp"
#include "common/file_system.hpp"
#include "hybrid/explain/learning_snapshot.hpp"
#include "hybrid/learning/trainer_table.hpp"

namespace atenia::cli {

namespace {

struct StatsOptions {
  std::string table;
  bool json = false;
};

// The row's average score from its exact sum and count, in double precision: the seed's f32
// snapshot value rounds 2147483647 to 2147483648.0.
double average_score(const hybrid::SelfTrainer& t, const hybrid::LearningEntrySnapshot& e) {
  const auto s = t.stats_for_bucket(hybrid::to_bucket(e.context), e.backend);
  return (!s || s->count == 0) ? 0.0 : static_cast<double>(s->score_sum) / static_cast<double>(s->count);
}

int run_stats(const StatsOptions& o) {
  auto trainer = hybrid::read_trainer_table_strict(common::real_file_system(), o.table);
  if (!trainer) return report(trainer.error());
  const auto snap = hybrid::learning_snapshot(*trainer);
  if (o.json) {
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const auto& e : snap.entries) {
      entries.push_back({{"gpu_available", e.context.gpu_available},
                         {"vram_band", e.context.vram_band},
                         {"ram_band", e.context.ram_band},
                         {"backend", hybrid::to_string(e.backend)},
                         {"recommended_backend", hybrid::display_name(e.recommended_backend)},
                         {"episodes", e.stats.episodes},
                         {"successes", e.stats.successes},
                         {"drift_events", e.stats.drift_events},
                         {"average_score", average_score(*trainer, e)}});
    }
    nlohmann::ordered_json out{{"entries", entries},
                               {"summary",
                                {{"total_entries", snap.summary.total_entries},
                                 {"total_episodes", snap.summary.total_episodes},
                                 {"gpu_preference_ratio", float_json(snap.summary.gpu_preference_ratio)}}}};
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  for (const auto& e : snap.entries) {
    std::cout << "gpu_available=" << (e.context.gpu_available ? "true" : "false")
              << " vram_band=" << int(e.context.vram_band) << " ram_band=" << int(e.context.ram_band)
              << " backend=" << hybrid::to_string(e.backend) << " episodes=" << e.stats.episodes
              << " successes=" << e.stats.successes << " drift=" << e.stats.drift_events
              << " avg_score=" << nlohmann::ordered_json(average_score(*trainer, e)).dump()
              << " recommended=" << hybrid::display_name(e.recommended_backend) << "\n";
  }
  std::cout << "entries=" << snap.summary.total_entries << " episodes=" << snap.summary.total_episodes
            << " gpu_preference_ratio=" << float_json(snap.summary.gpu_preference_ratio).dump() << "\n";
  return kExitOk;
}

}  // namespace

Registration add_stats_command(CLI::App& app) {
  auto o = std::make_shared<StatsOptions>();
  auto* sub = app.add_subcommand("stats", "Show what a saved self-training table has learned");
  cli_common::add_path_option(sub, "--table", o->table, "a table saved by `atenia learn`")->required();
  sub->add_flag("--json", o->json, "machine-readable output");
  return {sub, [o] { return run_stats(*o); }};
}

}  // namespace atenia::cli
