#include "importer/first_reading.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/sha256.hpp"

#include "importer/helper_capture.hpp"
#include "importer/sidecar_checks.hpp"

namespace importer::detail {

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

int read_chunks(int fd, const std::function<bool(std::string_view)>& take) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0 || !take(std::string_view(buf, static_cast<std::size_t>(n)))) return 0;
  }
}

int pread_chunks(int fd, off_t at, const std::function<bool(std::string_view)>& take) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0 || !take(std::string_view(buf, static_cast<std::size_t>(n)))) return 0;
    at += n;
  }
}

namespace {

// The first reading's sha256, chunk by chunk, and the line being read, so that an endless line
// (/dev/zero) ends the reading at the limit, as the second reading would, rather than at the end
// of the disk or of time.
class FirstHash {
 public:
  explicit FirstHash(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

  // False once a line is longer than the limit (stop reading).
  bool take(std::string_view chunk) {
    hash_.update(chunk);
    for (std::size_t at = 0; at < chunk.size();) {
      const std::size_t nl = chunk.find('\n', at);
      line_bytes_ += (nl == std::string_view::npos ? chunk.size() : nl) - at;
      if (too_long()) return false;
      if (nl == std::string_view::npos) break;
      ++line_number_;
      line_bytes_ = 0;
      at = nl + 1;
    }
    return true;
  }
  [[nodiscard]] bool too_long() const { return line_bytes_ > max_line_bytes_; }
  [[nodiscard]] std::int64_t line_number() const { return line_number_; }
  [[nodiscard]] std::string finish() { return "sha256:" + common::to_hex(hash_.finish()); }

 private:
  common::Sha256 hash_;
  std::size_t max_line_bytes_;
  std::int64_t line_number_ = 1;
  std::size_t line_bytes_ = 0;
};

}  // namespace

off_t regular_file_offset(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? ::lseek(fd, 0, SEEK_CUR) : off_t{-1};
}

common::Result<FirstReading> read_first(int fd, const ImportOptions& options, common::Spool& copy) {
  const off_t start = regular_file_offset(fd);
  if (start < 0) {
    if (auto e = copy.open("bp-import-input")) {
      return common::Error::io(caller_label(options.framework, true) + ": " + *e);
    }
  }
  FirstHash hash(options.max_line_bytes);
  std::string head;  // the first bytes, for the capture's magic
  const int err = read_chunks(fd, [&](std::string_view chunk) {
    if (head.size() < kCaptureMagic.size()) head.append(chunk.substr(0, kCaptureMagic.size() - head.size()));
    if (!hash.take(chunk)) return false;
    if (start < 0) copy.append(chunk);
    return true;
  });
  if (err != 0) return read_failed(options, err);
  if (hash.too_long()) return line_too_long(options, hash.line_number());
  FirstReading r;
  r.source_hash = hash.finish();
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

common::Result<std::string> hash_from(int fd, off_t start, const ImportOptions& options) {
  FirstHash hash(options.max_line_bytes);
  const int err = pread_chunks(fd, start, [&hash](std::string_view chunk) { return hash.take(chunk); });
  if (err != 0) return read_failed(options, err);
  if (hash.too_long()) return line_too_long(options, hash.line_number());
  return hash.finish();
}

}  // namespace importer::detail
