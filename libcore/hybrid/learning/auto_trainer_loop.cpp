#include "hybrid/learning/auto_trainer_loop.hpp"

#include <chrono>
#include <limits>

namespace hybrid {

namespace {

std::string switch_reason(BackendChoice from, BackendChoice to) {
  if (from == BackendChoice::cpu && to == BackendChoice::gpu) return "switch: cpu->gpu due to learned score";
  if (from == BackendChoice::gpu && to == BackendChoice::cpu) return "switch: gpu->cpu due to learned score";
  return "switch: backend changed due to learned score";
}

}  // namespace

std::uint64_t AutoTrainerLoop::steady_seconds() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

AutoTrainerLoop::AutoTrainerLoop(AutoTrainerConfig cfg, common::FileSystem& fs, Clock clock)
    : cfg_(std::move(cfg)), fs_(&fs), clock_(std::move(clock)), last_save_seconds_(clock_()) {}

BackendChoice AutoTrainerLoop::on_tick(const ExecutionContext& ctx, const WarmStartPlan& plan,
                                       std::span<const DriftReport> drifts, ExecResult res) {
  record_from_warm_start(trainer_, ctx, plan, drifts, res);
  dirty_ = true;
  const std::uint64_t now = tick_;
  const BackendChoice raw = recommend_for_next_tick(trainer_, ctx);

  BackendChoice choice = last_choice_;
  std::string reason;
  if (!ctx.gpu_available) {
    choice = BackendChoice::cpu;
    reason = "hold: gpu unavailable";
    if (last_choice_ == BackendChoice::gpu) last_switch_tick_ = now;
  } else if (raw == last_choice_) {
    reason = "hold: same backend preferred";
  } else {
    // The cooldown counts from the last switch; on the very first tick there was none.
    const bool cooling = cfg_.cooldown_ticks > 0 && now > 0 && now - last_switch_tick_ < cfg_.cooldown_ticks;
    if (cooling) {
      reason = "hold: cooldown active";
    } else {
      reason = switch_reason(last_choice_, raw);
      choice = raw;
      last_switch_tick_ = now;
    }
  }
  last_choice_ = choice;
  last_reason_ = std::move(reason);
  tick_ = now == std::numeric_limits<std::uint64_t>::max() ? now : now + 1;

  // Best-effort: a failed autosave shows in the reason, never in the choice.
  if (auto saved = try_autosave(); !saved) last_reason_ = "autosave: failed (io)";
  return choice;
}

common::Status AutoTrainerLoop::save_learning(const std::string& path) const {
  return save_trainer_to_path(*fs_, trainer_, path);
}

common::Status AutoTrainerLoop::load_learning(const std::string& path) {
  auto loaded = load_trainer_from_path(*fs_, path);
  if (!loaded) return loaded.error();
  trainer_ = std::move(loaded.value());
  dirty_ = false;
  return {};
}

bool AutoTrainerLoop::should_autosave() const {
  if (!dirty_ || !cfg_.autosave_path) return false;
  if (cfg_.autosave_every_ticks && *cfg_.autosave_every_ticks > 0 &&
      tick_ - last_save_tick_ >= *cfg_.autosave_every_ticks) {
    return true;
  }
  if (cfg_.autosave_every_seconds) {
    const std::uint64_t now = clock_();
    if (now >= last_save_seconds_ && now - last_save_seconds_ >= *cfg_.autosave_every_seconds) return true;
  }
  return false;
}

common::Result<bool> AutoTrainerLoop::try_autosave() {
  if (!should_autosave()) return false;
  if (auto s = save_learning(*cfg_.autosave_path); !s) return s.error();
  dirty_ = false;
  last_save_tick_ = tick_;
  last_save_seconds_ = clock_();
  last_reason_ = "autosave: wrote learning table";
  return true;
}

}  // namespace hybrid
