#pragma once
// A JSON-Schema "pattern", compiled once, searched (not anchored) in a string: what
// std::regex_search(s, std::regex(pattern, std::regex::ECMAScript)) answers, which is what
// the validator answered before schemas were compiled.
//
// Patterns in the subset below run on a small Thompson NFA (a Pike VM without captures):
// time linear in the string, no recursion, no allocation after the first search on a thread.
// Every other pattern is handed to std::regex, compiled once, so the answer is always the
// std::regex one.
//
// The subset, byte-oriented as std::regex<char> is (the patterns are ASCII):
//   literals: printable ASCII except ^ $ \ . * + ? ( ) [ ] { } |
//   escapes:  \d \D \w \W, and a backslash before any of ^ $ \ . * + ? ( ) [ ] { } | / -
//   classes:  [...] and [^...] of printable ASCII, ranges a-z, the escapes above inside
//   groups:   ( ) and (?: ), alternation |
//   anchors:  ^ $ (no multiline)
//   quantifiers: * + ? {n} {n,} {n,m} (n, m <= 1000), greedy or lazy (a search's yes/no is
//   the same either way)
// Anything else (., \s, \b, back references, look-arounds, \x.., \u...., non-ASCII, ...)
// goes to std::regex.
//
//   PatternMatcher p("^[a-zA-Z][a-zA-Z0-9_]*$");   // std::regex_error if std::regex rejects it
//   p.search("w_h1_o_setosa");                     // true
#include <array>
#include <cstdint>
#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace receipt::schema::detail {

class PatternMatcher {
 public:
  explicit PatternMatcher(std::string pattern);

  [[nodiscard]] bool search(std::string_view s) const;
  [[nodiscard]] const std::string& pattern() const { return pattern_; }
  // True when the NFA answers; false when std::regex does (for tests).
  [[nodiscard]] bool native() const { return regex_ == nullptr; }

  struct Instr {
    enum Op : std::uint8_t { byte_set, split, jump, line_begin, line_end, match } op;
    std::uint32_t x = 0;  // split / jump target; byte_set: index into sets_
    std::uint32_t y = 0;  // split: second target
  };

 private:
  std::string pattern_;
  std::vector<Instr> prog_;
  std::vector<std::array<std::uint64_t, 4>> sets_;
  bool anchored_ = false;  // every match starts at 0 (a leading ^ outside any alternation)
  std::unique_ptr<std::regex> regex_;
};

}  // namespace receipt::schema::detail
