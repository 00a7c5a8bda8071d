// RAM -> SSD -> RAM spill of a 256 MiB tensor through HybridMemoryManager, against a plain
// write + fsync + read of the same bytes in the same iteration (so both see the same disk and
// page-cache state). Like the spill, the plain read lands in a freshly allocated buffer (a spill
// releases the tensor's RAM and must take it back). Counters: spill_MBps, plain_MBps,
// ratio = spill / plain (goal >= 0.8), plain_nosync_MBps / ratio_vs_nosync for a write without
// fsync (not durable, for reference). MB = 1e6 bytes, both directions counted. The spill also
// does what plain does not: atomic rename + directory fsync, CRC-32C on write and on read.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>

#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "support/temp_dir.hpp"

namespace {

using Clock = std::chrono::steady_clock;

hybrid::Bytes random_bytes(std::size_t n) {
  hybrid::Bytes b(n);
  std::mt19937_64 rng(1);
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    const std::uint64_t v = rng();
    std::memcpy(b.data() + i, &v, 8);
  }
  return b;
}

double plain_write_read(const std::string& path, const hybrid::Bytes& data, hybrid::Bytes& sink, bool sync) {
  const auto t0 = Clock::now();
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  std::size_t off = 0;
  while (off < data.size()) off += static_cast<std::size_t>(::write(fd, data.data() + off, data.size() - off));
  if (sync) ::fsync(fd);
  ::close(fd);
  fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  sink = hybrid::Bytes(data.size());
  off = 0;
  while (off < sink.size()) {
    const ssize_t n = ::read(fd, sink.data() + off, sink.size() - off);
    if (n <= 0) break;
    off += static_cast<std::size_t>(n);
  }
  ::close(fd);
  ::unlink(path.c_str());
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void BM_HybridSpillRoundTrip(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) << 20;
  testsupport::TempDir dir;
  const hybrid::Bytes data = random_bytes(bytes);
  hybrid::HybridMemoryManager mem(dir.file("spill"));
  if (!mem.register_tensor_with_data("t", data, hybrid::MemoryTier::ram).ok()) {
    state.SkipWithError("register failed");
    return;
  }
  hybrid::Bytes sink;
  double spill_s = 0, plain_s = 0, nosync_s = 0;
  for (auto _ : state) {
    plain_s += plain_write_read(dir.file("plain.bin"), data, sink, true);
    nosync_s += plain_write_read(dir.file("plain.bin"), data, sink, false);
    const auto t0 = Clock::now();
    auto out = mem.apply_move("t", hybrid::MovePlan{hybrid::MemoryTier::ram, hybrid::MemoryTier::ssd, "bench"});
    auto in = mem.apply_move("t", hybrid::MovePlan{hybrid::MemoryTier::ssd, hybrid::MemoryTier::ram, "bench"});
    spill_s += std::chrono::duration<double>(Clock::now() - t0).count();
    if (!out.ok() || !in.ok()) {
      state.SkipWithError("spill failed");
      return;
    }
  }
  const auto* ram = hybrid::as_ram(mem.backing("t"));
  if (ram == nullptr || ram->data != data || sink != data) state.SkipWithError("bytes differ after round trip");
  const double mb = 2.0 * static_cast<double>(bytes) * static_cast<double>(state.iterations()) / 1e6;
  state.counters["spill_MBps"] = mb / spill_s;
  state.counters["plain_MBps"] = mb / plain_s;
  state.counters["plain_nosync_MBps"] = mb / nosync_s;
  state.counters["ratio"] = plain_s / spill_s;
  state.counters["ratio_vs_nosync"] = nosync_s / spill_s;
}

}  // namespace

BENCHMARK(BM_HybridSpillRoundTrip)->Arg(256)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK_MAIN();
