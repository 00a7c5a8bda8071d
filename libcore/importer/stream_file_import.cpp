#include "importer/stream_file_import.hpp"

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <optional>
#include <span>
#include <system_error>

#include "common/in_order_fold.hpp"
#include "common/json_input.hpp"
#include "common/line_reader.hpp"
#include "common/sha256.hpp"
#include "importer/first_reading.hpp"
#include "importer/helper_capture.hpp"
#include "importer/sidecar_checks.hpp"

namespace importer {
namespace {

using detail::hash_from;
using detail::line_too_long;
using detail::pread_chunks;
using detail::read_chunks;
using detail::read_failed;
using detail::read_first;
using detail::regular_file_offset;
using detail::spool_failed;

// A capture is expanded whole, so its bytes are read whole, within the cap on one input.
common::Result<StreamOutcome> import_capture(int fd, const ImportOptions& options, common::Spool& receipts) {
  std::string bytes;
  bool too_long = false;
  const int err = read_chunks(fd, [&](std::string_view chunk) {
    too_long = bytes.size() + chunk.size() > common::kMaxJsonInputBytes;
    if (!too_long) bytes.append(chunk);
    return !too_long;
  });
  if (err != 0) return read_failed(options, err);
  if (too_long) {
    return common::Error::io(caller_label(options.framework, true) +
                             ": a helper capture is read whole, and this one is longer than " +
                             std::to_string(common::kMaxJsonInputBytes) + " bytes, the limit.");
  }
  auto result = import_sidecar_stream(bytes, options);
  if (!result) return result.error();
  receipts.append(result->bytes);
  StreamOutcome out;
  out.steps = std::move(result->steps);
  out.bundle_root_digest = result->bundle_root_digest.value_or("");
  return out;  // the digest is in place already: no offsets to patch
}

}  // namespace

namespace {

// Records held for the source hash beyond this wait for it, so that memory stays flat however long
// the first reading takes: hashing runs at about 1.7 GB/s and a record's import at ~100 MB/s a
// core, so the 17 MB, 1,000-step trace holds about 2 MB before its hash is known; a 171 MB one
// would hold 16 MB by then (peak memory 35.5 MB against 24.0 with 16 MiB allowed), and waits here.
constexpr std::size_t kMaxHeldBytes = std::size_t{4} << 20;

// The first reading's outcome (the source hash or why it failed): known before the second reading
// starts, or coming from the thread that reads it beside the import.
class FirstOutcome {
 public:
  explicit FirstOutcome(std::string source_hash) : value_(std::move(source_hash)) {}
  explicit FirstOutcome(std::future<common::Result<std::string>> pending) : pending_(std::move(pending)) {}

  [[nodiscard]] bool ready() const {
    return value_ || pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }
  // Waits for it.
  [[nodiscard]] const common::Result<std::string>& get() {
    if (!value_) value_.emplace(pending_.get());
    return *value_;
  }

 private:
  std::future<common::Result<std::string>> pending_;
  std::optional<common::Result<std::string>> value_;
};

// The second reading, parsed as it comes; `first` gives the source hash, now or later.
common::Result<StreamOutcome> import_lines(int fd, FirstOutcome& first, const ImportOptions& options,
                                           common::Spool& receipts) {
  // What the first reading finds comes before anything the second does, as when it ran alone.
  const auto first_failure_or = [&first](common::Error e) {
    const auto& hash = first.get();
    return hash ? std::move(e) : hash.error();
  };
  std::optional<std::string> known;
  if (first.ready()) {
    const auto& hash = first.get();
    if (!hash) return hash.error();
    known = *hash;
  }
  StreamImport stream(options, std::move(known), [&receipts](std::string_view r) { receipts.append(r); });
  // The stream gets the hash once the first reading has it, or, `wait`, as soon as it has.
  const auto publish = [&](bool wait) -> std::optional<common::Error> {
    if (!stream.source_hash_pending() || (!wait && !first.ready())) return std::nullopt;
    const auto& hash = first.get();
    if (!hash) return hash.error();
    stream.source_hash_known(*hash);
    return std::nullopt;
  };
  common::LineReader lines(fd, options.max_line_bytes);
  common::Sha256 read;
  lines.observe_chunks([&read](std::string_view chunk) { read.update(chunk); });
  // Record 0 is imported here, alone: the others' receipts carry its framework name and trace_id.
  // The rest are prepared on options.jobs threads and folded in stream order.
  std::optional<common::Error> failed;
  common::InOrderFold<PreparedStep> rest(
      options.jobs,
      [&stream](std::string&& line, std::int64_t, std::size_t k) { return stream.prepare(std::move(line), k + 1); },
      [&](PreparedStep& step) {
        if (auto s = stream.fold(step); !s) {
          failed = s.error();
        } else {
          failed = publish(stream.held_bytes() > kMaxHeldBytes);
        }
        return !failed;
      });
  std::string line;
  for (bool more = true; more;) {
    const auto status = lines.next(line);
    if (status == common::LineReader::Status::line) {
      if (stream.records() == 0) {
        if (auto s = stream.add_line(std::move(line)); !s) return first_failure_or(s.error());
        if (auto e = publish(false)) return *e;
      } else if (!js_trim(line).empty() && !rest.offer(line, lines.line_number())) {
        return first_failure_or(*failed);
      }
      continue;
    }
    // The end, or a reading that failed: the records before it come first.
    if (!rest.drain()) return first_failure_or(*failed);
    if (status == common::LineReader::Status::io_error) return first_failure_or(read_failed(options, lines.last_errno()));
    if (status == common::LineReader::Status::too_long) {
      return first_failure_or(line_too_long(options, lines.line_number()));
    }
    more = false;
  }
  if (auto e = publish(true)) return *e;
  if ("sha256:" + common::to_hex(read.finish()) != *first.get()) {
    return common::Error::io(caller_label(options.framework, true) +
                             ": the input changed while it was being read (its bytes differ between the two readings "
                             "the import makes); nothing was imported.");
  }
  if (stream.records() == 0) {
    if (auto s = check_not_empty("", caller_label(options.framework, true)); !s) return s.error();
  }
  auto outcome = stream.finish();
  if (outcome && receipts.failed()) return spool_failed(options);
  return outcome;
}

// With more than one job, a regular file's first reading (its hash) runs on a thread of its own
// beside the second: the records are imported meanwhile, held until the hash is known, rather
// than after a reading that keeps one core busy and the others idle (17 MB: ~13 ms). nullopt
// where that does not apply (a pipe, a helper capture, no thread to be had): the readings then
// run one after the other.
std::optional<common::Result<StreamOutcome>> import_reading_beside(int fd, const ImportOptions& options,
                                                                   common::Spool& receipts) {
  const off_t start = regular_file_offset(fd);
  if (start < 0) return std::nullopt;
  std::string head;  // the first bytes, for the capture's magic
  const int err = pread_chunks(fd, start, [&head](std::string_view chunk) {
    head.append(chunk.substr(0, kCaptureMagic.size() - head.size()));
    return head.size() < kCaptureMagic.size();
  });
  if (err != 0 || is_capture(head)) return std::nullopt;  // the readings in turn report the error
  std::future<common::Result<std::string>> hashing;
  try {
    hashing = std::async(std::launch::async, [fd, start, options] { return hash_from(fd, start, options); });
  } catch (const std::system_error&) {
    return std::nullopt;
  }
  return import_hashed_stream(fd, std::move(hashing), options, receipts);
}

}  // namespace

common::Result<StreamOutcome> import_hashed_stream(int fd, const std::string& source_hash,
                                                   const ImportOptions& options, common::Spool& receipts) {
  FirstOutcome first(source_hash);
  return import_lines(fd, first, options, receipts);
}

common::Result<StreamOutcome> import_hashed_stream(int fd, std::future<common::Result<std::string>> first,
                                                   const ImportOptions& options, common::Spool& receipts) {
  FirstOutcome outcome(std::move(first));
  return import_lines(fd, outcome, options, receipts);
}

common::Result<StreamOutcome> import_sidecar_stream_fd(int fd, const ImportOptions& options, common::Spool& receipts) {
  if (options.jobs > 1) {
    if (auto beside = import_reading_beside(fd, options, receipts)) return std::move(*beside);
  }
  common::Spool copy(0);  // read again through its descriptor: straight to the file
  auto first = read_first(fd, options, copy);
  if (!first) return first.error();
  if (!first->capture) return import_hashed_stream(first->again, first->source_hash, options, receipts);
  auto outcome = import_capture(first->again, options, receipts);
  if (outcome && receipts.failed()) return spool_failed(options);
  return outcome;
}

bool replay_receipts(common::Spool& receipts, const StreamOutcome& outcome,
                     const std::function<bool(std::string_view)>& sink) {
  std::uint64_t at = 0;
  return receipts.replay_writable([&](std::span<char> chunk) {
    patch_digests(outcome, at, chunk);  // in the chunk read back: no copy of the receipts
    at += chunk.size();
    return sink(std::string_view(chunk.data(), chunk.size()));
  });
}

}  // namespace importer
