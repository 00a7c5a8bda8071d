// The compiled pattern matcher answers what std::regex_search (ECMAScript) answers, on the
// patterns of schemas/ and on a list of others, for seeded random strings.
#include "common/schema/pattern_matcher.hpp"

#include <doctest/doctest.h>

#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "schema_registry/schema_registry.hpp"

using common::schema::detail::PatternMatcher;

namespace {

void collect_patterns(const nlohmann::ordered_json& s, std::set<std::string>& out) {
  if (s.is_object()) {
    for (const auto& [k, v] : s.items()) {
      if (k == "pattern" && v.is_string()) out.insert(v.get<std::string>());
      if (k == "patternProperties" && v.is_object())
        for (const auto& [p, _] : v.items()) out.insert(p);
      collect_patterns(v, out);
    }
  } else if (s.is_array()) {
    for (const auto& v : s) collect_patterns(v, out);
  }
}

std::set<std::string> schema_patterns() {
  std::set<std::string> out;
  for (const auto& name : schema_registry::schema_names()) collect_patterns(*schema_registry::find_schema(name), out);
  return out;
}

// Strings built from the pattern's own characters, digits, letters and a few odd bytes.
std::string random_string(std::mt19937_64& rng, const std::string& pattern) {
  static const std::string extra = "0123456789abcdefABCXYZ_-.:+T Z\n\t/\\sha256:";
  std::string alphabet = pattern + extra + "\xc3\xa9\xff";
  std::uniform_int_distribution<int> len_pick(0, 12);
  int len = len_pick(rng);
  if (rng() % 8 == 0) len = 30 + static_cast<int>(rng() % 50);
  std::string s;
  for (int i = 0; i < len; ++i) s += alphabet[rng() % alphabet.size()];
  return s;
}

// Near-misses of strings that match: one byte changed, dropped, added.
std::string mutate(std::mt19937_64& rng, std::string s) {
  static const std::string bytes = "0a9zZ_.-:x\xc3 ";
  const auto op = rng() % 4;
  if (s.empty() || op == 0) {
    s.insert(s.begin() + static_cast<long>(s.empty() ? 0 : rng() % (s.size() + 1)), bytes[rng() % bytes.size()]);
  } else if (op == 1) {
    s.erase(s.begin() + static_cast<long>(rng() % s.size()));
  } else if (op == 2) {
    s[rng() % s.size()] = bytes[rng() % bytes.size()];
  } else {
    s += s;
  }
  return s;
}

std::size_t compare_on(const std::string& pattern, std::mt19937_64& rng, const std::vector<std::string>& seeds,
                       int randoms) {
  const PatternMatcher m(pattern);
  const std::regex re(pattern, std::regex::ECMAScript);
  std::size_t cases = 0;
  auto one = [&](const std::string& s) {
    ++cases;
    const bool expected = std::regex_search(s, re);
    if (m.search(s) != expected) FAIL_CHECK("pattern " << pattern << " on \"" << s << "\": std::regex " << expected);
  };
  for (const auto& s : seeds) {
    one(s);
    for (int i = 0; i < 20; ++i) one(mutate(rng, s));
  }
  for (int i = 0; i < randoms; ++i) one(random_string(rng, pattern));
  return cases;
}

}  // namespace

TEST_CASE("pattern matcher: the schemas' patterns run natively and agree with std::regex") {
  std::mt19937_64 rng(20261123);
  const std::vector<std::string> seeds = {
      "",          "a",
      "w_h1_o_setosa", "1.2.3",
      "10.20.30-beta", "2026-11-23T15:01:09Z",
      "2026-11-23T15:01:09.123+05:30", "sha256:" + std::string(64, 'a'),
      "sha256:" + std::string(63, '0') + "g", "0123456789abcdef0123456789abcdef",
      "abc1234",   std::string(40, 'f'),
      std::string(41, 'f'), "x0.1.2",
  };
  const auto patterns = schema_patterns();
  CHECK(patterns.size() >= 5);
  std::size_t cases = 0;
  for (const auto& p : patterns) {
    CHECK_MESSAGE(PatternMatcher(p).native(), p);
    CHECK_MESSAGE(PatternMatcher(p).deterministic(), p);
    cases += compare_on(p, rng, seeds, 3000);
  }
  MESSAGE(patterns.size() << " schema patterns, " << cases << " strings");
}

TEST_CASE("pattern matcher: other patterns agree with std::regex; the unsupported ones fall back") {
  std::mt19937_64 rng(7);
  const std::vector<std::string> native = {
      "",         "a",         "^$",        "^a|b$",         "(ab|a)(c|bcd)(d*)", "(?:ab)+c",  "a{2,3}",
      "^a{0}$",   "x{3,}",     "[a-]",      "[-a]",          "[a\\-z]",           "[^a-c]+$",  "\\D\\W",
      "[\\d_]+",  "(a*)*b",    "(a|)+$",    "^(xx+)+y$",    "a+?b",              "\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\\\/",
      "^\\d+\\.\\d+\\.\\d+", "(^a)",      "a$|^b",         "$^",                "a$$",       "^^a",
      "(a|b)*a(a|b){12}",  // a DFA of 2^13 states: the NFA runs
  };
  const std::vector<std::string> fallback = {".",    "\\s",  "\\bx", "(a)\\1", "(?=a)", "a{,3}",  "\\x41",
                                             "\\u0041", "\xc3\xa9", "[]a]", "[^]", "\\-",   "a{1001}", "[[:alpha:]]"};
  std::size_t cases = 0;
  for (const auto& p : native) {
    bool std_accepts = true;
    try {
      std::regex(p, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      std_accepts = false;
    }
    if (!std_accepts) {
      CHECK_THROWS_AS(PatternMatcher{p}, std::regex_error);
      continue;
    }
    CHECK_MESSAGE(PatternMatcher(p).native(), p);
    cases += compare_on(p, rng, {"", "ab", "abcd", "aab", "xxxxxxxxxy", "a.b", "b", "ba", "_9"}, 2000);
  }
  for (const auto& p : fallback) {
    bool std_accepts = true;
    try {
      std::regex(p, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      std_accepts = false;
    }
    if (!std_accepts) {
      CHECK_THROWS_AS(PatternMatcher{p}, std::regex_error);
      continue;
    }
    CHECK_MESSAGE(!PatternMatcher(p).native(), p);
    cases += compare_on(p, rng, {"", "a", "A b", "aa"}, 300);
  }
  MESSAGE(cases << " strings");
}

TEST_CASE("pattern matcher: a pattern whose DFA would be too large runs on the NFA") {
  const PatternMatcher m("(a|b)*a(a|b){12}");
  CHECK(m.native());
  CHECK_FALSE(m.deterministic());
  CHECK(m.search("xxa" + std::string(12, 'b')));
  CHECK_FALSE(m.search("xxa" + std::string(11, 'b')));
  CHECK(PatternMatcher("^sha256:[0-9a-f]{64}$").deterministic());
}

TEST_CASE("pattern matcher: long inputs take linear time") {
  const PatternMatcher m("^(x+x+)+y$");
  CHECK_FALSE(m.search(std::string(100000, 'x')));
  const PatternMatcher v("^\\d+\\.\\d+\\.\\d+");
  CHECK_FALSE(v.search(std::string(1000000, '1')));
  CHECK(v.search("1." + std::string(1000000, '1') + ".2"));
}

TEST_CASE("pattern matcher: every pattern the subset reads, std::regex compiles (20,000 drawn)") {
  // The matcher compiles std::regex only for a pattern outside its subset, so one the subset reads
  // must be one std::regex accepts, or a pattern std::regex rejects would no longer be refused.
  // Pieces of the subset's syntax, and of what is near it (bad counts and ranges, lone brackets).
  static const std::vector<std::string> pieces = {
      "a",   "b",     "z",     "_",     "9",     "0",     "-",      ".",      ":",      ",",   R"(\d)",
      R"(\w)", R"(\D)", R"(\W)", R"(\.)", R"(\-)", R"(\\)", "^",      "$",      "|",      "(",   ")",
      "(?:", "[",     "]",     "[^",    "a-z",   "z-a",   "9-0",    "*",      "+",      "?",   "{",
      "}",   "{2}",   "{1,3}", "{3,1}", "{2,}",  "{0}",   "{0,0}",  "{12}",   "{12,}",  "*?",  "+?"};
  std::mt19937_64 rng(20261202);
  int native = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string p;
    const std::size_t len = 1 + rng() % 7;
    for (std::size_t k = 0; k < len; ++k) p += pieces[rng() % pieces.size()];
    bool subset = false;
    try {
      subset = PatternMatcher(p).native();
    } catch (const std::regex_error&) {
      continue;  // outside the subset and refused by std::regex: as before
    }
    if (!subset) continue;
    ++native;
    CAPTURE(p);
    CHECK_NOTHROW(std::regex(p, std::regex::ECMAScript));
  }
  CHECK(native > 2000);
}
