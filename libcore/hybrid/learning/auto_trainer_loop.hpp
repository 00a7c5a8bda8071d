#pragma once
// APX 13.10.2 / 13.10.3 / 13.10.3.1: one episode recorded per tick, the backend for the next
// tick with a cooldown against thrashing, and an optional dirty-aware autosave of the table.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "common/file_system.hpp"
#include "hybrid/learning/trainer_integration.hpp"
#include "hybrid/learning/trainer_table.hpp"

namespace hybrid {

struct AutoTrainerConfig {
  std::uint32_t cooldown_ticks = 0;  // minimum ticks between backend switches
  std::int32_t drift_penalty = 0;    // reserved by the seed; stored, not applied
  std::optional<std::uint32_t> autosave_every_ticks;
  std::optional<std::uint64_t> autosave_every_seconds;
  std::optional<std::string> autosave_path;  // autosave is off without one
};

class AutoTrainerLoop {
 public:
  // Monotonic seconds, for the time-based autosave. Injected so tests need not sleep.
  using Clock = std::function<std::uint64_t()>;

  explicit AutoTrainerLoop(AutoTrainerConfig cfg, common::FileSystem& fs = common::real_file_system(),
                           Clock clock = steady_seconds);

  BackendChoice on_tick(const ExecutionContext& ctx, const WarmStartPlan& plan, std::span<const DriftReport> drifts,
                        ExecResult res);

  [[nodiscard]] const std::string& last_debug_reason() const { return last_reason_; }
  [[nodiscard]] const SelfTrainer& inner_trainer() const { return trainer_; }
  [[nodiscard]] BackendChoice last_choice() const { return last_choice_; }
  [[nodiscard]] std::uint64_t tick() const { return tick_; }
  [[nodiscard]] bool dirty() const { return dirty_; }

  [[nodiscard]] common::Status save_learning(const std::string& path) const;
  // Replaces the table with the file's (clearing the dirty flag) on success.
  [[nodiscard]] common::Status load_learning(const std::string& path);

  // true: saved; false: nothing due (clean, no path, or no interval elapsed).
  [[nodiscard]] common::Result<bool> try_autosave();

  static std::uint64_t steady_seconds();

 private:
  [[nodiscard]] bool should_autosave() const;

  SelfTrainer trainer_;
  AutoTrainerConfig cfg_;
  common::FileSystem* fs_;
  Clock clock_;
  std::uint64_t tick_ = 0;
  BackendChoice last_choice_ = BackendChoice::cpu;
  std::uint64_t last_switch_tick_ = 0;
  std::string last_reason_ = "init";
  bool dirty_ = false;
  std::uint64_t last_save_tick_ = 0;
  std::uint64_t last_save_seconds_ = 0;
};

}  // namespace hybrid
