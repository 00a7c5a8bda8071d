#include "chrome_trace.hpp"

#include <map>

#include "cli_support.hpp"
#include "hybrid/trace/trace_events.hpp"

namespace atenia::cli {

namespace {

enum Pid { kStreams = 1, kDevices = 2 };

const std::map<std::string, int>& stream_tids() {
  static const std::map<std::string, int> m{{"Cpu", 2}, {"Gpu", 3}, {"SsdPrefetch", 4}};
  return m;
}

const std::map<std::string, int>& device_tids() {
  static const std::map<std::string, int> m{{"CPU", 5}, {"GPU", 6}, {"RAM<->VRAM", 7}, {"RAM<->SSD", 8}};
  return m;
}

constexpr int kTicksTid = 1;

}  // namespace

std::string chrome_trace_json(const hybrid::BatchScenario& scenario, const SimTiming& timing) {
  hybrid::TraceEvents ev;
  ev.name_process(kStreams, "atenia simulate: streams");
  ev.name_process(kDevices, "atenia simulate: devices");
  ev.name_track(kStreams, kTicksTid, "ticks");
  for (const auto& [name, tid] : stream_tids()) ev.name_track(kStreams, tid, "stream " + name);
  for (const auto& [name, tid] : device_tids()) ev.name_track(kDevices, tid, name);
  std::size_t next_task = 0;
  for (const auto& tick : timing.ticks) {
    if (tick.tick < scenario.ticks.size()) {
      const auto& s = scenario.ticks[tick.tick];
      for (auto [name, p] : {std::pair{"ram pressure", s.ram.pressure}, std::pair{"vram pressure", s.vram.pressure}}) {
        if (!p) continue;
        ev.counter(kDevices, name, tick.start_us, "pressure", float_json(*p));
      }
    }
    for (; next_task < timing.tasks.size() && timing.tasks[next_task].tick == tick.tick; ++next_task) {
      const TimedTask& t = timing.tasks[next_task];
      if (auto s = stream_tids().find(t.stream); s != stream_tids().end()) {
        ev.slice(kStreams, s->second, t.label, t.cat, t.start_us, t.dur_us, {{"line", t.line}, {"rate", t.rate}});
      }
      ev.slice(kDevices, device_tids().at(t.device), t.label, t.cat, t.start_us, t.dur_us, {{"line", t.line}, {"rate", t.rate}});
    }
    ev.slice(kStreams, kTicksTid, tick.stopped ? tick.name + " (stopped)" : tick.name, "tick", tick.start_us, tick.dur_us,
             {{"line", tick.line}});
  }
  return ev.json();
}

}  // namespace atenia::cli
