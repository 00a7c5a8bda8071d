#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "hybrid/planner/snapshot_builders.hpp"
#include "hybrid/streams/stream_router.hpp"
#include "hybrid/streams/refusing_vram_adapter.hpp"
#include "hybrid/streams/timeline_lines.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;
using hybrid::testing::has_line_containing;
using hybrid::testing::index_of;
using hybrid::testing::kernel;
using hybrid::testing::lines_starting;
using hybrid::testing::low_pressure;

namespace {
const Bytes kPayload{1, 2, 3, 4, 5, 6, 7, 8};
}

TEST_CASE("stream_router_memory: ssd_tensor_is_moved_to_ram_before_cpu_compute") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());
  REQUIRE(mem.register_tensor_with_data("t1", kPayload, MemoryTier::ssd).ok());
  AsyncExecutor exec(StreamConfig{true});
  const std::vector<std::string> ids{"t1"};
  auto bundle =
      route_kernel_with_memory(exec, mem, kernel("cpu_kernel", KernelKind::small), ids, low_pressure(), true);
  CHECK(bundle.plan_target == ExecutionTarget::cpu);
  CHECK(bundle.submitted_task_ids.size() == 3);
  const auto enq = lines_starting(exec.timeline(), "ENQUEUE");
  REQUIRE(enq.size() == 3);
  CHECK(enq[0] == "ENQUEUE stream=SsdPrefetch id=1 kind=Io name=prefetch:t1 cost=1");
  CHECK(enq[1] == "ENQUEUE stream=Cpu id=2 kind=Transfer name=move:ssd->ram:t1 cost=1");
  CHECK(enq[2] == "ENQUEUE stream=Cpu id=3 kind=Compute name=cpu_kernel cost=1");
  exec.run_to_completion();
  CHECK(mem.get_tier("t1") == MemoryTier::ram);
  const auto* ram = as_ram(mem.backing("t1"));
  REQUIRE(ram != nullptr);
  CHECK(ram->data == kPayload);
  CHECK(has_line_containing(exec.timeline(), "RUN", "prefetch:t1"));
  CHECK(has_line_containing(exec.timeline(), "RUN", "move:ssd->ram:t1"));
  CHECK(has_line_containing(exec.timeline(), "RUN", "name=cpu_kernel"));
}

TEST_CASE("stream_router_memory: ram_tensor_is_moved_to_vram_before_gpu_compute_using_fake_vram") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<FakeVramAdapter>());
  REQUIRE(mem.register_tensor_with_data("t2", kPayload, MemoryTier::ram).ok());
  AsyncExecutor exec(StreamConfig{true});
  const std::vector<std::string> ids{"t2"};
  auto bundle =
      route_kernel_with_memory(exec, mem, kernel("gpu_kernel", KernelKind::compute_heavy), ids, low_pressure(), true);
  CHECK(bundle.plan_target == ExecutionTarget::gpu);
  CHECK(bundle.reason == "GPU execution preferred");
  const auto enq = lines_starting(exec.timeline(), "ENQUEUE");
  REQUIRE(enq.size() == 2);
  CHECK(enq[0] == "ENQUEUE stream=Gpu id=1 kind=Transfer name=move:ram->vram:t2 cost=1");
  CHECK(enq[1] == "ENQUEUE stream=Gpu id=2 kind=Compute name=gpu_kernel cost=1");
  exec.run_to_completion();
  CHECK(mem.get_tier("t2") == MemoryTier::vram);
  CHECK(has_line_containing(exec.timeline(), "RUN stream=Gpu", "move:ram->vram:t2"));
  CHECK(has_line_containing(exec.timeline(), "RUN stream=Gpu", "name=gpu_kernel"));
}

TEST_CASE("stream_router_memory: vram_unavailable_degrades_to_cpu") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path());  // NullVramAdapter
  REQUIRE(mem.register_tensor_with_data("t3", kPayload, MemoryTier::ram).ok());
  AsyncExecutor exec(StreamConfig{true});
  const std::vector<std::string> ids{"t3"};
  auto bundle =
      route_kernel_with_memory(exec, mem, kernel("gpu_kernel", KernelKind::compute_heavy), ids, low_pressure(), true);
  CHECK(bundle.plan_target == ExecutionTarget::cpu_fallback);
  CHECK(bundle.reason == "GPU execution preferred; degraded to CPU because VRAM is unavailable");
  CHECK(mem.get_tier("t3") == MemoryTier::ram);
  const auto enq = lines_starting(exec.timeline(), "ENQUEUE");
  REQUIRE(enq.size() == 1);
  CHECK(enq[0] == "ENQUEUE stream=Cpu id=1 kind=Compute name=gpu_kernel cost=1");
  exec.run_to_completion();
  CHECK(has_line_containing(exec.timeline(), "RUN stream=Cpu", "name=gpu_kernel"));
  CHECK_FALSE(has_line_containing(exec.timeline(), "stream=Gpu"));
}

TEST_CASE("stream_router_memory: failed upload degrades and moves earlier VRAM tensors back to RAM") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<hybrid::testing::RefusingVramAdapter>("b"));
  REQUIRE(mem.register_tensor_with_data("a", kPayload, MemoryTier::ram).ok());
  REQUIRE(mem.register_tensor_with_data("b", kPayload, MemoryTier::ram).ok());
  AsyncExecutor exec(StreamConfig{true});
  const std::vector<std::string> ids{"a", "b"};
  auto bundle =
      route_kernel_with_memory(exec, mem, kernel("gpu_kernel", KernelKind::compute_heavy), ids, low_pressure(), true);
  CHECK(bundle.plan_target == ExecutionTarget::cpu_fallback);
  CHECK(bundle.reason == "GPU execution preferred; degraded to CPU because memory move failed");
  CHECK(mem.get_tier("a") == MemoryTier::ram);
  CHECK(mem.get_tier("b") == MemoryTier::ram);
  const auto enq = lines_starting(exec.timeline(), "ENQUEUE");
  REQUIRE(enq.size() == 3);
  CHECK(enq[0] == "ENQUEUE stream=Gpu id=1 kind=Transfer name=move:ram->vram:a cost=1");
  CHECK(enq[1] == "ENQUEUE stream=Cpu id=2 kind=Transfer name=move:vram->ram:a cost=1");
  CHECK(enq[2] == "ENQUEUE stream=Cpu id=3 kind=Compute name=gpu_kernel cost=1");
  const auto* ram = as_ram(mem.backing("a"));
  REQUIRE(ram != nullptr);
  CHECK(ram->data == kPayload);
}

TEST_CASE("stream_router_memory: unknown tensor ids count as RAM and are not moved") {
  testsupport::TempDir dir;
  HybridMemoryManager mem(dir.path(), std::make_unique<FakeVramAdapter>());
  AsyncExecutor exec(StreamConfig{true});
  const std::vector<std::string> ids{"ghost"};
  auto bundle =
      route_kernel_with_memory(exec, mem, kernel("gpu_kernel", KernelKind::compute_heavy), ids, low_pressure(), true);
  CHECK(bundle.plan_target == ExecutionTarget::gpu);
  CHECK(lines_starting(exec.timeline(), "ENQUEUE").size() == 1);
  CHECK_FALSE(mem.get_tier("ghost").has_value());
}
