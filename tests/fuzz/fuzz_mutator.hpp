#pragma once
// Deterministic input mutations for fuzz_smoke: byte-level edits (flip, insert, delete, duplicate,
// splice with another seed) and JSON-aware ones (numbers replaced by edge values, strings by odd
// text, brackets unbalanced or nested deep). Same seed, same sequence of inputs.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace fuzz {

class Mutator {
 public:
  Mutator(std::vector<std::string> seeds, std::uint64_t seed);
  // The next input: a seed with 1..4 mutations stacked.
  [[nodiscard]] std::string next();

 private:
  void mutate_once(std::string& s);
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }

  std::vector<std::string> seeds_;
  std::mt19937_64 rng_;
};

}  // namespace fuzz
