// The receipt formatter against an independent oracle written here from the policy's words: the
// exact decimal expansion of the double (to_chars with 800 digits is exact for every binary64),
// rounded half away from zero to 17 significant digits, then half-to-even to 9.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "common/number_format.hpp"

namespace {

// Significant decimal digits (no leading or trailing zeros) and the exponent of the first one.
struct Digits {
  std::string d;
  int exponent = 0;
};

Digits exact(double a) {
  static char buf[1200];
  const auto r = std::to_chars(buf, buf + sizeof buf, a, std::chars_format::scientific, 800);
  const std::string s(buf, r.ptr);
  Digits out;
  const auto e = s.find('e');
  for (std::size_t i = 0; i < e; ++i)
    if (s[i] != '.') out.d.push_back(s[i]);
  out.exponent = std::stoi(s.substr(e + 1));
  while (out.d.size() > 1 && out.d.back() == '0') out.d.pop_back();
  return out;
}

// Keeps `n` digits; `up` decides from the dropped part whether to add one unit.
Digits round_to(Digits x, std::size_t n, bool up) {
  x.d.resize(n, '0');
  if (!up) return x;
  std::size_t i = n;
  while (i > 0 && x.d[i - 1] == '9') x.d[--i] = '0';
  if (i == 0) {
    x.d.insert(x.d.begin(), '1');
    x.d.pop_back();
    ++x.exponent;
  } else {
    ++x.d[i - 1];
  }
  return x;
}

// The expected canonical text, or "" when the value is out of the plain range.
std::string oracle(double v) {
  if (v == 0) return "0.000000000";
  Digits x = exact(std::fabs(v));
  x.d.resize(std::max<std::size_t>(x.d.size(), 18), '0');
  const bool away = x.d[17] >= '5';  // half away from zero: a 5 alone is enough
  Digits d17 = round_to(x, 17, away);
  if (d17.exponent < -13 || d17.exponent >= 7) return "";
  const char g = d17.d[9];
  const bool rest_nonzero = d17.d.find_first_not_of('0', 10) != std::string::npos;
  const bool up = g > '5' || (g == '5' && (rest_nonzero || (d17.d[8] - '0') % 2 == 1));
  Digits d9 = round_to(d17, 9, up);
  if (d9.exponent >= 7) return "";
  std::string out = v < 0 ? "-" : "";
  if (d9.exponent >= 0) {
    out += d9.d.substr(0, static_cast<std::size_t>(d9.exponent) + 1) + "." +
           d9.d.substr(static_cast<std::size_t>(d9.exponent) + 1);
  } else {
    out += "0." + std::string(static_cast<std::size_t>(-d9.exponent - 1), '0') + d9.d;
  }
  return out;
}

void check_one(double v) {
  const std::string want = oracle(v);
  auto got = common::format_receipt_number(v);
  CAPTURE(common::to_precision_17(v));
  if (want.empty()) {
    CHECK_FALSE(got.ok());
  } else {
    REQUIRE(got.ok());
    CHECK(*got == want);
  }
}

}  // namespace

TEST_CASE("number_format: exact oracle on random doubles across the whole plain range") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-15.0, 8.0);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int i = 0; i < 100000; ++i) check_one(unit(rng) * std::pow(10.0, exponent(rng)));
}

TEST_CASE("number_format: exact oracle on short binaries, where 17-digit ties live") {
  // v = N / 2^k has the exact expansion N * 5^k / 10^k: with N odd and N * 5^k of 18 digits, the
  // 18th digit is a 5 followed by nothing, an exact tie at 17 digits.
  std::mt19937_64 rng(11);
  int ties = 0;
  for (int k = 1; k <= 26; ++k) {
    std::uint64_t p5 = 1;
    for (int i = 0; i < k; ++i) p5 *= 5;
    const std::uint64_t lo = (100'000'000'000'000'000ULL + p5 - 1) / p5;
    const std::uint64_t hi = std::min<std::uint64_t>((1'000'000'000'000'000'000ULL - 1) / p5, (1ULL << 53) - 1);
    for (int i = 0; lo <= hi && i < 2000; ++i) {
      const std::uint64_t n = (lo + rng() % (hi - lo + 1)) | 1;
      if (n > hi) continue;
      const double v = std::ldexp(static_cast<double>(n), -k);
      const Digits x = exact(v);
      ties += x.d.size() == 18 && x.d[17] == '5' ? 1 : 0;
      check_one(v);
      check_one(-v);
      check_one(std::ldexp(v, -8));  // the same digits pattern further down the range
    }
  }
  CHECK(ties > 1000);  // the sample does reach the tie case
  // Short binaries of every size, ties or not.
  for (int k = 1; k <= 30; ++k) {
    for (int i = 0; i < 500; ++i) check_one(std::ldexp(static_cast<double>(rng() % (1ULL << 40)) + 1, -k));
  }
}

TEST_CASE("number_format: exact oracle at the edges of every decade and of the range") {
  for (int e = -14; e <= 7; ++e) {
    const double p = std::pow(10.0, e);
    double below = p, above = p;
    for (int i = 0; i < 40; ++i) {
      check_one(below);
      check_one(above);
      check_one(-below);
      below = std::nextafter(below, 0.0);
      above = std::nextafter(above, 1e300);
    }
    // Values whose 9- or 17-digit rounding carries into the next decade.
    check_one(9.9999999950000000 * p);
    check_one(9.9999999949999999 * p);
    check_one(9.99999999999999995 * p);
  }
  check_one(std::numeric_limits<double>::denorm_min());
  check_one(std::numeric_limits<double>::max());
  check_one(1e-13);
  check_one(9999999.995);
  check_one(9999999.994999999);
}
