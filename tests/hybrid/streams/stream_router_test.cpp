// APX 13.4.1: the planner's target decides the compute stream. Ids the memory manager does not
// hold count as RAM and are not moved, so these bundles hold the compute task alone.
#include "hybrid/streams/stream_router.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hybrid/planner/snapshot_builders.hpp"
#include "hybrid/streams/timeline_lines.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::has_line_containing;
using hybrid::testing::index_of;
using hybrid::testing::kernel;
using hybrid::testing::lines_starting;
using hybrid::testing::low_pressure;

TEST_CASE("stream_router: routes_gpu_compute_to_gpu_stream") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  AsyncExecutor exec(StreamConfig{true});
  const std::vector<std::string> ids{"a", "b"};
  auto bundle = route_kernel_with_memory(exec, mem, kernel("gemm", KernelKind::compute_heavy), ids, low_pressure(), true);
  CHECK(bundle.plan_target == ExecutionTarget::gpu);
  CHECK(bundle.reason == "GPU execution preferred");
  CHECK(bundle.submitted_task_ids == std::vector<std::uint64_t>{1});
  exec.run_to_completion();
  CHECK(has_line_containing(exec.timeline(), "ENQUEUE stream=Gpu", "name=gemm"));
  CHECK(has_line_containing(exec.timeline(), "RUN stream=Gpu", "name=gemm"));
  CHECK_FALSE(has_line_containing(exec.timeline(), "SsdPrefetch"));
}

TEST_CASE("stream_router: a tensor on ssd plans the cpu and is prefetched before the compute") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("b", Bytes{1, 2, 3, 4}, MemoryTier::ssd).ok());
  AsyncExecutor exec(StreamConfig{true});
  const std::vector<std::string> ids{"a", "b"};
  auto bundle = route_kernel_with_memory(exec, mem, kernel("gemm", KernelKind::compute_heavy), ids, low_pressure(), true);
  CHECK(bundle.plan_target == ExecutionTarget::cpu);
  const auto enq = lines_starting(exec.timeline(), "ENQUEUE");
  REQUIRE(enq.size() == 3);
  CHECK(enq[0] == "ENQUEUE stream=SsdPrefetch id=1 kind=Io name=prefetch:b cost=1");
  CHECK(enq[1] == "ENQUEUE stream=Cpu id=2 kind=Transfer name=move:ssd->ram:b cost=1");
  CHECK(enq[2] == "ENQUEUE stream=Cpu id=3 kind=Compute name=gemm cost=1");
  exec.run_to_completion();
  CHECK(has_line_containing(exec.timeline(), "RUN stream=SsdPrefetch"));
  CHECK(has_line_containing(exec.timeline(), "RUN", "name=gemm "));
}

TEST_CASE("stream_router: routes_to_cpu_when_gpu_not_available") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  AsyncExecutor exec(StreamConfig{true});
  const std::vector<std::string> ids{"a"};
  auto bundle = route_kernel_with_memory(exec, mem, kernel("gemm", KernelKind::compute_heavy), ids, low_pressure(), false);
  CHECK(bundle.plan_target == ExecutionTarget::cpu_fallback);
  CHECK(bundle.reason == "GPU not available");
  exec.run_to_completion();
  const auto runs = lines_starting(exec.timeline(), "RUN ");
  REQUIRE_FALSE(runs.empty());
  for (const auto& r : runs) CHECK(r.starts_with("RUN stream=Cpu "));
}

TEST_CASE("stream_router: fallback_mode_serializes_gpu_task") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  AsyncExecutor exec(StreamConfig{false});
  const std::vector<std::string> ids{"a"};
  auto bundle = route_kernel_with_memory(exec, mem, kernel("gemm", KernelKind::compute_heavy), ids, low_pressure(), true);
  CHECK(bundle.plan_target == ExecutionTarget::gpu);
  CHECK(has_line_containing(exec.timeline(), "ENQUEUE stream=Gpu", "name=gemm"));
  exec.run_to_completion();
  CHECK(index_of(exec.timeline(), "FALLBACK stream=Gpu id=1 -> Cpu") >= 0);
  const auto runs = lines_starting(exec.timeline(), "RUN ");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0] == "RUN stream=Cpu id=1 kind=Compute name=gemm cost=1");
}
