// bp verify nltrain's cost per step against the training step it audits, side by side in one
// iteration, at d = 32 and d = 128 (DeltaRule, K = 2, seq_len 32, vocab 256): the baseline is
// Trainer::build_step on the tape (what nltrain train runs); then the same steps again recording
// a receipt each (nltrain train --receipts, full; or --compact-receipts, second argument 1);
// then nl_audit::StreamVerifier over those receipts (reading, the fp32 recomputation through the
// hand-written path, and the fp64 way).
// Third argument: the verifier's threads (2: way (b) of a step beside way (a) of the next).
// Fourth: the precision, 0 fp32 (trained on the tape) or 1 fp64 (nltrain train --fp64: the
// hand-written backward at double; its receipts verified at double and at Tracked<double>).
// Counters per step, wall clock (run it on an otherwise idle machine): train_ms, record_ms (the
// receipt's extra cost), verify_ms, and verify_over_train (the goal is at most 2); and
// verify_cpu_ms, the process's CPU time while verifying (more than verify_ms with 2 threads).
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <chrono>
#include <string>
#include <type_traits>
#include <vector>

#include "common/sha256.hpp"
#include "nl_audit/recorder.hpp"
#include "nl_audit/verify.hpp"
#include "nl_trainer_setup.hpp"

namespace {

constexpr std::size_t kSeq = 32, kSteps = 12;

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double wall_seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

const tape::opaque::OpaqueRegistry& registry() { return nlbench::registry(); }

template <typename T>
nl::BasicTrainer<T> make(std::size_t d) {
  return nlbench::delta_trainer<T>(d, kSeq, 4, kSteps);
}

// Byte j of the data is j * 29 mod 251; step n reads chunk n.
std::string data() {
  std::string s;
  for (std::size_t j = 0; j <= kSteps * kSeq; ++j) s += static_cast<char>(j * 29 % 251);
  return s;
}

void chunk(std::size_t n, std::vector<std::size_t>& ids, std::vector<std::size_t>& tg) {
  for (std::size_t i = 0; i < kSeq; ++i) ids[i] = (n * kSeq + i) * 29 % 251, tg[i] = (n * kSeq + i + 1) * 29 % 251;
}

template <typename T>
void verify_vs_train(benchmark::State& state) {
  constexpr bool fp64 = std::is_same_v<T, double>;
  const nl::GradientPath path = fp64 ? nl::GradientPath::hand_written : nl::GradientPath::tape;
  const auto d = static_cast<std::size_t>(state.range(0));
  const bool compact = state.range(1) != 0;
  const auto threads = static_cast<unsigned>(state.range(2));
  const std::string text = data();
  std::vector<std::size_t> ids(kSeq), tg(kSeq);
  double train = 0, record = 0, verify = 0, verify_cpu = 0;
  for (auto _ : state) {
    nl::BasicTrainer<T> plain = make<T>(d);
    double t0 = wall_seconds();
    for (std::size_t n = 0; n < kSteps; ++n) {
      chunk(n, ids, tg);
      benchmark::DoNotOptimize(plain.build_step(registry(), ids, tg, path));
    }
    train = wall_seconds() - t0;
    nl_audit::ReceiptRecorder rec({compact, 1, "bench", common::sha256_hex(text), text.size(), fp64 ? "hand_written" : "tape"}, {});
    nl::BasicTrainer<T> t = make<T>(d);
    std::vector<std::string> lines;
    t0 = wall_seconds();
    for (std::size_t n = 0; n < kSteps; ++n) {
      chunk(n, ids, tg);
      const nl::BasicTrainerState<T> before = t.state();
      nl::BasicStepTrace<T> trace;
      auto r = t.build_step(registry(), ids, tg, path, &trace);
      lines.push_back(rec.record(before, {n, n * kSeq, false, ids, tg}, *r, trace, t.state()));
    }
    record = wall_seconds() - t0 - train;
    nl_audit::VerifyOptions o;
    if (compact) o.data = text;
    o.threads = threads;
    nl_audit::StreamVerifier v(std::move(o));
    t0 = wall_seconds();
    const double c0 = cpu_seconds();
    for (std::size_t n = 0; n < lines.size(); ++n) {
      if (common::Status st = v.add(lines[n], "bench", static_cast<std::int64_t>(n + 1)); !st.ok()) {
        state.SkipWithError(st.error().to_string().c_str());
      }
    }
    const bool failed = v.failure_count() != 0;  // waits for the last step's way (b)
    verify = wall_seconds() - t0;
    verify_cpu = cpu_seconds() - c0;
    if (failed) state.SkipWithError("honest receipts failed verification");
  }
  const double steps = kSteps;
  state.counters["train_ms"] = 1e3 * train / steps;
  state.counters["record_ms"] = 1e3 * record / steps;
  state.counters["verify_ms"] = 1e3 * verify / steps;
  state.counters["verify_cpu_ms"] = 1e3 * verify_cpu / steps;
  state.counters["verify_over_train"] = verify / train;
}

void BM_verify_vs_train(benchmark::State& state) {
  if (state.range(3) != 0) {
    verify_vs_train<double>(state);
  } else {
    verify_vs_train<float>(state);
  }
}

BENCHMARK(BM_verify_vs_train)
    ->ArgsProduct({{32, 128}, {0, 1}, {1, 2}, {0, 1}})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
