#include "verify/multi.hpp"

#include <algorithm>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
#include "common/json_release.hpp"
#include "verify/in_order_pool.hpp"
#include "verify/line_reader.hpp"

namespace verify {
namespace {

bool blank(const std::string& line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

StreamError not_json(const common::Error& e, std::int64_t line_number) {
  return StreamError(StreamFailure::not_json, "Invalid JSON at line " + std::to_string(line_number) + ": " + e.to_string(),
                     line_number);
}

// Record `index` (physical line `line_number` of `name`, taken over) parsed and prepared, or why it
// is not JSON. A long line is read as a JsonDocument (kDocumentRecordBytes), whose reader refuses
// exactly what the tree reader refuses, with its error text, so a line that is not JSON is worded
// the same whichever reader read it.
common::Expected<PreparedRecord, StreamError> parse_record(std::string&& line, std::int64_t line_number,
                                                           std::size_t index, const std::string& name) {
  common::JsonInputOptions options;
  options.file = name;
  options.bom = common::BomPolicy::reject;
  options.max_bytes = kMaxRecordBytes;
  options.first_line = line_number;
  if (line.size() >= kDocumentRecordBytes) {
    auto doc = common::parse_json_document(std::move(line), options);
    if (!doc) return not_json(doc.error(), line_number);
    return prepare_record(std::move(*doc), index);
  }
  auto tree = common::parse_json_text(line, options);
  if (!tree) return not_json(tree.error(), line_number);
  return prepare_record(std::move(*tree), index);
}

std::string too_long_message(const std::string& name, std::int64_t n) {
  return "input too large to read: line " + std::to_string(n) + " of " + name + " is longer than " +
         std::to_string(kMaxRecordBytes) + " bytes, the limit for one record.";
}

// --jobs 1: each record read, prepared and folded before the next is read.
std::optional<StreamError> read_in_turn(int fd, const std::string& name, MultiRun& run) {
  auto take = [&](std::string& line, std::int64_t n) -> std::optional<StreamError> {
    if (blank(line)) return std::nullopt;
    auto record = parse_record(std::move(line), n, run.records(), name);
    if (!record) return record.error();
    run.add(*record);
    common::release_json(record->receipt);
    return std::nullopt;
  };
  return for_each_line(fd, kMaxRecordBytes, name, [&](std::int64_t n) { return too_long_message(name, n); }, take);
}

struct PendingLine {
  std::string text;
  std::int64_t number = 0;
  std::size_t index = 0;
  // Records already folded, freed by the worker before it parses: freeing a record costs about
  // as much as a tenth of checking it, too much to leave on the one thread that folds, and
  // each goes back to the worker that parsed it (the pool runs record k on worker k mod N).
  std::vector<nlohmann::ordered_json> spent;
};
using RecordPool = InOrderPool<PendingLine, common::Expected<PreparedRecord, StreamError>>;

// --jobs N > 1: this thread reads lines and hands them to N workers (parse and prepare_record),
// then folds the results in input order. The first error in input order ends the run, as it
// does with one job: a record's error is met when its turn comes, after every record before it
// was folded; an error of the reader (a read failure, a line too long) only once every record
// before that line was.
std::optional<StreamError> read_in_parallel(int fd, const std::string& name, std::size_t jobs, MultiRun& run) {
  // At most 4 records per worker in flight, and no more than kMaxBytesInFlight of them (one
  // record is always let through): memory stays flat in the number of records, and a stream of
  // huge records is not held many at a time.
  constexpr std::size_t kMaxBytesInFlight = std::size_t{16} * 1024 * 1024;
  const std::size_t max_records = 4 * jobs;
  std::deque<std::size_t> sizes;  // the lines in flight, in order
  std::size_t bytes = 0;
  std::size_t submitted = 0;
  std::optional<StreamError> record_error;
  std::vector<std::vector<nlohmann::ordered_json>> spent(jobs);  // by worker
  RecordPool pool(jobs, [&name](PendingLine& line) {
    for (auto& doc : line.spent) common::release_json(doc);
    return parse_record(std::move(line.text), line.number, line.index, name);
  });
  auto fold_oldest = [&]() -> bool {
    auto record = pool.next();
    bytes -= sizes.front();
    sizes.pop_front();
    if (!record) {
      record_error = record.error();
      return false;
    }
    const std::size_t worker = run.records() % jobs;  // the one that parsed it
    run.add(*record);
    spent[worker].push_back(std::move(record->receipt));
    return true;
  };
  auto take = [&](std::string& line, std::int64_t n) -> std::optional<StreamError> {
    if (blank(line)) return std::nullopt;
    while (!sizes.empty() && (sizes.size() >= max_records || bytes + line.size() > kMaxBytesInFlight)) {
      if (!fold_oldest()) return record_error;
    }
    sizes.push_back(line.size());
    bytes += line.size();
    pool.submit({std::move(line), n, submitted, std::exchange(spent[submitted % jobs], {})});
    ++submitted;
    return std::nullopt;
  };
  auto stop = for_each_line(fd, kMaxRecordBytes, name, [&](std::int64_t n) { return too_long_message(name, n); }, take);
  if (record_error) return record_error;
  while (!sizes.empty()) {
    if (!fold_oldest()) return record_error;
  }
  return stop;
}

// Reads every record of `fd` into `run`; an error ends the reading.
std::optional<StreamError> read_records(int fd, const std::string& name, std::size_t jobs, MultiRun& run) {
  auto stop = jobs > 1 ? read_in_parallel(fd, name, jobs, run) : read_in_turn(fd, name, run);
  if (stop) return stop;
  if (run.records() == 0) return StreamError(StreamFailure::no_records, name + " contains no JSON records");
  return std::nullopt;
}

}  // namespace

common::Expected<MultiOutcome, StreamError> verify_multi(int fd, const std::string& name, const MultiOptions& options,
                                                         MultiObserver* observer) {
  MultiRun run(options.verdict, observer);
  if (auto e = read_records(fd, name, std::max<std::size_t>(options.jobs, 1), run)) return *e;
  if (observer != nullptr && observer->failed()) {
    return StreamError(StreamFailure::observer_failed, "the report of " + name + " could not be kept");
  }
  return run.finish();
}

}  // namespace verify
