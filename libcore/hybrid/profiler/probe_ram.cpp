#include "hybrid/profiler/probe_ram.hpp"

#include <charconv>
#include <string>

namespace hybrid {

namespace {

// "  123 kB" -> bytes.
std::optional<std::uint64_t> parse_kb(std::string_view v) {
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  std::uint64_t n = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || p == v.data()) return std::nullopt;
  std::string_view unit(p, static_cast<std::size_t>(v.data() + v.size() - p));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  while (!unit.empty() && (unit.back() == ' ' || unit.back() == '\r')) unit.remove_suffix(1);
  if (unit == "kB") return n * 1024;
  if (unit.empty()) return n;
  return std::nullopt;
}

}  // namespace

common::Result<RamCaps> parse_meminfo(std::string_view text) {
  std::optional<std::uint64_t> total, available, free, buffers, cached;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, colon);
    const auto value = parse_kb(line.substr(colon + 1));
    if (key == "MemTotal") total = value;
    else if (key == "MemAvailable") available = value;
    else if (key == "MemFree") free = value;
    else if (key == "Buffers") buffers = value;
    else if (key == "Cached") cached = value;
  }
  if (!total) return common::Error::malformed("meminfo has no valid MemTotal line");
  RamCaps ram{*total, 0};
  if (available) ram.free_bytes = *available;
  else ram.free_bytes = free.value_or(0) + buffers.value_or(0) + cached.value_or(0);
  if (ram.free_bytes > ram.total_bytes) ram.free_bytes = ram.total_bytes;
  return ram;
}

std::optional<float> ram_pressure(const RamCaps& ram) {
  if (ram.total_bytes == 0) return std::nullopt;
  const double used = 1.0 - static_cast<double>(ram.free_bytes) / static_cast<double>(ram.total_bytes);
  return static_cast<float>(used < 0 ? 0 : (used > 1 ? 1 : used));
}

common::Result<RamCaps> probe_ram(common::FileSystem& fs) {
  auto text = common::read_text(fs, "/proc/meminfo", 1u << 20);
  if (!text) return text.error();
  auto ram = parse_meminfo(*text);
  if (!ram) return ram.error().at_file("/proc/meminfo");
  return ram;
}

}  // namespace hybrid
