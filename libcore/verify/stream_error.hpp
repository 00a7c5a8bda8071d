#pragma once
// Why a streaming verify run (verify_multi, verify_nltrain) stopped before a verdict: a
// common::Error with the StreamFailure the caller branches on (bp maps each to its error code,
// hint and exit status). A verification failure is not a StreamError: it is in the verdict.
#include <cstdint>
#include <string>

#include "common/error.hpp"

namespace verify {

enum class StreamFailure : std::uint8_t {
  unreadable,       // a read from the input failed (io)
  line_too_long,    // a line is longer than one record may be (malformed)
  not_json,         // a line is not one JSON document (malformed; verify_multi)
  rejected,         // the receipt reader refused a line (its own kind; verify_nltrain)
  no_records,       // nothing but blank lines (malformed)
  observer_failed,  // the caller's MultiObserver could not keep what it was sent (io)
};

class StreamError : public common::Error {
 public:
  // `message` is one sentence that names the input and, where there is one, the line.
  StreamError(StreamFailure failure, std::string message, std::int64_t line = 0);
  // A line the reader refused: its error, kind and text, as it said it.
  StreamError(StreamFailure failure, const common::Error& cause, std::int64_t line);

  // "could not read <name>: <strerror(error_number)>".
  [[nodiscard]] static StreamError unreadable_input(const std::string& name, int error_number);

  [[nodiscard]] StreamFailure failure() const { return failure_; }
  [[nodiscard]] std::int64_t line() const { return line_; }  // 1-based; 0 when not about one line

 private:
  StreamFailure failure_;
  std::int64_t line_;
};

}  // namespace verify
