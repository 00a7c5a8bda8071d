#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include <fmt/format.h>

namespace nltrain::cli {

double seconds(TrainClock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string hms(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  const auto t = static_cast<std::uint64_t>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60) : fmt::format("{}:{:02}", t / 60, t % 60);
}

Progress::Progress(bool quiet, std::uint64_t first, std::uint64_t last)
    : tty_(::isatty(STDERR_FILENO) == 1), quiet_(quiet), first_(first), last_(last),
      every_(std::max<std::uint64_t>(1, (last - first) / 20)) {}

void Progress::update(std::uint64_t done, float loss, double tok_s, bool final) {
  if (quiet_) return;
  const double eta = tok_s > 0 ? static_cast<double>(last_ - done) * per_step_tokens_ / tok_s : NAN;
  if (tty_) {
    const auto now = TrainClock::now();
    if (!final && now - shown_ < std::chrono::milliseconds(100)) return;
    shown_ = now;
    const std::size_t width = 30;
    const double frac = static_cast<double>(done) / static_cast<double>(std::max<std::uint64_t>(1, last_));
    const auto fill = static_cast<std::size_t>(frac * width);
    std::cerr << fmt::format("\r[{}{}] step {}/{} loss {:.4f} {:.0f} tok/s ETA {}\x1b[K", std::string(fill, '#'),
                             std::string(width - fill, '.'), done, last_, loss, tok_s, hms(eta));
    if (final) std::cerr << "\n";
  } else if ((final && done != printed_) || (!final && (done - first_) % every_ == 0)) {
    printed_ = done;
    std::cerr << fmt::format("step {}/{} loss {:.4f} tokens/s {:.0f} eta {}\n", done, last_, loss, tok_s, hms(eta));
  }
}

void Progress::break_line() {
  if (tty_ && !quiet_) std::cerr << "\n";
}

}  // namespace nltrain::cli
