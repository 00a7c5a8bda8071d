// Crash consistency of atomic writes (ARCHITECTURE: "a crash at any instant leaves the old or
// the new version, never a torn one"). Runs crash_writer on one directory, SIGKILLs it after
// a random delay (0-20 ms after it reports ready; one fsync'd write takes milliseconds), and
// checks that the manifest, the trainer table and every cache entry read
// back as one complete generation (or are still absent). Repeats for N trials.
//   crash_check WRITER N [SEED]
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include "crash_versions.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"
#include "hybrid/learning/trainer_table.hpp"

namespace {

int failures = 0;

void fail(int trial, const std::string& what) {
  std::fprintf(stderr, "trial %d: %s\n", trial, what.c_str());
  ++failures;
}

// Checks every file; returns a signature of what is on disk (sum of the generations seen), so
// the caller can tell whether the writer got anything done before it was killed.
std::uint64_t check(int trial, const std::string& dir) {
  std::uint64_t signature = 0;
  auto& fs = common::real_file_system();
  if (fs.exists(dir + "/ckpt/checkpoint.meta")) {
    auto cp = hybrid::read_manifest(fs, dir + "/ckpt");
    if (!cp.ok()) fail(trial, "manifest unreadable: " + cp.error().message());
    else if (!(cp.value() == crashtest::manifest_version(cp->created_unix))) fail(trial, "manifest is not a whole version");
    else signature += cp->created_unix;
  }
  if (fs.exists(dir + "/learn.table")) {
    auto t = hybrid::read_trainer_table_strict(fs, dir + "/learn.table");
    if (!t.ok()) {
      fail(trial, "table unreadable: " + t.error().to_string());
    } else {
      auto gpu = t->stats_for_bucket({true, 0, 0}, hybrid::BackendChoice::gpu);
      if (!gpu || hybrid::format_trainer_table(*t) != hybrid::format_trainer_table(crashtest::table_version(gpu->count))) {
        fail(trial, "table is not a whole version");
      } else {
        signature += gpu->count;
      }
    }
  }
  hybrid::PersistentHybridCache cache(dir + "/cache");
  for (int i = 0; i < crashtest::kBlobs; ++i) {
    const std::string key = crashtest::blob_key(i);
    if (!cache.exists(hybrid::CacheKind::tensor, key)) continue;  // never completed: the old state
    auto meta = cache.get_meta(hybrid::CacheKind::tensor, key);
    auto bytes = cache.get_blob(hybrid::CacheKind::tensor, key);
    if (!meta.ok() || !bytes.ok()) {
      fail(trial, "cache entry " + key + " unreadable: " +
                      (bytes.ok() ? hybrid::to_string(meta.error()) : hybrid::to_string(bytes.error())));
    } else if (bytes.value() != crashtest::blob_payload(meta->created_unix, i)) {
      fail(trial, "cache entry " + key + " is not a whole version");
    } else {
      signature += meta->created_unix;
    }
  }
  return signature;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: crash_check WRITER TRIALS [SEED]\n");
    return 2;
  }
  const std::string writer = argv[1];
  const int trials = std::stoi(argv[2]);
  const unsigned seed = argc > 3 ? static_cast<unsigned>(std::stoul(argv[3])) : std::random_device{}();
  std::string dir = (std::filesystem::temp_directory_path() / "atenia-crash-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr) return 2;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> delay_us(0, 20000);
  int killed_mid_run = 0;
  int progressed = 0;
  std::uint64_t signature = 0;
  for (int trial = 1; trial <= trials; ++trial) {
    int ready[2];
    if (::pipe(ready) != 0) return 2;
    const pid_t pid = ::fork();
    if (pid < 0) return 2;
    if (pid == 0) {
      ::dup2(ready[1], STDOUT_FILENO);
      ::close(ready[0]);
      ::close(ready[1]);
      const std::string first = std::to_string(trial % (crashtest::kBlobs + 2));
      const std::string base = std::to_string(static_cast<std::uint64_t>(trial) * 100000);
      ::execl(writer.c_str(), writer.c_str(), dir.c_str(), first.c_str(), base.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(ready[1]);
    char buf[8];
    (void)!::read(ready[0], buf, sizeof buf);  // "ready", or EOF if the writer died
    ::close(ready[0]);
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ++killed_mid_run;
    else fail(trial, "writer exited by itself with status " + std::to_string(WEXITSTATUS(status)));
    const std::uint64_t now = check(trial, dir);
    if (now != signature) ++progressed;
    signature = now;
  }
  std::filesystem::remove_all(dir);
  std::printf("seed=%u trials=%d killed=%d trials_with_writes=%d failures=%d\n", seed, trials, killed_mid_run,
              progressed, failures);
  // A run whose kills all land before the first write proves nothing.
  if (progressed < trials / 10) {
    std::fprintf(stderr, "only %d of %d trials wrote anything before the kill\n", progressed, trials);
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
