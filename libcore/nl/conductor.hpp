#pragma once
// Conductor and Pulse (nltrain-math §5, O-10): step n activates level l when n mod C_l == 0
// (level 0 every step). Observe-then-advance: read pulse(), run the step with it, then advance().
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nl {

struct Pulse {
  std::vector<bool> active;  // one per level
  [[nodiscard]] bool is_active(std::size_t level) const { return active[level]; }
};

class Conductor {
 public:
  explicit Conductor(std::vector<std::size_t> periods, std::uint64_t step = 0)
      : periods_(std::move(periods)), step_(step) {}

  [[nodiscard]] Pulse pulse() const;
  void advance() { ++step_; }
  [[nodiscard]] std::uint64_t step() const { return step_; }

 private:
  std::vector<std::size_t> periods_;
  std::uint64_t step_;
};

}  // namespace nl
