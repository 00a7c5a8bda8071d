#include "hybrid/learning/auto_trainer_loop.hpp"

#include <vector>

#include <doctest/doctest.h>

#include "plans_for_test.hpp"

using namespace hybrid;

namespace {
const ExecutionContext kLoopGpu{true, 0.1F, 0.1F};
}

TEST_CASE("auto_trainer_loop: cooldown_prevents_thrashing") {
  AutoTrainerLoop loop({3, 0, {}, {}, {}});
  CHECK(loop.on_tick(kLoopGpu, testplans::gpu_plan(), {}, ExecResult::Ok(10)) == BackendChoice::gpu);
  CHECK(loop.last_debug_reason() == "switch: cpu->gpu due to learned score");
  for (int tick = 1; tick <= 2; ++tick) {
    CHECK(loop.on_tick(kLoopGpu, testplans::cpu_plan(), {}, ExecResult::Ok(30)) == BackendChoice::gpu);
    CHECK(loop.inner_trainer().recommend_backend(kLoopGpu) == BackendChoice::cpu);  // the trainer wants CPU
    CHECK(loop.last_debug_reason().find("cooldown") != std::string::npos);
  }
  CHECK(loop.on_tick(kLoopGpu, testplans::cpu_plan(), {}, ExecResult::Ok(30)) == BackendChoice::cpu);
  CHECK(loop.last_debug_reason() == "switch: gpu->cpu due to learned score");
}

TEST_CASE("auto_trainer_loop: always_cpu_when_gpu_unavailable") {
  AutoTrainerLoop loop({0, 0, {}, {}, {}});
  const ExecutionContext no_gpu{false, 0.1F, 0.1F};
  for (int i = 0; i < 4; ++i) {
    CHECK(loop.on_tick(no_gpu, testplans::gpu_plan(), {}, ExecResult::Ok(50)) == BackendChoice::cpu);
    CHECK(loop.last_debug_reason().find("gpu unavailable") != std::string::npos);
  }
}

TEST_CASE("auto_trainer_loop: records_episodes_every_tick") {
  AutoTrainerLoop loop({1, 0, {}, {}, {}});
  for (int i = 0; i < 5; ++i) (void)loop.on_tick(kLoopGpu, testplans::gpu_plan(), {}, ExecResult::Ok(4));
  const auto& t = loop.inner_trainer();
  std::uint32_t total = 0;
  for (auto b : {BackendChoice::cpu, BackendChoice::gpu}) {
    if (auto s = t.stats_for(kLoopGpu, b)) total += s->count;
  }
  CHECK(total == 5);
  CHECK(loop.tick() == 5);
}

TEST_CASE("auto_trainer_loop: deterministic_given_same_inputs") {
  auto run = [] {
    AutoTrainerLoop loop({2, 0, {}, {}, {}});
    std::vector<BackendChoice> out;
    for (int i = 0; i < 12; ++i) {
      const bool gpu_tick = (i % 3) != 0;
      out.push_back(loop.on_tick(kLoopGpu, gpu_tick ? testplans::gpu_plan() : testplans::cpu_plan(), {},
                                 gpu_tick ? ExecResult::Ok(i) : ExecResult::Ok(12 - i)));
    }
    return out;
  };
  const auto a = run();
  CHECK(a == run());
  CHECK(a.front() == BackendChoice::cpu);
}

TEST_CASE("auto_trainer_loop: losing the GPU forces CPU and restarts the cooldown") {
  AutoTrainerLoop loop({3, 0, {}, {}, {}});
  CHECK(loop.on_tick(kLoopGpu, testplans::gpu_plan(), {}, ExecResult::Ok(10)) == BackendChoice::gpu);
  CHECK(loop.on_tick({false, 0.1F, 0.1F}, testplans::gpu_plan(), {}, ExecResult::Ok(10)) == BackendChoice::cpu);
  // Tick 2: GPU back and preferred, but the forced switch at tick 1 started a cooldown.
  CHECK(loop.on_tick(kLoopGpu, testplans::gpu_plan(), {}, ExecResult::Ok(10)) == BackendChoice::cpu);
  CHECK(loop.last_debug_reason() == "hold: cooldown active");
}
