// fuzz_smoke TARGET ITERATIONS SEED_FILE... : runs a fuzz target (fuzz_targets.hpp) on every seed
// file and then on ITERATIONS deterministic mutations of them. A broken invariant aborts (and
// under the sanitizer build, any memory error does); otherwise it prints a one-line summary.
// Set FUZZ_SMOKE_SEED to vary the mutation sequence; FUZZ_SMOKE_DUMP=<file> keeps the input being
// run, so a crash leaves its reproducer behind.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_mutator.hpp"
#include "fuzz_targets.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: fuzz_smoke TARGET ITERATIONS SEED_FILE...\n");
    return 2;
  }
  const fuzz::Target target = fuzz::find_target(argv[1]);
  if (target == nullptr) {
    std::fprintf(stderr, "fuzz_smoke: unknown target '%s'\n", argv[1]);
    return 2;
  }
  const long iterations = std::strtol(argv[2], nullptr, 10);
  std::vector<std::string> seeds;
  for (int i = 3; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "fuzz_smoke: cannot read seed file %s\n", argv[i]);
      return 2;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    seeds.push_back(ss.str());
  }
  const char* seed_env = std::getenv("FUZZ_SMOKE_SEED");
  const char* dump = std::getenv("FUZZ_SMOKE_DUMP");
  long depth[3] = {0, 0, 0};
  const auto run = [&](const std::string& input) {
    if (dump != nullptr) std::ofstream(dump, std::ios::binary | std::ios::trunc) << input;
    ++depth[static_cast<int>(target(input))];
  };
  for (const auto& s : seeds) run(s);
  fuzz::Mutator mutator(seeds, seed_env != nullptr ? std::strtoull(seed_env, nullptr, 10) : 20261122);
  for (long i = 0; i < iterations; ++i) run(mutator.next());
  std::printf("fuzz_smoke %s: %zu seeds and %ld mutations, no invariant broken; refused by the parser %ld, "
              "refused later %ld, accepted %ld\n",
              argv[1], seeds.size(), iterations, depth[0], depth[1], depth[2]);
  // Every seed is a valid input: if none gets through, the targets or the seeds are broken.
  return depth[2] >= static_cast<long>(seeds.size()) ? 0 : 1;
}
