#include "hybrid/streams/timeline_event.hpp"

#include <doctest/doctest.h>

#include "hybrid/streams/async_executor.hpp"

using namespace hybrid;

TEST_CASE("timeline_event: the executor keeps events as data and renders each line from them") {
  AsyncExecutor exec(StreamConfig{false});
  TaskKind move = TaskKind::transfer("move:ram->vram:w 1");
  move.tensor = "w 1";  // content a text parser would split on
  move.from = "ram";
  move.to = "vram";
  exec.submit(StreamKind::gpu, move, 3, {"w 1"});
  exec.record("AUTOGRAD node=1 target=Cpu moves=0 fallback=0");
  exec.run_to_completion();
  const auto& events = exec.events();
  REQUIRE(events.size() == 4);
  CHECK(events[0].kind == TimelineEventKind::enqueue);
  CHECK(events[1].kind == TimelineEventKind::note);
  CHECK(events[2].kind == TimelineEventKind::fallback);
  CHECK(events[3].kind == TimelineEventKind::run);
  CHECK(events[3].stream == StreamKind::cpu);
  CHECK(events[3].task.tensor == "w 1");
  CHECK(events[3].task.from == "ram");
  CHECK(events[3].task.to == "vram");
  CHECK(exec.timeline() == std::vector<std::string>{
                               "ENQUEUE stream=Gpu id=1 kind=Transfer name=move:ram->vram:w 1 cost=3",
                               "AUTOGRAD node=1 target=Cpu moves=0 fallback=0",
                               "FALLBACK stream=Gpu id=1 -> Cpu",
                               "RUN stream=Cpu id=1 kind=Transfer name=move:ram->vram:w 1 cost=3",
                           });
}

TEST_CASE("timeline_event: tick and offload events render the batch loop's lines") {
  TimelineEvent e;
  e.tick = 4;
  e.kind = TimelineEventKind::tick_start;
  CHECK(render(e) == "TICK_START tick=4");
  e.kind = TimelineEventKind::offload_plan;
  e.actions = 2;
  e.reason = "RAM pressure high";
  CHECK(render(e) == "OFFLOAD_PLAN tick=4 actions=2 reason=RAM pressure high");
  e.kind = TimelineEventKind::offload_move;
  e.tensor = "t1";
  e.from = "ram";
  e.to = "ssd";
  CHECK(render(e) == "OFFLOAD_MOVE tick=4 tensor=t1 from=ram to=ssd");
  e.kind = TimelineEventKind::offload_apply;
  e.outcome = "ok";
  CHECK(render(e) == "OFFLOAD_APPLY tick=4 ok");
  e.kind = TimelineEventKind::tick_end;
  CHECK(render(e) == "TICK_END tick=4");
}
