#include "chrome_trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace atenia::cli {

namespace {

enum Pid { kStreams = 1, kDevices = 2 };
enum Tid { kTicks = 1, kCpuStream, kGpuStream, kSsdStream, kCpuDev, kGpuDev, kPcie, kSsdLink };

std::string field(const std::string& line, const std::string& key) {
  const auto at = line.find(" " + key + "=");
  if (at == std::string::npos) return {};
  const auto start = at + key.size() + 2;
  return line.substr(start, line.find(' ', start) - start);
}

nlohmann::ordered_json meta(const char* what, int pid, int tid, const std::string& name) {
  nlohmann::ordered_json m{{"name", what}, {"ph", "M"}, {"pid", pid}};
  if (tid != 0) m["tid"] = tid;
  m["args"] = {{"name", name}};
  return m;
}

double us(double v) { return std::max(1.0, std::ceil(v)); }

class TraceBuilder {
 public:
  explicit TraceBuilder(const hybrid::BatchScenario& sc) {
    for (const auto& t : sc.tensors) size_[t.id] = t.bytes;
    for (const auto& n : sc.nodes) nodes_[n.kernel.name] = &n;
    events_.push_back(meta("process_name", kStreams, 0, "atenia simulate: streams"));
    events_.push_back(meta("process_name", kDevices, 0, "atenia simulate: devices"));
    events_.push_back(meta("thread_name", kStreams, kTicks, "ticks"));
    events_.push_back(meta("thread_name", kStreams, kCpuStream, "stream Cpu"));
    events_.push_back(meta("thread_name", kStreams, kGpuStream, "stream Gpu"));
    events_.push_back(meta("thread_name", kStreams, kSsdStream, "stream SsdPrefetch"));
    events_.push_back(meta("thread_name", kDevices, kCpuDev, "CPU"));
    events_.push_back(meta("thread_name", kDevices, kGpuDev, "GPU"));
    events_.push_back(meta("thread_name", kDevices, kPcie, "RAM<->VRAM"));
    events_.push_back(meta("thread_name", kDevices, kSsdLink, "RAM<->SSD"));
  }

  void run(const std::vector<std::string>& timeline, const std::vector<hybrid::MemorySnapshot>& ticks) {
    double tick_start = 0;
    std::string tick_name;
    bool open = false;
    std::vector<std::string> offloads;
    for (const std::string& line : timeline) {
      if (line.starts_with("TICK_START ")) {
        tick_start = now_;
        tick_name = line.substr(11);
        open = true;
        const auto tick = static_cast<std::size_t>(std::stoull(field(line, "tick").empty() ? "0" : field(line, "tick")));
        if (tick < ticks.size()) counters(ticks[tick]);
      } else if (line.starts_with("RUN ")) {
        task(line);
      } else if (line.starts_with("OFFLOAD_MOVE ")) {
        offload(line);
      } else if (line.starts_with("TICK_END ")) {
        slice(kStreams, kTicks, tick_name, "tick", tick_start, std::max(now_ - tick_start, 1.0), line);
        now_ = std::max(now_, tick_start + 1);
        open = false;
      }
    }
    if (open) slice(kStreams, kTicks, tick_name + " (stopped)", "tick", tick_start, std::max(now_ - tick_start, 1.0), "");
  }

  std::string dump() const {
    return nlohmann::ordered_json{{"traceEvents", events_}, {"displayTimeUnit", "ms"}}.dump() + "\n";
  }

 private:
  void counters(const hybrid::MemorySnapshot& s) {
    for (auto [name, p] : {std::pair{"ram pressure", s.ram.pressure}, std::pair{"vram pressure", s.vram.pressure}}) {
      if (!p) continue;
      events_.push_back({{"name", name}, {"ph", "C"}, {"ts", now_}, {"pid", kDevices}, {"args", {{"pressure", float_json(*p)}}}});
    }
  }

  // A task on `stream`/`device` touching `tensors`: starts when both its stream and the last
  // task on those tensors are done.
  double schedule(int stream, int device, const std::vector<std::string>& tensors, double dur) {
    double start = std::max(free_[stream], free_[device]);
    for (const auto& t : tensors) start = std::max(start, tensor_done_[t]);
    const double end = start + dur;
    free_[stream] = free_[device] = end;
    for (const auto& t : tensors) tensor_done_[t] = end;
    now_ = std::max(now_, end);
    return start;
  }

  void task(const std::string& line) {
    const std::string stream = field(line, "stream"), kind = field(line, "kind"), name = field(line, "name");
    const int stream_tid = stream == "Gpu" ? kGpuStream : stream == "SsdPrefetch" ? kSsdStream : kCpuStream;
    if (kind == "Compute") {
      const bool gpu = stream == "Gpu";
      std::vector<std::string> tensors;
      double dur = 1;
      if (auto it = nodes_.find(name); it != nodes_.end()) {
        tensors = it->second->tensor_ids;
        const auto& k = it->second->kernel;
        dur = std::max(static_cast<double>(k.estimated_flops) / (gpu ? kGpuFlopsPerUs : kCpuFlopsPerUs),
                       static_cast<double>(k.estimated_bytes) / (gpu ? kGpuMemBytesPerUs : kCpuMemBytesPerUs));
      }
      const int dev = gpu ? kGpuDev : kCpuDev;
      const double d = us(dur);
      const double start = schedule(stream_tid, dev, tensors, d);
      slice(kStreams, stream_tid, name, "compute", start, d, line);
      slice(kDevices, dev, name, "compute", start, d, line);
      return;
    }
    // Transfers "move:<from>-><to>:<id>" and prefetches "prefetch:<id>".
    std::string id, label;
    int dev = kSsdLink;
    if (name.starts_with("move:")) {
      const auto arrow = name.find("->"), colon = name.find(':', 5);
      if (arrow != std::string::npos && colon != std::string::npos && arrow < colon) {
        id = name.substr(colon + 1);
        const std::string from = name.substr(5, arrow - 5), to = name.substr(arrow + 2, colon - arrow - 2);
        dev = (from == "vram" || to == "vram") ? kPcie : kSsdLink;
        label = "move " + id + " " + from + "->" + to;
      }
    } else if (name.starts_with("prefetch:")) {
      id = name.substr(9);
      label = "prefetch " + id;
    }
    if (label.empty()) label = name;
    const double d = us(static_cast<double>(size_[id]) / (dev == kPcie ? kPcieBytesPerUs : kSsdBytesPerUs));
    const double start = schedule(stream_tid, dev, {id}, d);
    slice(kStreams, stream_tid, label, "transfer", start, d, line);
    slice(kDevices, dev, label, "transfer", start, d, line);
  }

  void offload(const std::string& line) {
    const std::string id = field(line, "tensor"), from = field(line, "from"), to = field(line, "to");
    const int dev = (from == "vram" || to == "vram") ? kPcie : kSsdLink;
    const double d = us(static_cast<double>(size_[id]) / (dev == kPcie ? kPcieBytesPerUs : kSsdBytesPerUs));
    double start = std::max({free_[dev], tensor_done_[id], now_});
    free_[dev] = tensor_done_[id] = start + d;
    now_ = start + d;
    slice(kDevices, dev, "offload " + id + " " + from + "->" + to, "offload", start, d, line);
  }

  void slice(int pid, int tid, const std::string& name, const char* cat, double ts, double dur, const std::string& line) {
    nlohmann::ordered_json e{{"name", name}, {"cat", cat}, {"ph", "X"}, {"ts", ts}, {"dur", dur}, {"pid", pid}, {"tid", tid}};
    if (!line.empty()) e["args"] = {{"line", line}};
    events_.push_back(std::move(e));
  }

  std::map<std::string, std::uint64_t> size_;
  std::map<std::string, const hybrid::ScenarioNode*> nodes_;
  std::map<int, double> free_;
  std::map<std::string, double> tensor_done_;
  double now_ = 0;
  nlohmann::ordered_json events_ = nlohmann::ordered_json::array();
};

}  // namespace

std::string chrome_trace_json(const hybrid::BatchScenario& scenario, const std::vector<std::string>& timeline) {
  TraceBuilder b(scenario);
  b.run(timeline, scenario.ticks);
  return b.dump();
}

}  // namespace atenia::cli
