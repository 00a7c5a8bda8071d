#include "chrome_trace.hpp"

#include <map>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace atenia::cli {

namespace {

enum Pid { kStreams = 1, kDevices = 2 };

nlohmann::ordered_json meta(const char* what, int pid, int tid, const std::string& name) {
  nlohmann::ordered_json m{{"name", what}, {"ph", "M"}, {"pid", pid}};
  if (tid != 0) m["tid"] = tid;
  m["args"] = {{"name", name}};
  return m;
}

const std::map<std::string, int>& stream_tids() {
  static const std::map<std::string, int> m{{"Cpu", 2}, {"Gpu", 3}, {"SsdPrefetch", 4}};
  return m;
}

const std::map<std::string, int>& device_tids() {
  static const std::map<std::string, int> m{{"CPU", 5}, {"GPU", 6}, {"RAM<->VRAM", 7}, {"RAM<->SSD", 8}};
  return m;
}

constexpr int kTicksTid = 1;

nlohmann::ordered_json slice(int pid, int tid, const std::string& name, const std::string& cat, double ts, double dur,
                             const std::string& line, const std::string& rate) {
  nlohmann::ordered_json e{{"name", name}, {"cat", cat}, {"ph", "X"}, {"ts", ts}, {"dur", dur}, {"pid", pid}, {"tid", tid}};
  nlohmann::ordered_json args = nlohmann::ordered_json::object();
  if (!line.empty()) args["line"] = line;
  if (!rate.empty()) args["rate"] = rate;
  if (!args.empty()) e["args"] = std::move(args);
  return e;
}

}  // namespace

std::string chrome_trace_json(const hybrid::BatchScenario& scenario, const SimTiming& timing) {
  nlohmann::ordered_json ev = nlohmann::ordered_json::array();
  ev.push_back(meta("process_name", kStreams, 0, "atenia simulate: streams"));
  ev.push_back(meta("process_name", kDevices, 0, "atenia simulate: devices"));
  ev.push_back(meta("thread_name", kStreams, kTicksTid, "ticks"));
  for (const auto& [name, tid] : stream_tids()) ev.push_back(meta("thread_name", kStreams, tid, "stream " + name));
  for (const auto& [name, tid] : device_tids()) ev.push_back(meta("thread_name", kDevices, tid, name));
  std::size_t next_task = 0;
  for (const auto& tick : timing.ticks) {
    if (tick.tick < scenario.ticks.size()) {
      const auto& s = scenario.ticks[tick.tick];
      for (auto [name, p] : {std::pair{"ram pressure", s.ram.pressure}, std::pair{"vram pressure", s.vram.pressure}}) {
        if (!p) continue;
        ev.push_back({{"name", name}, {"ph", "C"}, {"ts", tick.start_us}, {"pid", kDevices}, {"args", {{"pressure", float_json(*p)}}}});
      }
    }
    for (; next_task < timing.tasks.size() && timing.tasks[next_task].tick == tick.tick; ++next_task) {
      const TimedTask& t = timing.tasks[next_task];
      if (auto s = stream_tids().find(t.stream); s != stream_tids().end()) {
        ev.push_back(slice(kStreams, s->second, t.label, t.cat, t.start_us, t.dur_us, t.line, t.rate));
      }
      ev.push_back(slice(kDevices, device_tids().at(t.device), t.label, t.cat, t.start_us, t.dur_us, t.line, t.rate));
    }
    ev.push_back(slice(kStreams, kTicksTid, tick.stopped ? tick.name + " (stopped)" : tick.name, "tick", tick.start_us,
                       tick.dur_us, tick.line, ""));
  }
  return nlohmann::ordered_json{{"traceEvents", ev}, {"displayTimeUnit", "ms"}}.dump() + "\n";
}

}  // namespace atenia::cli
