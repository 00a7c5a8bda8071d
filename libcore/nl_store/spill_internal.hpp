#pragma once
// Internal to nl_store's spill (spill_store.cpp, sequence_spill.cpp): the clock a move's cost is
// timed with, how a failed move leaves the step, and the offload engine's settings as a victim
// picker. Not for other libraries.
#include <chrono>
#include <string>

#include "common/error.hpp"
#include "hybrid/offload/smart_offload_engine.hpp"
#include "tape/tape_error.hpp"

namespace nl_store {

using Clock = std::chrono::steady_clock;

inline double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A failed write or read throws from inside the step's tape, so the step fails before the update.
[[noreturn]] inline void fail(const std::string& what, const common::Error& e) {
  throw tape::SpillError("spill", what + ": " + e.message(), {});
}

// The offload engine as a victim picker: pressure is (resident + room wanted) / share, so it acts
// at once above the budget (high mark 1) and every call may take one tensor (no cooldown: a cache
// goes out once and comes back once).
inline hybrid::OffloadConfig picker_config() {
  hybrid::OffloadConfig c;
  c.ram_high = 1.0F;
  c.ram_low = 1.0F;
  c.cooldown_ticks = 0;
  c.max_actions_per_tick = 1;
  return c;
}

}  // namespace nl_store
