#include "hybrid/trace/run_timeline.hpp"

namespace hybrid {
namespace {

enum Pid { kStreams = 1, kDevices = 2 };

// Track ids from 1, as Perfetto sorts them: streams in order, then devices, then tier moves.
int track(std::size_t index) { return static_cast<int>(index) + 1; }

}  // namespace

RunTimeline::RunTimeline(const std::string& title, const std::string& stream_label, std::size_t streams,
                         const std::vector<std::string>& devices)
    : tier_tid_(track(devices.size())) {
  events_.name_process(kStreams, title + ": streams");
  events_.name_process(kDevices, title + ": devices");
  for (std::size_t s = 0; s < streams; ++s) events_.name_track(kStreams, track(s), stream_label + " " + std::to_string(s));
  for (std::size_t d = 0; d < devices.size(); ++d) events_.name_track(kDevices, track(d), devices[d]);
}

void RunTimeline::on_stream(std::size_t stream, const std::string& name, const std::string& category, double start_us, double dur_us,
                            const Args& args) {
  events_.slice(kStreams, track(stream), name, category, start_us, dur_us, args);
}

void RunTimeline::on_device(std::size_t device, const std::string& name, const std::string& category, double start_us, double dur_us,
                            const Args& args) {
  events_.slice(kDevices, track(device), name, category, start_us, dur_us, args);
}

void RunTimeline::tier_move(const TierMoveSlice& m) {
  if (!tier_named_) {
    events_.name_track(kDevices, tier_tid_, "tier moves");
    tier_named_ = true;
  }
  const std::string from = to_string(m.from), to = to_string(m.to);
  events_.slice(kDevices, tier_tid_, m.what + " " + from + "->" + to, "tier move", m.start_us, m.dur_us,
                {{"bytes", std::to_string(m.bytes)}, {"from", from}, {"to", to}});
}

}  // namespace hybrid
