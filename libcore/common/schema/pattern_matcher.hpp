#pragma once
// A JSON-Schema "pattern", compiled once, searched (not anchored) in a string: what
// std::regex_search(s, std::regex(pattern, std::regex::ECMAScript)) answers, which is what
// the validator answered before schemas were compiled.
//
// Patterns in the subset below are compiled to a Thompson NFA and, when its subset
// construction stays under 2,000 states, to a DFA over byte classes: one table look-up per
// byte, no recursion, no allocation. A larger one runs on the NFA (a Pike VM without captures),
// still linear in the string. Every other pattern is handed to std::regex, compiled once, so
// the answer is always the std::regex one.
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

namespace common::schema::detail {

class PatternMatcher {
 public:
  explicit PatternMatcher(std::string pattern);

  [[nodiscard]] bool search(std::string_view s) const;
  [[nodiscard]] const std::string& pattern() const { return pattern_; }
  // True when the NFA or the DFA answers; false when std::regex does (for tests).
  [[nodiscard]] bool native() const { return regex_ == nullptr; }
  // True when the DFA answers (for tests).
  [[nodiscard]] bool deterministic() const { return !dfa_next_.empty(); }

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

  // The DFA: next state = dfa_next_[state * classes_ + byte_class_[byte]].
  void build_dfa();
  [[nodiscard]] bool nfa_search(std::string_view s) const;
  std::array<std::uint8_t, 256> byte_class_{};
  std::uint32_t classes_ = 0;
  std::vector<std::uint32_t> dfa_next_;
  std::vector<std::uint8_t> dfa_accept_;         // a match ends here: the search answers yes
  std::vector<std::uint8_t> dfa_accept_at_end_;  // a match ends here when the string does ($)
  std::uint32_t dfa_start_ = 0;
  std::uint32_t dfa_dead_ = 0xffffffffU;  // no match can follow
};

}  // namespace common::schema::detail
