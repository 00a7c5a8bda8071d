#pragma once
// nltrain train's --metrics stream: one JSON line per step (schemas/nltrain-metrics.v0.1.0.json)
// to a file or, for `-`, to standard output.
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

#include "common/result.hpp"

namespace nltrain::cli {

// A file is appended to on --resume, truncated otherwise.
class MetricsSink {
 public:
  // On resume (`resume_step` set), lines of steps at or after it (written after the checkpoint by
  // a run that was then killed) are dropped first, so the file holds each step once. The file
  // is read strictly: one that is not nltrain's metrics is refused, untouched.
  [[nodiscard]] common::Status open(const std::string& path, std::optional<std::uint64_t> resume_step);
  // Writes and flushes one line; on `-` a reader that closed the pipe is an io error saying so.
  [[nodiscard]] common::Status write(const std::string& line);
  [[nodiscard]] bool on_stdout() const { return path_ == "-"; }

 private:
  std::string path_;
  std::ofstream file_;
};

}  // namespace nltrain::cli
