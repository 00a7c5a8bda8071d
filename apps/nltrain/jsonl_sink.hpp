#pragma once
// nltrain train's JSON Lines streams, one line per step: --metrics
// (schemas/nltrain-metrics.v0.1.0.json) and --receipts (schemas/tensor-step.v0.1.0.json), each to
// a file or, for `-`, to standard output.
#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "common/result.hpp"

namespace nltrain::cli {

// A file is appended to on --resume, truncated otherwise.
class JsonlSink {
 public:
  // The step a line belongs to; nullopt when the line is not of this stream's format.
  using StepOf = std::function<std::optional<std::uint64_t>(const nlohmann::ordered_json&)>;

  // `option` names the stream in messages ("--metrics"), `kind` what its file is ("an nltrain
  // metrics file"). On resume (`resume_step` set), lines of
  // steps at or after it (written after the checkpoint by a run that was then killed) are dropped
  // first, so the file holds each step once; the kept text is returned through `kept_tail` (its
  // last line), for a caller that chains lines. A file whose lines are not of this stream is
  // refused, untouched.
  [[nodiscard]] common::Status open(const std::string& option, const std::string& kind, const std::string& path, std::optional<std::uint64_t> resume_step,
                                    const StepOf& step_of, std::string* kept_tail = nullptr);
  // Writes and flushes one line; on `-` a reader that closed the pipe is an io error saying so.
  [[nodiscard]] common::Status write(const std::string& line);
  [[nodiscard]] bool on_stdout() const { return path_ == "-"; }
  [[nodiscard]] bool enabled() const { return !path_.empty(); }

 private:
  std::string option_, path_;
  std::ofstream file_;
};

}  // namespace nltrain::cli
