#include "verify/multi.hpp"

#include <algorithm>
#include <deque>
#include <exception>
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
  // each goes back to the worker that parsed it (the pool runs its item p on worker p mod W).
  std::vector<nlohmann::ordered_json> spent;
};
using ParsedRecord = common::Expected<PreparedRecord, StreamError>;
using RecordPool = InOrderPool<PendingLine, ParsedRecord>;

// --jobs N > 1: this thread reads lines, hands them to N - 1 workers (parse and prepare_record)
// and parses the others itself, then folds the results in input order. N threads for N jobs:
// with a thread that only read and folded beside N workers, 2 jobs on 2 cores ran 3 threads and
// paid for it in context switches (1.3x one job). A line goes to the pool while its workers have
// fewer than four lines each (done or not), so that they never wait for this thread, which parses
// the rest: at 2 jobs, 2 and 3 lines left the worker idle more often (about 1.45x and 1.6x one
// job against 1.6-1.75x; 5 and 6 left this thread too little to parse).
// The first error in input order ends the run, as it does with one job: a record's error is met
// when its turn comes, after every record before it was folded; an error of the reader (a read
// failure, a line too long) only once every record before that line was.
std::optional<StreamError> read_in_parallel(int fd, const std::string& name, std::size_t jobs, MultiRun& run) {
  // At most 4 records per job in flight, and no more than kMaxBytesInFlight of them (one record
  // is always let through): memory stays flat in the number of records, and a stream of huge
  // records is not held many at a time.
  constexpr std::size_t kMaxBytesInFlight = std::size_t{16} * 1024 * 1024;
  const std::size_t max_records = 4 * jobs;
  const std::size_t workers = jobs - 1;
  struct InFlight {
    std::size_t bytes = 0;
    std::optional<ParsedRecord> here;  // parsed by this thread; empty: the pool's next result
    std::exception_ptr thrown;         // by this thread's parse: rethrown in turn, as the pool's are
    std::size_t worker = 0;            // the pool's worker that parses it
  };
  std::deque<InFlight> window;  // in input order
  std::size_t bytes = 0;
  std::size_t pooled = 0;  // lines handed to the pool
  std::optional<StreamError> record_error;
  std::vector<std::vector<nlohmann::ordered_json>> spent(workers);  // by worker
  RecordPool pool(workers, [&name](PendingLine& line) {
    for (auto& doc : line.spent) common::release_json(doc);
    return parse_record(std::move(line.text), line.number, line.index, name);
  });
  auto fold_oldest = [&]() -> bool {
    InFlight oldest = std::move(window.front());
    window.pop_front();
    bytes -= oldest.bytes;
    if (oldest.thrown) std::rethrow_exception(oldest.thrown);
    ParsedRecord record = oldest.here ? std::move(*oldest.here) : pool.next();
    if (!record) {
      record_error = record.error();
      return false;
    }
    run.add(*record);
    if (oldest.here) {
      common::release_json(record->receipt);
    } else {
      spent[oldest.worker].push_back(std::move(record->receipt));
    }
    return true;
  };
  auto oldest_ready = [&] {
    return !window.empty() && (window.front().here || window.front().thrown || pool.next_ready());
  };
  auto take = [&](std::string& line, std::int64_t n) -> std::optional<StreamError> {
    if (blank(line)) return std::nullopt;
    while (oldest_ready() ||
           (!window.empty() && (window.size() >= max_records || bytes + line.size() > kMaxBytesInFlight))) {
      if (!fold_oldest()) return record_error;
    }
    InFlight entry{line.size(), std::nullopt, nullptr, pooled % workers};
    const std::size_t index = run.records() + window.size();
    if (pool.in_flight() < 4 * workers) {
      pool.submit({std::move(line), n, index, std::exchange(spent[entry.worker], {})});
      ++pooled;
    } else {
      try {
        entry.here.emplace(parse_record(std::move(line), n, index, name));
      } catch (...) {
        entry.thrown = std::current_exception();
      }
    }
    bytes += entry.bytes;
    window.push_back(std::move(entry));
    return std::nullopt;
  };
  auto stop = for_each_line(fd, kMaxRecordBytes, name, [&](std::int64_t n) { return too_long_message(name, n); }, take);
  if (record_error) return record_error;
  while (!window.empty()) {
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
