#include "verify_multi.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "command_support.hpp"
#include "common/json_input.hpp"
#include "common/json_release.hpp"
#include "input_source.hpp"
#include "verify_line_reader.hpp"
#include "verify_multi_report.hpp"
#include "verify_multi_run.hpp"

namespace bp::cli {
namespace {

CliError plain_error(std::string code, std::string message, std::optional<std::string> hint = std::nullopt) {
  CliError e;
  e.code = std::move(code);
  e.message = std::move(message);
  e.hint = std::move(hint);
  if (e.hint) e.retryable = false;
  return e;
}

bool blank(const std::string& line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

// Reads every record of `fd` into `run`; an error ends the reading.
std::optional<CliError> read_records(int fd, const std::string& name, MultiRun& run) {
  LineReader reader(fd, kMaxRecordBytes);
  std::string line;
  for (;;) {
    const auto status = reader.next(line);
    if (status == LineReader::Status::end) break;
    if (status == LineReader::Status::io_error) {
      return plain_error("IO_ERROR", "could not read " + name + ": " + std::strerror(reader.last_errno()),
                         "verify the path is a readable file; if this persists, the file or filesystem "
                         "may be damaged.");
    }
    if (status == LineReader::Status::too_long) {
      return plain_error("INPUT_TOO_LARGE",
                         "input too large to read: line " + std::to_string(reader.line_number()) + " of " + name +
                             " is longer than " + std::to_string(kMaxRecordBytes) + " bytes, the limit for one record.",
                         "a receipt this large cannot be verified; split the run into smaller steps.");
    }
    if (blank(line)) continue;
    common::JsonInputOptions options;
    options.file = name;
    options.bom = common::BomPolicy::reject;
    options.max_bytes = kMaxRecordBytes;
    options.first_line = reader.line_number();
    auto doc = common::parse_json_text(line, options);
    if (!doc) {
      return plain_error("BP_JSONL_PARSE_ERROR",
                         "Invalid JSON at line " + std::to_string(reader.line_number()) + ": " + doc.error().to_string(),
                         "each line of a multi-record JSONL file must be a standalone JSON object.");
    }
    run.add(run.records(), *doc);
    common::release_json(*doc);
  }
  if (run.records() == 0) {
    return plain_error("BP_JSONL_EMPTY", "bp verify multi: " + std::string(name == "<stdin>" ? "stdin" : name) +
                                             " contains no JSON records (empty or whitespace-only).");
  }
  return std::nullopt;
}

// Opens `file` ("-" = stdin, checked to be piped) for reading; the descriptor or the error.
std::variant<int, CliError> open_input(const std::string& file) {
  if (file == "-") {
    if (auto e = check_stdin_piped()) return *e;
    return STDIN_FILENO;
  }
  if (auto e = check_input_path(file)) return *e;
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return plain_error("IO_ERROR", "could not read " + file + ": " + std::strerror(errno),
                       "verify the path is a readable file; if this persists, the file or filesystem may be damaged.");
  }
  return fd;
}

struct Closer {
  int fd;
  ~Closer() {
    if (fd != STDIN_FILENO) ::close(fd);
  }
};

}  // namespace

int verify_multi_file(const Invocation& inv, const std::string& file) {
  auto opened = open_input(file);
  if (auto* e = std::get_if<CliError>(&opened)) return fail(inv, *e);
  Closer closer{std::get<int>(opened)};
  MultiRun run(inv, true);
  if (auto e = run.open()) return fail(inv, plain_error("IO_ERROR", *e, "set TMPDIR to a writable directory."));
  if (auto e = read_records(closer.fd, file == "-" ? "<stdin>" : file, run)) return fail(inv, *e);
  if (run.spool_failed()) {
    return fail(inv, plain_error("IO_ERROR", "could not write the report's temporary file (is $TMPDIR full?)",
                                 "set TMPDIR to a directory with room for about 200 bytes per record."));
  }
  const MultiRun::Outcome outcome = run.finish();
  return write_multi_report(inv, run, outcome);
}

std::variant<MultiVerdict, CliError> verify_multi_verdict(const Invocation& inv, const std::string& file) {
  auto opened = open_input(file);
  if (auto* e = std::get_if<CliError>(&opened)) return *e;
  Closer closer{std::get<int>(opened)};
  MultiRun run(inv, false);
  if (auto e = read_records(closer.fd, file == "-" ? "<stdin>" : file, run)) return *e;
  MultiRun::Outcome outcome = run.finish();
  return MultiVerdict{std::move(outcome.overall), run.records(), std::move(outcome.first_problem)};
}

}  // namespace bp::cli
