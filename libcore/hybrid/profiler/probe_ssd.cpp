#include "hybrid/profiler/probe_ssd.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstring>
#include <vector>

#include "common/atomic_file.hpp"
#include "hybrid/format/kv_lines.hpp"

namespace hybrid {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string fmt_float(float v) {
  char buf[32];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  return ec == std::errc() ? std::string(buf, p) : "0";
}

bool write_all(int fd, const std::uint8_t* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// Measures sequential write (with fsync), read with the page cache dropped for the file, and
// the latency of one small synced write. Raw POSIX on purpose: this times the device itself
// and writes nothing anyone reads back.
common::Result<SsdMeasurement> measure(const std::string& dir, std::uint64_t sample_bytes) {
  const std::string path = dir + "/.atenia_ssd_probe.sample";
  std::vector<std::uint8_t> buf(static_cast<std::size_t>(sample_bytes));
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
  SsdMeasurement m;
  m.sample_bytes = sample_bytes;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return common::Error::io(std::string("cannot create probe file: ") + std::strerror(errno), {path, 0, {}});
  auto fail = [&](const char* what) {
    const int e = errno;
    ::close(fd);
    ::unlink(path.c_str());
    return common::Error::io(std::string(what) + ": " + std::strerror(e), {path, 0, {}});
  };
  auto t0 = Clock::now();
  if (!write_all(fd, buf.data(), buf.size()) || ::fsync(fd) != 0) return fail("probe write failed");
  const double wsec = seconds_since(t0);
  (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  t0 = Clock::now();
  std::size_t got = 0;
  while (got < buf.size()) {
    const ssize_t r = ::pread(fd, buf.data() + got, buf.size() - got, static_cast<off_t>(got));
    if (r < 0) return fail("probe read failed");
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  const double rsec = seconds_since(t0);
  t0 = Clock::now();
  if (::pwrite(fd, buf.data(), 4096, 0) != 4096 || ::fsync(fd) != 0) return fail("probe sync failed");
  const double lsec = seconds_since(t0);
  ::close(fd);
  ::unlink(path.c_str());
  const double mb = static_cast<double>(sample_bytes) / 1e6;
  m.write_mb_s = static_cast<float>(mb / std::max(wsec, 1e-6));
  m.read_mb_s = static_cast<float>(mb / std::max(rsec, 1e-6));
  m.latency_ms = static_cast<float>(lsec * 1e3);
  return m;
}

}  // namespace

std::string format_ssd_measurement(const SsdMeasurement& m) {
  return "read_mb_s=" + fmt_float(m.read_mb_s) + "\nwrite_mb_s=" + fmt_float(m.write_mb_s) +
         "\nlatency_ms=" + fmt_float(m.latency_ms) + "\nsample_bytes=" + std::to_string(m.sample_bytes) + "\n";
}

common::Result<SsdMeasurement> parse_ssd_measurement(std::string_view text) {
  SsdMeasurement m;
  int seen = 0;
  LineReader lines(text);
  while (auto line = lines.next()) {
    if (line->text.empty()) continue;
    const auto kv = split_key_value(line->text);
    if (!kv) return common::Error::malformed("ssd probe cache line has no '='");
    const std::string_view key = kv->key;
    const std::string_view v = kv->value;
    auto parse_f = [&](float& out, int bit) -> bool {
      if (seen & bit) return false;
      seen |= bit;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
      return ec == std::errc() && p == v.data() + v.size() && out >= 0;
    };
    bool ok = false;
    if (key == "read_mb_s") ok = parse_f(m.read_mb_s, 1);
    else if (key == "write_mb_s") ok = parse_f(m.write_mb_s, 2);
    else if (key == "latency_ms") ok = parse_f(m.latency_ms, 4);
    else if (key == "sample_bytes" && !(seen & 8)) {
      seen |= 8;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), m.sample_bytes);
      ok = ec == std::errc() && p == v.data() + v.size() && !v.empty();
    }
    if (!ok) return common::Error::malformed("ssd probe cache: bad or repeated key '" + std::string(key) + "'");
  }
  if (seen != 15) return common::Error::malformed("ssd probe cache: missing keys");
  return m;
}

common::Result<SsdCaps> probe_ssd(common::FileSystem& fs, const std::string& cache_dir, const SsdProbeOptions& options) {
  if (cache_dir.empty()) return common::Error::invalid_argument("SSD cache directory path is empty");
  if (auto s = fs.create_dirs(cache_dir); !s) return s.error();
  SsdCaps caps;
  caps.cache_dir = cache_dir;
  struct statvfs st {};
  if (::statvfs(cache_dir.c_str(), &st) == 0) {
    caps.fs_total_bytes = static_cast<std::uint64_t>(st.f_blocks) * st.f_frsize;
    caps.fs_free_bytes = static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
  }
  if (!options.measure) return caps;

  const std::string cache_file = cache_dir + "/" + kSsdProbeCacheFile;
  std::optional<SsdMeasurement> m;
  if (options.use_cached && fs.exists(cache_file)) {
    if (auto text = common::read_text(fs, cache_file, 4096)) {
      if (auto parsed = parse_ssd_measurement(*text)) m = *parsed;  // a bad cache is re-measured
    }
  }
  if (!m) {
    auto fresh = measure(cache_dir, options.sample_bytes);
    if (!fresh) return fresh.error();
    m = *fresh;
    // Failing to cache the figure only costs a re-measurement next time.
    (void)common::write_file_atomic(fs, cache_file, format_ssd_measurement(*m));
  }
  caps.read_mb_s_est = m->read_mb_s;
  caps.write_mb_s_est = m->write_mb_s;
  caps.latency_ms_est = m->latency_ms;
  return caps;
}

}  // namespace hybrid
