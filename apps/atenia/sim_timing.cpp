#include "sim_timing.hpp"

#include <algorithm>
#include <map>

namespace atenia::cli {

namespace {

bool host(const std::string& tier) { return tier == "ram" || tier == "cpu"; }

struct Transfer {
  std::string device;
  double dur_us = 0;
  std::string rate;
};

double us(double work, const SimRate& r) { return work / r.value * 1e6; }

// One tensor crossing from tier `from` to tier `to`: the link(s) it takes and how long.
Transfer transfer(const SimRates& r, const std::string& from, const std::string& to, double bytes) {
  const double lat = r.ssd_latency.value;
  if (host(from) && to == "vram") return {"RAM<->VRAM", us(bytes, r.ram_to_vram), r.ram_to_vram.name};
  if (from == "vram" && host(to)) return {"RAM<->VRAM", us(bytes, r.vram_to_ram), r.vram_to_ram.name};
  if (host(from) && to == "ssd") return {"RAM<->SSD", lat + us(bytes, r.ram_to_ssd), r.ram_to_ssd.name};
  if (from == "ssd" && host(to)) return {"RAM<->SSD", lat + us(bytes, r.ssd_to_ram), r.ssd_to_ram.name};
  if (from == "vram" && to == "ssd") {
    return {"RAM<->SSD", us(bytes, r.vram_to_ram) + lat + us(bytes, r.ram_to_ssd), r.vram_to_ram.name + "+" + r.ram_to_ssd.name};
  }
  if (from == "ssd" && to == "vram") {
    return {"RAM<->SSD", lat + us(bytes, r.ssd_to_ram) + us(bytes, r.ram_to_vram), r.ssd_to_ram.name + "+" + r.ram_to_vram.name};
  }
  return {"CPU", us(bytes, r.cpu_mem), r.cpu_mem.name};  // host to host, or a tier onto itself
}

class Model {
 public:
  Model(const hybrid::BatchScenario& sc, const SimRates& rates) : rates_(rates) {
    for (const auto& t : sc.tensors) size_[t.id] = t.bytes;
    // The graph's RUN lines name nodes by kernel name; the first node of a name describes it.
    for (const auto& n : sc.nodes) nodes_.emplace(n.kernel.name, &n);
  }

  SimTiming run(const std::vector<hybrid::TimelineEvent>& timeline) {
    bool open = false;
    for (const hybrid::TimelineEvent& e : timeline) {
      switch (e.kind) {
        case hybrid::TimelineEventKind::tick_start: {
          TimedTick t;
          t.name = "tick=" + std::to_string(e.tick);
          t.tick = static_cast<std::size_t>(e.tick);
          t.start_us = now_;
          tick_ = t.tick;
          tick_start_ = now_;
          out_.ticks.push_back(std::move(t));
          open = true;
          break;
        }
        case hybrid::TimelineEventKind::run: task(e); break;
        case hybrid::TimelineEventKind::offload_move: offload(e); break;
        case hybrid::TimelineEventKind::tick_end:
          if (open) close(hybrid::render(e), false);
          open = false;
          break;
        default: break;
      }
    }
    if (open) close("", true);
    out_.total_us = now_;
    return std::move(out_);
  }

 private:
  void close(const std::string& line, bool stopped) {
    auto& t = out_.ticks.back();
    t.dur_us = std::max(now_ - t.start_us, kMinTaskUs);
    t.stopped = stopped;
    t.line = line;
    now_ = t.start_us + t.dur_us;
  }

  // Starts when its stream (if any), its device and its tensors are free, within its tick.
  double schedule(const std::string& stream, const std::string& device, const std::vector<std::string>& tensors,
                  double dur) {
    double start = std::max(tick_start_, free_[device]);
    if (!stream.empty()) start = std::max(start, free_["stream " + stream]);
    for (const auto& t : tensors) start = std::max(start, tensor_done_[t]);
    const double end = start + dur;
    free_[device] = end;
    if (!stream.empty()) free_["stream " + stream] = end;
    for (const auto& t : tensors) tensor_done_[t] = end;
    now_ = std::max(now_, end);
    return start;
  }

  void add(TimedTask t, const std::vector<std::string>& tensors) {
    t.tick = tick_;
    t.dur_us = std::max(t.dur_us, kMinTaskUs);
    t.start_us = schedule(t.stream, t.device, tensors, t.dur_us);
    out_.tasks.push_back(std::move(t));
  }

  void task(const hybrid::TimelineEvent& e) {
    TimedTask t;
    t.stream = hybrid::to_string(e.stream);
    t.task = e.task.name;
    t.line = hybrid::render(e);
    if (e.task.category == hybrid::TaskCategory::compute) {
      const bool gpu = e.stream == hybrid::StreamKind::gpu;
      t.device = gpu ? "GPU" : "CPU";
      t.label = t.task;
      t.cat = "compute";
      std::vector<std::string> tensors;
      const SimRate& flops = gpu ? rates_.gpu_flops : rates_.cpu_flops;
      const SimRate& mem = gpu ? rates_.gpu_mem : rates_.cpu_mem;
      if (auto it = nodes_.find(t.task); it != nodes_.end()) {
        tensors = it->second->tensor_ids;
        t.flops = it->second->kernel.estimated_flops;
        t.bytes = it->second->kernel.estimated_bytes;
      }
      const double compute = us(static_cast<double>(t.flops), flops), memory = us(static_cast<double>(t.bytes), mem);
      t.dur_us = (gpu ? rates_.gpu_launch.value : 0.0) + std::max(compute, memory);
      t.rate = compute >= memory ? flops.name : mem.name;
      if (gpu && rates_.gpu_launch.value > 0) t.rate += "+" + rates_.gpu_launch.name;
      add(std::move(t), tensors);
      return;
    }
    // A transfer or prefetch names its tensor and tiers as fields; one that names none (a
    // kernel's own prefetch) moves no bytes of a tensor.
    const std::string& id = e.task.tensor;
    const std::string from = e.task.from.empty() ? "ssd" : e.task.from, to = e.task.to.empty() ? "ram" : e.task.to;
    if (!id.empty() && e.task.category == hybrid::TaskCategory::transfer) t.label = "move " + id + " " + from + "->" + to;
    else if (!id.empty()) t.label = "prefetch " + id;
    else t.label = t.task;
    t.cat = "transfer";
    t.bytes = id.empty() ? 0 : size_[id];
    const Transfer x = transfer(rates_, from, to, static_cast<double>(t.bytes));
    t.device = x.device;
    t.dur_us = x.dur_us;
    t.rate = x.rate;
    add(std::move(t), id.empty() ? std::vector<std::string>{} : std::vector<std::string>{id});
  }

  // Applied between graph runs: on its link, after everything on the tensor so far.
  void offload(const hybrid::TimelineEvent& e) {
    const std::string& id = e.tensor;
    const std::string& from = e.from;
    const std::string& to = e.to;
    TimedTask t;
    t.task = "offload:" + from + "->" + to + ":" + id;
    t.label = "offload " + id + " " + from + "->" + to;
    t.cat = "offload";
    t.bytes = size_[id];
    t.line = hybrid::render(e);
    const Transfer x = transfer(rates_, from, to, static_cast<double>(t.bytes));
    t.device = x.device;
    t.dur_us = x.dur_us;
    t.rate = x.rate;
    tick_start_ = std::max(tick_start_, now_);
    add(std::move(t), {id});
  }

  const SimRates& rates_;
  std::map<std::string, std::uint64_t> size_;
  std::map<std::string, const hybrid::ScenarioNode*> nodes_;
  std::map<std::string, double> free_;
  std::map<std::string, double> tensor_done_;
  std::size_t tick_ = 0;
  double tick_start_ = 0;
  double now_ = 0;
  SimTiming out_;
};

}  // namespace

SimTiming model_timing(const hybrid::BatchScenario& scenario, const std::vector<hybrid::TimelineEvent>& timeline,
                       const SimRates& rates) {
  return Model(scenario, rates).run(timeline);
}

}  // namespace atenia::cli
