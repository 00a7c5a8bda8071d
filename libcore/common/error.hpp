#pragma once
// The suite's one error type. A verification failure is data, not an Error.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace common {

enum class ErrorCode : std::uint8_t {
  io,                // file missing, unreadable, unwritable, disk full
  malformed,         // input is not what the format says (JSON syntax, schema, NaN...)
  invalid_argument,  // a caller-supplied option or value is out of its domain
  unsupported,       // recognised but not implemented / not available on this machine
};

struct Location {
  std::string file;       // empty when the input has no name
  std::int64_t line = 0;  // 1-based; 0 when unknown
  std::string json_path;  // JSON Pointer ("/layers/0/units"); empty when not applicable
};

class Error {
 public:
  Error(ErrorCode code, std::string message, Location where = {})
      : code_(code), message_(std::move(message)), where_(std::move(where)) {}

  static Error io(std::string msg, Location w = {}) { return {ErrorCode::io, std::move(msg), std::move(w)}; }
  static Error malformed(std::string msg, Location w = {}) { return {ErrorCode::malformed, std::move(msg), std::move(w)}; }
  static Error invalid_argument(std::string msg, Location w = {}) {
    return {ErrorCode::invalid_argument, std::move(msg), std::move(w)};
  }
  static Error unsupported(std::string msg, Location w = {}) {
    return {ErrorCode::unsupported, std::move(msg), std::move(w)};
  }

  [[nodiscard]] ErrorCode code() const { return code_; }
  [[nodiscard]] const std::string& message() const { return message_; }
  [[nodiscard]] const Location& where() const { return where_; }
  // What a reader needs beyond the message (the values an enum allows), kept apart so a message
  // that must equal another tool's (Ajv's, under `bp validate --json`) stays exact; to_string()
  // appends it in parentheses.
  [[nodiscard]] const std::string& detail() const { return detail_; }
  [[nodiscard]] Error with_detail(std::string detail) const {
    Error e = *this;
    e.detail_ = std::move(detail);
    return e;
  }

  // Returns a copy with the location filled in where it was empty.
  [[nodiscard]] Error at_file(std::string file) const {
    Error e = *this;
    if (e.where_.file.empty()) e.where_.file = std::move(file);
    return e;
  }
  // Returns a copy with the line filled in where it was unknown (a reader of one line of a stream
  // that errs from code that knows no lines: the config of a receipt, say).
  [[nodiscard]] Error at_line(std::int64_t line) const {
    Error e = *this;
    if (e.where_.line == 0) e.where_.line = line;
    return e;
  }
  // Returns a copy reported against `file`, whatever it named before.
  [[nodiscard]] Error for_file(std::string file) const {
    Error e = *this;
    e.where_.file = std::move(file);
    return e;
  }
  [[nodiscard]] Error at_path(std::string json_path) const {
    Error e = *this;
    if (e.where_.json_path.empty()) e.where_.json_path = std::move(json_path);
    return e;
  }

  // One stable line: "file:line: /json/path: message"; control characters inside any part are
  // written as escapes (\n, \t, \xHH), so quoted input never breaks the line; a path or a
  // message past kMaxErrorPathBytes / kMaxErrorMessageBytes is cut (see excerpt()).
  [[nodiscard]] std::string to_string() const;

 private:
  ErrorCode code_;
  std::string message_;
  Location where_;
  std::string detail_;
};

[[nodiscard]] const char* to_string(ErrorCode code);

// Input quoted in an error message (a value, a token, a key) is cut to this many bytes.
inline constexpr std::size_t kMaxQuotedInputBytes = 200;

// Error::to_string cuts a JSON path or a message longer than these (with excerpt()).
inline constexpr std::size_t kMaxErrorPathBytes = 4 * kMaxQuotedInputBytes;
inline constexpr std::size_t kMaxErrorMessageBytes = 10 * kMaxQuotedInputBytes;

// `input` when it fits in `max_bytes`; otherwise its first bytes (never splitting a UTF-8
// sequence) followed by "...(N bytes)", so an error never echoes a 50 MB value.
[[nodiscard]] std::string excerpt(std::string_view input, std::size_t max_bytes = kMaxQuotedInputBytes);
// The same excerpt of a text of `total_bytes` of which only the first bytes are at hand: `prefix`
// holds at least max_bytes + 1 of them when total_bytes > max_bytes (a writer that stops early).
[[nodiscard]] std::string excerpt_of_prefix(std::string_view prefix, std::size_t total_bytes,
                                            std::size_t max_bytes = kMaxQuotedInputBytes);

}  // namespace common
