#include "verify_multi.hpp"

#include <optional>

#include "command_support.hpp"
#include "input_source.hpp"
#include "jobs_option.hpp"
#include "verify/multi.hpp"
#include "verify_multi_report.hpp"
#include "verify_options.hpp"

namespace bp::cli {
namespace {

constexpr const char* kReadHint =
    "verify the path is a readable file; if this persists, the file or filesystem may be damaged.";

CliError plain_error(std::string code, std::string message, std::optional<std::string> hint = std::nullopt) {
  CliError e;
  e.code = std::move(code);
  e.message = std::move(message);
  e.hint = std::move(hint);
  if (e.hint) e.retryable = false;
  return e;
}

// Why the library stopped reading, as the reference reports it.
CliError stream_error(const verify::StreamError& e, const std::string& name) {
  switch (e.failure()) {
    case verify::StreamFailure::unreadable: return plain_error("IO_ERROR", e.message(), kReadHint);
    case verify::StreamFailure::line_too_long:
      return plain_error("INPUT_TOO_LARGE", e.message(),
                         "a receipt this large cannot be verified; split the run into smaller steps.");
    case verify::StreamFailure::not_json:
      return plain_error("BP_JSONL_PARSE_ERROR", e.message(),
                         "each line of a multi-record JSONL file must be a standalone JSON object.");
    case verify::StreamFailure::no_records:
      return plain_error("BP_JSONL_EMPTY", "bp verify multi: " + std::string(name == "<stdin>" ? "stdin" : name) +
                                               " contains no JSON records (empty or whitespace-only).");
    case verify::StreamFailure::observer_failed:
      return plain_error("IO_ERROR", "could not write the report's temporary file (is $TMPDIR full?)",
                         "set TMPDIR to a directory with room for about 200 bytes per record.");
    case verify::StreamFailure::rejected: break;  // verify_nltrain's
  }
  return plain_error("BP_JSONL_PARSE_ERROR", e.message());
}

}  // namespace

int verify_multi_file(const Invocation& inv, const std::string& file) {
  auto jobs = jobs_option(inv, "bp verify multi");
  if (auto* e = std::get_if<CliError>(&jobs)) return fail(inv, *e);
  auto opened = open_input_fd(file);
  if (auto* e = std::get_if<CliError>(&opened)) return fail(inv, *e);
  const InputFd closer{std::get<int>(opened)};
  MultiReportSpool spool(inv);
  if (auto e = spool.open()) return fail(inv, plain_error("IO_ERROR", *e, "set TMPDIR to a writable directory."));
  const std::string name = input_display_name(file);
  auto outcome = verify::verify_multi(closer.fd, name, {verdict_options(inv), std::get<std::size_t>(jobs)}, &spool);
  if (!outcome) return fail(inv, stream_error(outcome.error(), name));
  return write_multi_report(inv, spool, *outcome);
}

std::variant<verify::MultiOutcome, CliError> verify_multi_verdict(const Invocation& inv, const std::string& file) {
  auto opened = open_input_fd(file);
  if (auto* e = std::get_if<CliError>(&opened)) return *e;
  const InputFd closer{std::get<int>(opened)};
  const std::string name = input_display_name(file);
  auto outcome = verify::verify_multi(closer.fd, name, {verdict_options(inv)});
  if (!outcome) return stream_error(outcome.error(), name);
  return std::move(*outcome);
}

}  // namespace bp::cli
