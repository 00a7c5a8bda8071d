// bundle_gen N: writes an N-record multi-step bundle (XOR 2-2-1, SGD) on stdout, each step starting
// from the previous one's parameters_after, so the bundle verifies: the long, valid input the
// streaming `bp verify multi` tests and benchmarks need (the builtin xor-multi-step has two records).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/builtin_inputs.hpp"
#include "receipt/engine/multi_step.hpp"

int main(int argc, char** argv) {
  const long n = argc == 2 ? std::strtol(argv[1], nullptr, 10) : 0;
  if (n <= 0) {
    std::fprintf(stderr, "usage: bundle_gen N (N >= 1)\n");
    return 2;
  }
  auto input = receipt::engine::xor_input();
  input.base.trace_id = "0123456789abcdef0123456789abcdef";
  // Long runs reach losses near 3e-5, where the 9-digit receipt values no longer reproduce within
  // the builtin's atol 1e-12 / rtol 1e-8; the engine ceiling (1e-8 / 1e-6) keeps every step valid.
  input.base.numeric_policy.json["tolerance"] = {{"atol", 1e-8}, {"rtol", 1e-6}};
  receipt::engine::MultiStepNaming naming;
  naming.fixture_prefix = "bundle-gen-step-";
  auto run = receipt::engine::run_multi_step(std::move(input), static_cast<std::size_t>(n), naming);
  if (!run) {
    std::fprintf(stderr, "bundle_gen: %s\n", run.error().to_string().c_str());
    return 1;
  }
  std::string out;
  for (const auto& r : *run) {
    out.clear();
    if (auto st = receipt::emit::append_receipt_line(out, r); !st) {
      std::fprintf(stderr, "bundle_gen: %s\n", st.error().to_string().c_str());
      return 1;
    }
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) return 1;
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
