#include "verify/multi.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "common/in_order_fold.hpp"
#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
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
// is not JSON. Every line is read as a JsonDocument (8 bytes a value, 16 a number), which the
// schema check and the rules read in place (reconcile::ReadReceipt): no record becomes an
// ordered_json. Its reader refuses exactly what the tree reader refuses, with its error text.
common::Expected<PreparedRecord, StreamError> parse_record(std::string&& line, std::int64_t line_number,
                                                           std::size_t index, const std::string& name) {
  common::JsonInputOptions options;
  options.file = name;
  options.bom = common::BomPolicy::reject;
  options.max_bytes = kMaxRecordBytes;
  options.first_line = line_number;
  auto doc = common::parse_json_document(std::move(line), options);
  if (!doc) return not_json(doc.error(), line_number);
  return prepare_record(std::move(*doc), index);
}

std::string too_long_message(const std::string& name, std::int64_t n) {
  return "input too large to read: line " + std::to_string(n) + " of " + name + " is longer than " +
         std::to_string(kMaxRecordBytes) + " bytes, the limit for one record.";
}

using ParsedRecord = common::Expected<PreparedRecord, StreamError>;

// Reads every record of `fd` into `run` on `jobs` threads (common/in_order_fold.hpp), folded in
// input order; an error ends the reading. The first error in input order ends the run, whatever
// the jobs: a record's error is met when its turn comes, after every record before it was folded;
// an error of the reader (a read failure, a line too long) only once every record before that
// line was.
std::optional<StreamError> read_records(int fd, const std::string& name, std::size_t jobs, MultiRun& run) {
  std::optional<StreamError> record_error;
  // Texts of folded records, whose storage the next lines are read into (PreparedRecord::text):
  // a few, each at most kSpareBytes, so that a huge record does not stay held.
  constexpr std::size_t kSpareLines = 8;
  constexpr std::size_t kSpareBytes = std::size_t{1} << 20;
  std::vector<std::string> spare;
  common::InOrderFold<ParsedRecord> records(
      jobs,
      [&name](std::string&& line, std::int64_t number, std::size_t index) {
        return parse_record(std::move(line), number, index, name);
      },
      [&](ParsedRecord& record) {
        if (!record) {
          record_error = record.error();
          return false;
        }
        run.add(*record);
        if (spare.size() < kSpareLines && record->text.capacity() <= kSpareBytes) {
          spare.push_back(std::move(record->text));
        }
        return true;
      });
  auto take = [&](std::string& line, std::int64_t n) -> std::optional<StreamError> {
    if (blank(line)) return std::nullopt;
    if (!records.offer(line, n)) return record_error;
    if (!spare.empty()) {  // `line` went with its record: the next one is read into a spare
      line = std::move(spare.back());
      spare.pop_back();
    }
    return std::nullopt;
  };
  auto stop = for_each_line(fd, kMaxRecordBytes, name, [&](std::int64_t n) { return too_long_message(name, n); }, take);
  if (record_error || !records.drain()) return record_error;
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
