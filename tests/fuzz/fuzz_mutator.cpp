#include "fuzz_mutator.hpp"

#include <array>
#include <string_view>

namespace fuzz {
namespace {

constexpr std::array<std::string_view, 22> kNumbers = {
    "0", "-0", "1", "-1", "1e400", "-1e400", "1e-400", "NaN", "Infinity", "9007199254740993",
    "123456789012345678901234567890", "0.1", "1e7", "9999999.995", "1e-13", "0.00000000000009", "2.5e-324",
    "-2147483649", "4294967296", "1.7976931348623157e308", "00", "1."};
constexpr std::array<std::string_view, 10> kStrings = {
    "\"\"", "\"\\u0000\"", "\"\\ud800\"", "\"\xC3\x28\"", "\"\\\"\"", "\"a\\nb\"", "\"\xF0\x9F\x98\x80\"",
    "\"sigmoid\"", "\"softmax\"", "\"cross_entropy_softmax\""};

bool is_number_char(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '.' || c == 'e' || c == 'E' || c == '+'; }

}  // namespace

Mutator::Mutator(std::vector<std::string> seeds, std::uint64_t seed) : seeds_(std::move(seeds)), rng_(seed) {
  if (seeds_.empty()) seeds_.emplace_back("{}");
}

std::string Mutator::next() {
  std::string s = seeds_[pick(seeds_.size())];
  const std::size_t edits = 1 + pick(4);
  for (std::size_t i = 0; i < edits; ++i) mutate_once(s);
  return s;
}

void Mutator::mutate_once(std::string& s) {
  const std::size_t at = pick(s.size() + 1);
  // Most edits keep the text JSON (cases 5..9) so inputs get past the parser to the engine.
  switch (pick(3) == 0 ? pick(5) : 5 + pick(5)) {
    case 0:  // flip a bit
      if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << pick(8));
      break;
    case 1:  // insert a byte, often a structural one
      s.insert(at, 1, "{}[],:\"\\0 \n\x80"[pick(13)]);
      break;
    case 2:  // delete a range
      if (!s.empty()) s.erase(pick(s.size()), 1 + pick(16));
      break;
    case 3: {  // duplicate a range
      if (s.empty()) break;
      const std::size_t from = pick(s.size());
      const std::string piece = s.substr(from, 1 + pick(64));
      s.insert(at, piece);
      break;
    }
    case 4: {  // splice: head of this, tail of another seed
      const std::string& other = seeds_[pick(seeds_.size())];
      s = s.substr(0, at) + other.substr(pick(other.size() + 1));
      break;
    }
    case 5:
    case 6: {  // replace a number by an edge value
      std::size_t i = at;
      while (i < s.size() && !(s[i] >= '0' && s[i] <= '9')) ++i;
      if (i >= s.size()) break;
      std::size_t b = i;
      while (b > 0 && is_number_char(s[b - 1])) --b;
      std::size_t e = i;
      while (e < s.size() && is_number_char(s[e])) ++e;
      s.replace(b, e - b, kNumbers[pick(kNumbers.size())]);
      break;
    }
    case 7: {  // replace a string by odd text
      const std::size_t q = s.find('"', at);
      if (q == std::string::npos) break;
      const std::size_t end = s.find('"', q + 1);
      if (end == std::string::npos) break;
      s.replace(q, end - q + 1, kStrings[pick(kStrings.size())]);
      break;
    }
    case 8: {  // wrap a value in deep nesting
      const std::size_t depth = 1 + pick(200);
      s.insert(at, std::string(depth, '['));
      s.insert(std::min(s.size(), at + depth + pick(32)), std::string(depth, ']'));
      break;
    }
    default: {  // grow an array by repeating its first element
      const std::size_t open = s.find('[', at);
      if (open == std::string::npos) break;
      const std::size_t comma = s.find(',', open);
      const std::size_t close = s.find(']', open);
      const std::size_t end = std::min(comma, close);
      if (end == std::string::npos || end <= open + 1) break;
      const std::string item = s.substr(open + 1, end - open - 1);
      std::string more;
      for (std::size_t k = 0, n = 1 + pick(8); k < n; ++k) more += item + ",";
      s.insert(open + 1, more);
      break;
    }
  }
}

}  // namespace fuzz
