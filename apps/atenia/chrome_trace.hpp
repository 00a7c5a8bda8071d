#pragma once
// The simulate timeline as Chrome trace-event JSON (opens in Perfetto / chrome://tracing).
// Time is logical: line i of the timeline starts at i * kTraceStepMicros. Each tick is one
// span on the "ticks" track; graph lines (ENQUEUE/RUN/...) and offload lines get their own
// tracks, each event carrying the original timeline line in args.line.
#include <string>
#include <vector>

namespace atenia::cli {

inline constexpr long kTraceStepMicros = 10;

[[nodiscard]] std::string chrome_trace_json(const std::vector<std::string>& timeline);

}  // namespace atenia::cli
