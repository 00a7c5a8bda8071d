// atenia learn EPISODES.jsonl --table F [--json]
// Each JSONL record is one episode (APX 13.10.0):
//   {"gpu_available":true,"vram_pressure":0.2,"ram_pressure":0.6,"backend":"gpu",
//    "success":true,"score":9,"had_drift":false}
// The table (created when absent) gets every episode, then is replaced atomically. Any bad
// record fails the whole run before the table is touched.
#include <iostream>

#include "commands.hpp"
#include "common/file_system.hpp"
#include "common/json_input.hpp"
#include "hybrid/learning/trainer_integration.hpp"
#include "hybrid/learning/trainer_table.hpp"

namespace atenia::cli {

namespace {

struct LearnOptions {
  std::string episodes;
  std::string table;
  bool json = false;
};

common::Result<hybrid::TrainingEpisode> parse_episode(const common::JsonlRecord& rec, const std::string& file) {
  Fields f(rec.value, file, rec.line, "");
  if (auto s = f.only({"gpu_available", "vram_pressure", "ram_pressure", "backend", "success", "score", "had_drift"}); !s) {
    return s.error();
  }
  auto gpu = f.boolean("gpu_available");
  if (!gpu) return gpu.error();
  auto vram = f.unit_float("vram_pressure");
  if (!vram) return vram.error();
  auto ram = f.unit_float("ram_pressure");
  if (!ram) return ram.error();
  auto backend = f.string("backend");
  if (!backend) return backend.error();
  if (*backend != "cpu" && *backend != "gpu") return f.error("backend", "expected \"cpu\" or \"gpu\", got \"" + common::excerpt(*backend) + "\"");
  auto success = f.boolean("success");
  if (!success) return success.error();
  auto score = f.signed_int("score");
  if (!score) return score.error();
  if (*score < INT32_MIN || *score > INT32_MAX) return f.error("score", "expected a 32-bit integer");
  auto drift = f.boolean("had_drift");
  if (!drift) return drift.error();
  hybrid::TrainingEpisode ep;
  ep.ctx = hybrid::context_from_pressures(*gpu, *vram, *ram);
  ep.decision.backend = *backend == "gpu" ? hybrid::BackendChoice::gpu : hybrid::BackendChoice::cpu;
  ep.outcome = {*success, static_cast<std::int32_t>(*score), *drift};
  return ep;
}

int run_learn(const LearnOptions& o) {
  auto& fs = common::real_file_system();
  auto records = common::read_jsonl_file(fs, o.episodes);
  if (!records) return report(records.error());
  std::vector<hybrid::TrainingEpisode> episodes;
  for (const auto& rec : *records) {
    auto ep = parse_episode(rec, o.episodes);
    if (!ep) return report(ep.error());
    episodes.push_back(ep.value());
  }
  hybrid::SelfTrainer trainer;
  if (fs.exists(o.table)) {
    auto loaded = hybrid::read_trainer_table_strict(fs, o.table);
    if (!loaded) return report(loaded.error());
    trainer = std::move(loaded.value());
  }
  for (const auto& ep : episodes) trainer.record_episode(ep);
  if (auto s = hybrid::save_trainer_to_path(fs, trainer, o.table); !s) return report(s.error().to_error());
  const auto rows = trainer.all_stats().size();
  if (o.json) {
    nlohmann::ordered_json out{{"episodes", episodes.size()}, {"rows", rows}, {"table", o.table}};
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "learned " << episodes.size() << " episodes; " << o.table << " has " << rows << " rows\n";
  }
  return kExitOk;
}

}  // namespace

Registration add_learn_command(CLI::App& app) {
  auto o = std::make_shared<LearnOptions>();
  auto* sub = app.add_subcommand("learn", "Record episodes (JSONL) into a self-training table");
  sub->add_option("episodes", o->episodes, "episodes, one JSON object per line")->required();
  sub->add_option("--table", o->table, "the learning table to update (created when absent)")->required();
  sub->add_flag("--json", o->json, "machine-readable output");
  return {sub, [o] { return run_learn(*o); }};
}

}  // namespace atenia::cli
