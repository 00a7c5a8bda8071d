#pragma once
// nltrain train's progress on standard error: a bar redrawn at most every 100 ms on a terminal,
// about 20 plain lines per run otherwise; nothing with --quiet.
#include <chrono>
#include <cstdint>
#include <string>

namespace nltrain::cli {

using TrainClock = std::chrono::steady_clock;
[[nodiscard]] double seconds(TrainClock::duration d);
// "m:ss" or "h:mm:ss"; "?" for a negative or non-finite time.
[[nodiscard]] std::string hms(double s);

class Progress {
 public:
  Progress(bool quiet, std::uint64_t first, std::uint64_t last);
  void update(std::uint64_t done, float loss, double tok_s, bool final);
  void set_tokens_per_step(double n) { per_step_tokens_ = n; }
  // Ends a bar's line before an error message (a bar has no newline of its own).
  void break_line();

 private:
  bool tty_, quiet_;
  std::uint64_t first_, last_, every_;
  double per_step_tokens_ = 1;
  std::uint64_t printed_ = ~std::uint64_t{0};
  TrainClock::time_point shown_{};
};

}  // namespace nltrain::cli
