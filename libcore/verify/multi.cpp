#include "verify/multi.hpp"

#include <optional>

#include "common/json_input.hpp"
#include "common/json_release.hpp"
#include "verify/line_reader.hpp"

namespace verify {
namespace {

bool blank(const std::string& line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

// Reads every record of `fd` into `run`; an error ends the reading.
std::optional<StreamError> read_records(int fd, const std::string& name, MultiRun& run) {
  auto too_long = [&](std::int64_t n) {
    return "input too large to read: line " + std::to_string(n) + " of " + name + " is longer than " +
           std::to_string(kMaxRecordBytes) + " bytes, the limit for one record.";
  };
  auto take = [&](const std::string& line, std::int64_t n) -> std::optional<StreamError> {
    if (blank(line)) return std::nullopt;
    common::JsonInputOptions options;
    options.file = name;
    options.bom = common::BomPolicy::reject;
    options.max_bytes = kMaxRecordBytes;
    options.first_line = n;
    auto doc = common::parse_json_text(line, options);
    if (!doc) {
      return StreamError(StreamFailure::not_json, "Invalid JSON at line " + std::to_string(n) + ": " + doc.error().to_string(),
                         n);
    }
    run.add(*doc);
    common::release_json(*doc);
    return std::nullopt;
  };
  if (auto e = for_each_line(fd, kMaxRecordBytes, name, too_long, take)) return e;
  if (run.records() == 0) return StreamError(StreamFailure::no_records, name + " contains no JSON records");
  return std::nullopt;
}

}  // namespace

common::Expected<MultiOutcome, StreamError> verify_multi(int fd, const std::string& name, const MultiOptions& options,
                                                         MultiObserver* observer) {
  MultiRun run(options.verdict, observer);
  if (auto e = read_records(fd, name, run)) return *e;
  if (observer != nullptr && observer->failed()) {
    return StreamError(StreamFailure::observer_failed, "the report of " + name + " could not be kept");
  }
  return run.finish();
}

}  // namespace verify
