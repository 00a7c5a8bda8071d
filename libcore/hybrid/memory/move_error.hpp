#pragma once
// APX 13.2: the error of every tier move, and the result type built on it.
#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "common/expected.hpp"

namespace hybrid {

struct MoveError {
  enum class Kind : std::uint8_t { Unsupported, Io, BackendUnavailable };

  Kind kind = Kind::Unsupported;
  std::string message;  // English, one line

  static MoveError unsupported(std::string m) { return {Kind::Unsupported, std::move(m)}; }
  static MoveError io(std::string m) { return {Kind::Io, std::move(m)}; }
  static MoveError backend_unavailable(std::string m) { return {Kind::BackendUnavailable, std::move(m)}; }

  friend bool operator==(const MoveError&, const MoveError&) = default;
};

[[nodiscard]] const char* to_string(MoveError::Kind kind);  // "Unsupported", "Io", "BackendUnavailable"

// "Io: <message>" -- for logs and test failure output.
[[nodiscard]] std::string to_string(const MoveError& e);

// For apps: Io -> io, BackendUnavailable -> unsupported, Unsupported -> invalid_argument.
[[nodiscard]] common::Error to_common_error(const MoveError& e);

template <typename T>
using MoveResult = common::Expected<T, MoveError>;

}  // namespace hybrid
