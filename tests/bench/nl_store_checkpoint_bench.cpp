// nltrain's checkpoint, old against new, in the same iteration: the single-file checkpoint.nltrain
// (nl::encode_checkpoint, one atomic write) against the run directory as a hybrid checkpoint root
// (nl_store::save_run: one checksummed blob per tensor, SaveRollback, one syncfs, the manifest),
// and loading each back. nltrain's default model (delta rule, K=2, vocab 256) at d = arg.
// Counters (per save or load): save_old_ms, save_new_ms, load_old_ms, load_new_ms, the ratios
// save_ratio = new / old and load_ratio, and the bytes on disk: old_bytes, new_bytes (every
// file under the run directory) and new_files.
#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>

#include "common/atomic_file.hpp"
#include "common/file_system.hpp"
#include "nl/checkpoint.hpp"
#include "nl/trainer.hpp"
#include "nl_store/run_store.hpp"
#include "support/temp_dir.hpp"

namespace {

using Clock = std::chrono::steady_clock;

nl::Checkpoint default_model(std::size_t d) {
  nl::MagConfig cfg;
  cfg.vocab = 256, cfg.d = d, cfg.heads = 4, cfg.seq_len = 32, cfg.window = 32, cfg.seed = 42;
  cfg.rule = nl::RuleKind::delta;
  cfg.rule_cfg.d = d, cfg.rule_cfg.d_h = 16, cfg.rule_cfg.m = 8, cfg.rule_cfg.d_c = 16;
  cfg.periods = {1, 8};
  nl::AdamWConfig opt;
  opt.total_steps = 1000;
  const nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), opt);
  return {t.state(), R"({"data":"","data_sha256":"","data_bytes":0,"steps":1000,"checkpoint_every":1})"};
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::pair<std::uint64_t, std::uint64_t> disk_usage(const std::string& dir) {
  std::uint64_t bytes = 0, files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) bytes += e.file_size(), ++files;
  }
  return {bytes, files};
}

void BM_NlStoreCheckpointOldVsNew(benchmark::State& state) {
  const nl::Checkpoint c = default_model(static_cast<std::size_t>(state.range(0)));
  testsupport::TempDir dir;
  const std::string old_dir = dir.file("old"), new_dir = dir.file("new");
  std::filesystem::create_directories(old_dir);
  std::filesystem::create_directories(new_dir);
  auto& fs = common::real_file_system();
  double save_old = 0, save_new = 0, load_old = 0, load_new = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    if (!common::write_file_atomic(fs, old_dir + "/checkpoint.nltrain", nl::encode_checkpoint(c))) {
      return state.SkipWithError("old save failed");
    }
    const auto t1 = Clock::now();
    if (!nl_store::save_run(new_dir, c)) return state.SkipWithError("new save failed");
    const auto t2 = Clock::now();
    auto a = nl_store::load_run(old_dir);
    const auto t3 = Clock::now();
    auto b = nl_store::load_run(new_dir);
    const auto t4 = Clock::now();
    if (!a || !b || nl::encode_checkpoint(*a) != nl::encode_checkpoint(*b)) return state.SkipWithError("loads differ");
    save_old += seconds(t1 - t0), save_new += seconds(t2 - t1), load_old += seconds(t3 - t2), load_new += seconds(t4 - t3);
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["save_old_ms"] = 1e3 * save_old / n;
  state.counters["save_new_ms"] = 1e3 * save_new / n;
  state.counters["load_old_ms"] = 1e3 * load_old / n;
  state.counters["load_new_ms"] = 1e3 * load_new / n;
  state.counters["save_ratio"] = save_new / save_old;
  state.counters["load_ratio"] = load_new / load_old;
  const auto [old_bytes, old_files] = disk_usage(old_dir);
  const auto [new_bytes, new_files] = disk_usage(new_dir);
  state.counters["old_bytes"] = static_cast<double>(old_bytes);
  state.counters["new_bytes"] = static_cast<double>(new_bytes);
  state.counters["new_files"] = static_cast<double>(new_files);
  (void)old_files;
}

BENCHMARK(BM_NlStoreCheckpointOldVsNew)->Arg(32)->Arg(128)->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
