#include "verify_stream_error.hpp"

namespace bp::cli {

CliError cli_error(int exit_code, std::string code, std::string message) {
  CliError e;
  e.exit_code = exit_code, e.code = std::move(code), e.message = std::move(message);
  return e;
}

CliError tensor_step_stream_error(const verify::StreamError& e) {
  switch (e.failure()) {
    case verify::StreamFailure::unreadable: return cli_error(kExitMalformedOrIo, "IO_ERROR", e.message());
    case verify::StreamFailure::line_too_long: return cli_error(kExitMalformedOrIo, "INPUT_TOO_LARGE", e.message());
    case verify::StreamFailure::no_records: return cli_error(kExitMalformedOrIo, "BP_JSONL_EMPTY", e.message());
    case verify::StreamFailure::rejected:
    case verify::StreamFailure::not_json:
    case verify::StreamFailure::observer_failed: break;
  }
  const bool arg = e.code() == common::ErrorCode::invalid_argument;
  return cli_error(arg ? kExitInvalidArgument : kExitMalformedOrIo, arg ? "INVALID_ARGUMENT" : "BP_TENSOR_STEP_MALFORMED",
                   e.message());
}

}  // namespace bp::cli
