#include "importer/stream_file_import.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>

#include "common/in_order_fold.hpp"
#include "common/json_input.hpp"
#include "common/line_reader.hpp"
#include "common/sha256.hpp"
#include "importer/helper_capture.hpp"
#include "importer/sidecar_checks.hpp"

namespace importer {
namespace {

// The file's name comes first in the line the CLI prints, so these name only the importer.
common::Error read_failed(const ImportOptions& options, int err) {
  return common::Error::io(caller_label(options.framework, true) + ": a read failed: " + std::strerror(err));
}

common::Error spool_failed(const ImportOptions& options) {
  return common::Error::io(caller_label(options.framework, true) +
                           ": could not keep the stream in a temporary file (in $TMPDIR, else /tmp): a write failed, "
                           "is its file system full?");
}

common::Error line_too_long(const ImportOptions& options, std::int64_t line_number) {
  return common::Error::io(caller_label(options.framework, true) + ": line " + std::to_string(line_number) +
                           " is longer than " + std::to_string(options.max_line_bytes) +
                           " bytes, the limit for one record.");
}

// Every chunk `fd` gives, until its end, to `take` (false: stop there); the errno of a failed read,
// else 0.
int read_chunks(int fd, const std::function<bool(std::string_view)>& take) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0 || !take(std::string_view(buf, static_cast<std::size_t>(n)))) return 0;
  }
}

// The first reading: the bytes' sha256, whether they are a helper capture, and a descriptor from
// which the same bytes can be read again (`fd` itself, rewound, or a copy of what a pipe gave).
struct FirstReading {
  std::string source_hash;
  bool capture = false;
  int again = -1;
};

common::Result<FirstReading> read_first(int fd, const ImportOptions& options, common::Spool& copy) {
  struct stat st {};
  const off_t start = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? ::lseek(fd, 0, SEEK_CUR) : off_t{-1};
  if (start < 0) {
    if (auto e = copy.open("bp-import-input")) {
      return common::Error::io(caller_label(options.framework, true) + ": " + *e);
    }
  }
  common::Sha256 hash;
  std::string head;  // the first bytes, for the capture's magic
  // The line being read, so that an endless line (/dev/zero) ends the reading at the limit, as the
  // second reading would, rather than at the end of the disk or of time.
  std::int64_t line_number = 1;
  std::size_t line_bytes = 0;
  const int err = read_chunks(fd, [&](std::string_view chunk) {
    hash.update(chunk);
    if (head.size() < 8) head.append(chunk.substr(0, 8 - head.size()));
    for (std::size_t at = 0; at < chunk.size();) {
      const std::size_t nl = chunk.find('\n', at);
      line_bytes += (nl == std::string_view::npos ? chunk.size() : nl) - at;
      if (line_bytes > options.max_line_bytes) return false;
      if (nl == std::string_view::npos) break;
      ++line_number;
      line_bytes = 0;
      at = nl + 1;
    }
    if (start < 0) copy.append(chunk);
    return true;
  });
  if (err != 0) return read_failed(options, err);
  if (line_bytes > options.max_line_bytes) return line_too_long(options, line_number);
  FirstReading r;
  r.source_hash = "sha256:" + common::to_hex(hash.finish());
  r.capture = is_capture(head);
  if (start >= 0) {
    if (::lseek(fd, start, SEEK_SET) != start) return read_failed(options, errno);
    r.again = fd;
  } else {
    r.again = copy.reading_fd();
    if (r.again < 0) return spool_failed(options);
  }
  return r;
}

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

common::Result<StreamOutcome> import_hashed_stream(int fd, const std::string& source_hash,
                                                   const ImportOptions& options, common::Spool& receipts) {
  StreamImport stream(options, source_hash, [&receipts](std::string_view r) { receipts.append(r); });
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
        if (auto s = stream.fold(step); !s) failed = s.error();
        return !failed;
      });
  std::string line;
  for (bool more = true; more;) {
    const auto status = lines.next(line);
    if (status == common::LineReader::Status::line) {
      if (stream.records() == 0) {
        if (auto s = stream.add_line(std::move(line)); !s) return s.error();
      } else if (!js_trim(line).empty() && !rest.offer(line, lines.line_number())) {
        return *failed;
      }
      continue;
    }
    // The end, or a reading that failed: the records before it come first.
    if (!rest.drain()) return *failed;
    if (status == common::LineReader::Status::io_error) return read_failed(options, lines.last_errno());
    if (status == common::LineReader::Status::too_long) return line_too_long(options, lines.line_number());
    more = false;
  }
  if ("sha256:" + common::to_hex(read.finish()) != source_hash) {
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

common::Result<StreamOutcome> import_sidecar_stream_fd(int fd, const ImportOptions& options, common::Spool& receipts) {
  common::Spool copy;
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
  std::string chunk;
  return receipts.replay([&](std::string_view bytes) {
    chunk.assign(bytes);
    patch_digests(outcome, at, chunk);
    at += bytes.size();
    return sink(chunk);
  });
}

}  // namespace importer
