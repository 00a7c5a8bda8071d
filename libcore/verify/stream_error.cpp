#include "verify/stream_error.hpp"

#include <cstring>

namespace verify {
namespace {

common::ErrorCode error_code(StreamFailure f) {
  switch (f) {
    case StreamFailure::unreadable:
    case StreamFailure::observer_failed: return common::ErrorCode::io;
    case StreamFailure::line_too_long:
    case StreamFailure::not_json:
    case StreamFailure::rejected:
    case StreamFailure::no_records: break;
  }
  return common::ErrorCode::malformed;
}

}  // namespace

StreamError::StreamError(StreamFailure failure, std::string message, std::int64_t line)
    : common::Error(error_code(failure), std::move(message)), failure_(failure), line_(line) {}

StreamError::StreamError(StreamFailure failure, const common::Error& cause, std::int64_t line)
    : common::Error(cause.code(), cause.to_string()), failure_(failure), line_(line) {}

StreamError StreamError::unreadable_input(const std::string& name, int error_number) {
  return {StreamFailure::unreadable, "could not read " + name + ": " + std::strerror(error_number)};
}

}  // namespace verify
