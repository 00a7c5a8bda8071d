// atenia learn EPISODES.jsonl|- --table F [--json]
// Each JSONL record is one episode (APX 13.10.0):
//   {"id":"run7/step3","gpu_available":true,"vram_pressure":0.2,"ram_pressure":0.6,
//    "backend":"gpu","success":true,"score":9,"had_drift":false}
// or, from atenia-episode v0.2.0 on, a spill placement and what it measured (nltrain train
// --episodes; spill_episode_json.hpp):
//   {"decision":"spill","ram_pressure":0.1,"tier":"fast","codec":"zstd","spilled_bytes":1048576,
//    "restored_bytes":1048576,"stored_bytes":900000,"write_s":0.01,"read_s":0.01,"score":102400}
// Idempotent per episode: each episode has a key (SHA-256 of its "id" when given, else of
// the record's content and how many identical records came before it in the input), the
// table lists the keys it has taken in, and an episode already listed is not counted again;
// so learning a file twice, or a file that was appended to, counts each episode once. The
// table (created when absent, in a directory that must exist) is replaced atomically under
// an exclusive lock on its directory, so concurrent runs into one table lose nothing. Any
// bad record fails the whole run before the table is touched.
#include <iostream>
#include <map>
#include <set>
#include <variant>

#include "cli_common/path_option.hpp"
#include "commands.hpp"
#include "common/atomic_file.hpp"
#include "common/dir_lock.hpp"
#include "common/file_system.hpp"
#include "common/sha256.hpp"
#include "common/json_input.hpp"
#include "hybrid/learning/trainer_integration.hpp"
#include "hybrid/learning/trainer_table.hpp"
#include "spill_episode_json.hpp"

namespace atenia::cli {

namespace {

struct LearnOptions {
  std::string episodes;
  std::string table;
  bool json = false;
};

using AnyEpisode = std::variant<hybrid::TrainingEpisode, hybrid::SpillEpisode>;

common::Result<AnyEpisode> parse_episode(const common::JsonlRecord& rec, const std::string& file) {
  Fields f(rec.value, file, rec.line, "");
  if (f.has("decision")) {  // v0.2.0's second kind; v0.1.0 records have no "decision"
    auto d = f.string("decision");
    if (!d) return d.error();
    if (*d != "spill") return f.error("decision", "expected \"spill\", got \"" + common::excerpt(*d) + "\"");
    auto spill = parse_spill_episode(rec, file);
    if (!spill) return spill.error();
    return AnyEpisode(std::move(spill.value()));
  }
  if (auto s = f.only({"id", "gpu_available", "vram_pressure", "ram_pressure", "backend", "success", "score", "had_drift"}); !s) {
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
  return AnyEpisode(ep);
}

// The episode's key: from its "id" when it has one, else from its content and occurrence.
common::Result<std::string> episode_key(const common::JsonlRecord& rec, const std::string& file,
                                        std::map<std::string, std::uint64_t>& seen) {
  std::string basis;
  if (rec.value.is_object() && rec.value.contains("id")) {
    const auto& id = rec.value["id"];
    if (!id.is_string() || id.get_ref<const std::string&>().empty()) {
      return Fields(rec.value, file, rec.line, "").error("id", "expected a non-empty string");
    }
    basis = "id\n" + id.get<std::string>();
  } else {
    const std::string canon = rec.value.dump();
    basis = "record\n" + canon + "\n" + std::to_string(seen[canon]++);
  }
  return common::sha256_hex(basis).substr(0, 32);
}

int run_learn(const LearnOptions& o) {
  auto& fs = common::real_file_system();
  auto records = read_jsonl_input(o.episodes);
  if (!records) return report(records.error());
  const std::string file = input_name(o.episodes);
  std::vector<std::pair<std::string, AnyEpisode>> episodes;
  std::map<std::string, std::uint64_t> seen;
  std::set<std::string> keys_in_input;
  for (const auto& rec : *records) {
    auto ep = parse_episode(rec, file);
    if (!ep) return report(ep.error());
    auto key = episode_key(rec, file, seen);
    if (!key) return report(key.error());
    if (!keys_in_input.insert(*key).second) {
      return report(common::Error::malformed("episode id " + rec.value["id"].dump() + " appears twice in the input",
                                             common::Location{file, rec.line, "/id"}));
    }
    episodes.emplace_back(std::move(key.value()), ep.value());
  }
  // The file written is the link's target when --table is a symbolic link: its directory is the
  // one locked, or learners naming the table by different paths would overwrite each other.
  auto resolved = fs.resolve_symlinks(o.table);
  if (!resolved) return report(resolved.error());
  const std::string target = *resolved;
  const std::string dir = common::parent_dir(target);
  auto lock = common::DirLock::acquire(dir.empty() ? "." : dir);
  if (!lock) return report(lock.error());
  hybrid::TrainerTable table;
  if (fs.exists(target)) {
    auto loaded = hybrid::read_trainer_table_full(fs, target);
    if (!loaded) return report(loaded.error());
    table = std::move(loaded.value());
  }
  std::size_t added = 0;
  for (const auto& [key, ep] : episodes) {
    if (table.episodes.contains(key)) continue;
    std::string refused;  // why the episode cannot be counted, the run's last word
    if (const auto* spill = std::get_if<hybrid::SpillEpisode>(&ep)) {
      if (auto s = table.spill.record_episode(*spill); !s) refused = s.error().message();
    } else if (!table.trainer.record_episode(std::get<hybrid::TrainingEpisode>(ep))) {
      refused = "a row already holds 4294967295 episodes, the most a row can count";
    }
    if (!refused.empty()) return report(common::Error::invalid_argument(o.table + ": " + refused + "; nothing was written"));
    table.episodes.insert(key);
    ++added;
  }
  if (auto s = hybrid::write_trainer_table(fs, table, target); !s) return report(s.error());
  const auto rows = table.trainer.all_stats().size() + table.spill.all_stats().size();
  const std::size_t known = episodes.size() - added;
  if (o.json) {
    nlohmann::ordered_json out{{"episodes", episodes.size()}, {"new", added}, {"already_learned", known},
                               {"rows", rows}, {"table", o.table}};
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "learned " << added << " new episodes of " << episodes.size() << " (" << known
              << " already in the table); " << o.table << " has " << rows << " rows\n";
  }
  return committed_exit("the table was written");
}

}  // namespace

Registration add_learn_command(CLI::App& app) {
  auto o = std::make_shared<LearnOptions>();
  auto* sub = app.add_subcommand("learn", "Record episodes (JSONL) into a self-training table");
  sub->add_option("episodes", o->episodes, "episodes, one JSON object per line (- for stdin)")->required();
  cli_common::add_path_option(sub, "--table", o->table, "the learning table to update (created when absent; its directory must exist)")
      ->required();
  sub->add_flag("--json", o->json, "machine-readable output");
  return {sub, [o] { return run_learn(*o); }};
}

}  // namespace atenia::cli
