#pragma once
// Running our binaries and the reference (node + the package the compat tests install in
// <build>/reference) from a benchmark, so both are measured in the same run.
#include <spawn.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>
#include "support/suite_paths.hpp"

extern char** environ;

namespace bench {

inline const std::string kBinaryDir = suite_test::binary_dir();
inline const std::string kBp = kBinaryDir + "/apps/bp/bp";
inline const std::string kReferencePackage = kBinaryDir + "/reference/node_modules/@mcptoolshop/backprop-trace";
inline const std::string kReferenceCli = kReferencePackage + "/dist/bin/bp.js";
inline const std::string kReferenceIndex = kReferencePackage + "/dist/index.js";

inline bool exists(const std::string& p) { return ::access(p.c_str(), F_OK) == 0; }

// Runs argv with stdout and stderr on /dev/null (stdin from `input` when given); the exit status,
// or -1 when it could not run or did not exit normally.
inline int run_quiet_status(const std::vector<std::string>& args, const std::string& input = "/dev/null") {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, input.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  if (::waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline bool run_quiet(const std::vector<std::string>& args) { return run_quiet_status(args) == 0; }

// A valid `records`-record bundle written by tests/support/bundle_gen (XOR 2-2-1, a valid chain)
// into the temporary directory as <stem>_<records>.jsonl; its path, or "" when it cannot be made.
inline std::string generated_bundle(int records, const std::string& stem) {
  const std::string gen = kBinaryDir + "/tests/bundle_gen";
  const std::string path =
      (std::filesystem::temp_directory_path() / (stem + "_" + std::to_string(records) + ".jsonl")).string();
  if (!exists(gen)) return "";
  const std::string cmd = "'" + gen + "' " + std::to_string(records) + " > '" + path + "'";
  return std::system(cmd.c_str()) == 0 ? path : "";
}

// User + system time of the child processes waited for so far.
inline double children_cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_CHILDREN, &u);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

inline double seconds_per_run(const std::vector<std::string>& args, int runs) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) {
    if (!run_quiet(args)) return -1;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / runs;
}

inline bool reference_available() { return exists(kReferenceCli) && run_quiet({"node", "--version"}); }

// Runs `node -e script` and reads one number from its first output line (the script prints the
// seconds it measured itself, so node's start-up is not counted).
inline std::optional<double> node_number(const std::string& script) {
  if (!reference_available()) return std::nullopt;
  const std::string cmd = "node -e \"" + script + "\"";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return std::nullopt;
  std::array<char, 128> buf{};
  const bool got = std::fgets(buf.data(), buf.size(), p) != nullptr;
  const int rc = ::pclose(p);
  if (!got || rc != 0) return std::nullopt;
  return std::strtod(buf.data(), nullptr);
}

}  // namespace bench
