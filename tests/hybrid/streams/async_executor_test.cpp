#include "hybrid/streams/async_executor.hpp"

#include <doctest/doctest.h>

#include "hybrid/streams/timeline_lines.hpp"

using namespace hybrid;
using hybrid::testing::index_of;
using hybrid::testing::lines_starting;

TEST_CASE("async_executor: ENQUEUE and RUN lines have the seed's exact format") {
  AsyncExecutor exec(StreamConfig{true});
  CHECK(exec.submit(StreamKind::cpu, TaskKind::compute("matmul"), 10) == 1);
  CHECK(exec.submit(StreamKind::gpu, TaskKind::compute("conv"), 20) == 2);
  exec.run_to_completion();
  CHECK(exec.timeline() == std::vector<std::string>{
                               "ENQUEUE stream=Cpu id=1 kind=Compute name=matmul cost=10",
                               "ENQUEUE stream=Gpu id=2 kind=Compute name=conv cost=20",
                               "RUN stream=Cpu id=1 kind=Compute name=matmul cost=10",
                               "RUN stream=Gpu id=2 kind=Compute name=conv cost=20",
                           });
}

TEST_CASE("async_executor: advanced_streams_round_robin_order") {
  AsyncExecutor exec(StreamConfig{true});
  exec.submit(StreamKind::cpu, TaskKind::compute("cpu_task1"), 1);
  exec.submit(StreamKind::cpu, TaskKind::compute("cpu_task2"), 1);
  exec.submit(StreamKind::gpu, TaskKind::compute("gpu_task"), 1);
  exec.submit(StreamKind::ssd_prefetch, TaskKind::io("ssd_task"), 1);
  exec.run_to_completion();
  const auto runs = lines_starting(exec.timeline(), "RUN ");
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].starts_with("RUN stream=Cpu "));
  CHECK(runs[1].starts_with("RUN stream=Gpu "));
  CHECK(runs[2].starts_with("RUN stream=SsdPrefetch "));
  CHECK(runs[3] == "RUN stream=Cpu id=2 kind=Compute name=cpu_task2 cost=1");
  CHECK(index_of(exec.timeline(), "RUN", "name=cpu_task1") < index_of(exec.timeline(), "RUN", "name=cpu_task2"));
  CHECK(exec.pending() == 0);
}

TEST_CASE("async_executor: round robin skips empty streams without reordering a stream") {
  AsyncExecutor exec(StreamConfig{true});
  exec.submit(StreamKind::gpu, TaskKind::compute("g1"), 1);
  exec.submit(StreamKind::gpu, TaskKind::compute("g2"), 1);
  exec.submit(StreamKind::ssd_prefetch, TaskKind::io("s1"), 1);
  exec.run_to_completion();
  const auto runs = lines_starting(exec.timeline(), "RUN ");
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].find("name=g1") != std::string::npos);
  CHECK(runs[1].find("name=s1") != std::string::npos);
  CHECK(runs[2].find("name=g2") != std::string::npos);
}

TEST_CASE("async_executor: fallback_serializes_all_to_cpu") {
  AsyncExecutor exec(StreamConfig{false});
  exec.submit(StreamKind::gpu, TaskKind::compute("conv"), 3);
  exec.submit(StreamKind::ssd_prefetch, TaskKind::io("prefetch"), 1);
  exec.submit(StreamKind::cpu, TaskKind::compute("relu"), 1);
  exec.run_to_completion();
  const auto& t = exec.timeline();
  CHECK(index_of(t, "FALLBACK stream=Gpu id=1 -> Cpu") >= 0);
  CHECK(index_of(t, "FALLBACK stream=SsdPrefetch id=2 -> Cpu") >= 0);
  const auto runs = lines_starting(t, "RUN ");
  REQUIRE(runs.size() == 3);
  for (const auto& r : runs) CHECK(r.starts_with("RUN stream=Cpu "));
  // Submission order (a CPU task never jumps ahead of an earlier GPU one: issue 11), each
  // FALLBACK right before its RUN.
  CHECK(runs[0].find("name=conv") != std::string::npos);
  CHECK(runs[2].find("name=relu") != std::string::npos);
  CHECK(index_of(t, "FALLBACK stream=Gpu") + 1 == index_of(t, "RUN", "name=conv"));
  CHECK(t[static_cast<std::size_t>(index_of(t, "RUN", "name=conv"))] == "RUN stream=Cpu id=1 kind=Compute name=conv cost=3");
}

TEST_CASE("async_executor: ids_are_monotonic") {
  AsyncExecutor exec(StreamConfig{true});
  const auto id1 = exec.submit(StreamKind::gpu, TaskKind::compute("a"), 1);
  const auto id2 = exec.submit(StreamKind::cpu, TaskKind::transfer("b"), 1);
  const auto id3 = exec.submit(StreamKind::ssd_prefetch, TaskKind::io("c"), 1);
  CHECK(id1 < id2);
  CHECK(id2 < id3);
  CHECK(exec.timeline()[1] == "ENQUEUE stream=Cpu id=2 kind=Transfer name=b cost=1");
  CHECK(exec.timeline()[2] == "ENQUEUE stream=SsdPrefetch id=3 kind=Io name=c cost=1");
}

TEST_CASE("async_executor: record() appends caller lines in order with task lines") {
  AsyncExecutor exec(StreamConfig{true});
  exec.record("TICK_START tick=0");
  exec.submit(StreamKind::cpu, TaskKind::compute("k"), 1);
  exec.run_to_completion();
  exec.record("TICK_END tick=0");
  CHECK(exec.timeline().front() == "TICK_START tick=0");
  CHECK(exec.timeline().back() == "TICK_END tick=0");
  CHECK(exec.timeline().size() == 4);
}

TEST_CASE("async_executor: a task waits for the earlier tasks on its tensors, on any stream") {
  AsyncExecutor exec(StreamConfig{true});
  exec.submit(StreamKind::ssd_prefetch, TaskKind::io("prefetch:t"), 1, {"t"});
  exec.submit(StreamKind::cpu, TaskKind::transfer("move:ssd->ram:t"), 1, {"t"});
  exec.submit(StreamKind::gpu, TaskKind::transfer("move:ram->vram:t"), 1, {"t"});
  exec.submit(StreamKind::gpu, TaskKind::compute("k"), 1, {"t", "u"});
  exec.run_to_completion();
  const auto runs = lines_starting(exec.timeline(), "RUN ");
  REQUIRE(runs.size() == 4);
  // The rotation would have run the CPU move first; the tensor's order wins.
  CHECK(runs[0].find("name=prefetch:t") != std::string::npos);
  CHECK(runs[1].find("name=move:ssd->ram:t") != std::string::npos);
  CHECK(runs[2].find("name=move:ram->vram:t") != std::string::npos);
  CHECK(runs[3].find("name=k") != std::string::npos);
}
