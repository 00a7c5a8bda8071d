#pragma once
// The error of a blob codec: the input is not a valid stream for its metadata (Invalid), or
// the compressor could not run (Io). Codecs know nothing of tiers; the SSD cache maps these
// onto MoveError (Invalid -> Unsupported, Io -> Io) keeping the message.
#include <cstdint>
#include <string>

#include "common/expected.hpp"

namespace hybrid {

struct CodecError {
  enum class Kind : std::uint8_t { Invalid, Io };

  Kind kind = Kind::Invalid;
  std::string message;  // English, one line

  static CodecError invalid(std::string m) { return {Kind::Invalid, std::move(m)}; }
  static CodecError io(std::string m) { return {Kind::Io, std::move(m)}; }

  friend bool operator==(const CodecError&, const CodecError&) = default;
};

template <typename T>
using CodecResult = common::Expected<T, CodecError>;

}  // namespace hybrid
