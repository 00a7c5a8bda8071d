#include "common/number_format.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace common {
namespace {

constexpr std::string_view kZero = "0.000000000";
constexpr std::string_view kNonPlain = "NON_PLAIN_DECIMAL_INPUT";
constexpr std::string_view kOutOfScope = "PLAIN_DECIMAL_OUT_OF_SCOPE";

// A decimal number as sign, significant digits (first one non-zero) and the
// decimal exponent of the first digit.
struct Decimal {
  bool negative = false;
  std::string digits;
  int exponent = 0;
};

// Splits to_chars scientific output "d.ddd...e[+-]xx" into digits and exponent.
Decimal split_scientific(std::string_view s) {
  Decimal d;
  std::size_t i = 0;
  if (s[i] == '-') {
    d.negative = true;
    ++i;
  }
  for (; i < s.size() && s[i] != 'e'; ++i) {
    if (s[i] != '.') d.digits.push_back(s[i]);
  }
  ++i;  // 'e'
  const bool neg_exp = s[i] == '-';
  ++i;
  int e = 0;
  for (; i < s.size(); ++i) e = e * 10 + (s[i] - '0');
  d.exponent = neg_exp ? -e : e;
  return d;
}

Decimal scientific(double v, int precision) {
  std::array<char, 1024> buf{};
  auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::scientific, precision);
  return split_scientific(std::string_view(buf.data(), static_cast<std::size_t>(r.ptr - buf.data())));
}

// Adds one unit in the last place; returns true when it carried out of the first digit.
bool increment(std::string& digits) {
  for (std::size_t i = digits.size(); i-- > 0;) {
    if (digits[i] != '9') {
      ++digits[i];
      return false;
    }
    digits[i] = '0';
  }
  digits.insert(digits.begin(), '1');
  digits.pop_back();
  return true;
}

// 17 significant digits with ECMA-262 tie-breaking (ties go to the larger
// magnitude). to_chars rounds ties to even, so a tie is detected from a longer,
// and if needed the exact, expansion and fixed up here.
Decimal digits17(double v) {
  Decimal d = scientific(v, 16);
  const Decimal wide = scientific(v, 30);
  // Only an exact tie at the 18th digit can differ between the two rules.
  auto looks_like_tie = [](const Decimal& w) {
    if (w.digits.size() < 18 || w.digits[17] != '5') return false;
    for (std::size_t i = 18; i < w.digits.size(); ++i)
      if (w.digits[i] != '0') return false;
    return true;
  };
  if (!looks_like_tie(wide)) return d;
  // A double's exact decimal expansion has at most 767 significant digits.
  const Decimal exact = scientific(v, 800);
  if (!looks_like_tie(exact)) return d;
  Decimal up = exact;
  up.digits.resize(17);
  if (increment(up.digits)) ++up.exponent;
  return up;
}

Error out_of_scope(std::string_view shown, std::string_view why) {
  return Error::malformed(std::string(kOutOfScope) + ": " + std::string(shown) + " " + std::string(why) +
                          "; receipt numbers are plain decimals in [1e-13, 1e7)");
}

// Rounds `d` to 9 significant digits (half to even) and spells it as a plain decimal.
Result<std::string> render(Decimal d, std::string_view shown) {
  if (d.exponent < kPlainDecimalMinExponent) return out_of_scope(shown, "is below the smallest magnitude");
  if (d.exponent >= kPlainDecimalMaxExponentExclusive)
    return out_of_scope(shown, "is at or above the largest magnitude");
  constexpr std::size_t n = kReceiptSignificantDigits;
  std::string digits = d.digits;
  if (digits.size() < n) digits.append(n - digits.size(), '0');
  bool round_up = false;
  if (digits.size() > n) {
    const char guard = digits[n];
    if (guard > '5') {
      round_up = true;
    } else if (guard == '5') {
      round_up = digits.find_first_not_of('0', n + 1) != std::string::npos || ((digits[n - 1] - '0') % 2 == 1);
    }
    digits.resize(n);
  }
  int exponent = d.exponent;
  if (round_up && increment(digits)) ++exponent;
  if (exponent >= kPlainDecimalMaxExponentExclusive) return out_of_scope(shown, "reaches 1e7 after rounding");

  std::string out;
  out.reserve(32);
  if (d.negative) out.push_back('-');
  if (exponent >= 0) {
    const auto int_len = static_cast<std::size_t>(exponent) + 1;
    out.append(digits, 0, int_len);
    out.push_back('.');
    out.append(digits, int_len, std::string::npos);
  } else {
    out.append("0.");
    out.append(static_cast<std::size_t>(-exponent - 1), '0');
    out.append(digits);
  }
  return out;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// ^-?(0|[1-9][0-9]*)(\.[0-9]+)?$
bool is_plain_decimal(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  if (i >= s.size() || !is_digit(s[i])) return false;
  if (s[i] == '0') {
    ++i;
  } else {
    while (i < s.size() && is_digit(s[i])) ++i;
  }
  if (i == s.size()) return true;
  if (s[i] != '.') return false;
  ++i;
  if (i == s.size()) return false;
  while (i < s.size() && is_digit(s[i])) ++i;
  return i == s.size();
}

std::string quoted(std::string_view s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q.push_back('\\');
    q.push_back(c);
  }
  q.push_back('"');
  return q;
}

}  // namespace

std::string to_precision_17(double v) {
  if (v == 0) return "0.0000000000000000";
  const Decimal d = digits17(v);
  std::string out = d.negative ? "-" : "";
  if (d.exponent < -6 || d.exponent >= 17) {
    out.push_back(d.digits[0]);
    out.push_back('.');
    out.append(d.digits, 1, std::string::npos);
    out.append(d.exponent < 0 ? "e-" : "e+");
    out.append(std::to_string(d.exponent < 0 ? -d.exponent : d.exponent));
  } else if (d.exponent >= 0) {
    out.append(d.digits, 0, static_cast<std::size_t>(d.exponent) + 1);
    if (d.exponent < 16) {
      out.push_back('.');
      out.append(d.digits, static_cast<std::size_t>(d.exponent) + 1, std::string::npos);
    }
  } else {
    out.append("0.");
    out.append(static_cast<std::size_t>(-d.exponent - 1), '0');
    out.append(d.digits);
  }
  return out;
}

namespace {

Error not_finite(double v) {
  return Error::malformed(std::string("number is not finite (") + (std::isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity") +
                          "); receipts carry finite numbers only");
}

__extension__ typedef unsigned __int128 u128;  // a GCC and Clang extension, named as one

constexpr std::array<u128, 31> powers_of_5() {
  std::array<u128, 31> p{};
  p[0] = 1;
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 5;
  return p;
}
constexpr std::array<u128, 31> kPow5 = powers_of_5();
constexpr std::uint64_t kTen16 = 10'000'000'000'000'000ULL;
constexpr std::uint64_t kTen17 = 100'000'000'000'000'000ULL;

// v's 17 significant digits, rounded half away from zero from the exact binary value, as the
// integer q in [1e16, 1e17) with v ~ q * 10^(exponent - 16). Exact integer arithmetic: for a
// normal v = m * 2^-k, q = m * 5^s * 2^(s-k) with s = 16 - exponent; in the plain-decimal range
// s <= 30 and k > s, so m * 5^s fits in 128 bits and the rest is a right shift whose dropped bits
// decide the rounding. False when v is outside the range this covers (the slow path decides).
bool digits17_exact(double a, std::uint64_t& q, int& exponent) {
  const auto bits = std::bit_cast<std::uint64_t>(a);
  const int biased = static_cast<int>(bits >> 52);
  if (biased == 0) return false;  // subnormal: far below the plain range
  const std::uint64_t m = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  const int k = 1075 - biased;  // a = m * 2^-k
  // floor(log10(2^x)) for a in [2^x, 2^(x+1)): the true exponent is this or one more.
  int e = ((biased - 1023) * 78913) >> 18;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int s = 16 - e;
    if (s < 0 || s >= static_cast<int>(kPow5.size()) || k <= s || k - s >= 128) return false;
    const u128 scaled = static_cast<u128>(m) * kPow5[static_cast<std::size_t>(s)];
    const int shift = k - s;
    const u128 truncated = scaled >> shift;
    // The digit count is decided before rounding: log10 may be off by one near powers of ten.
    if (truncated >= kTen17) {
      ++e;
      continue;
    }
    if (truncated < kTen16) {
      --e;
      continue;
    }
    u128 value = truncated;
    const u128 dropped = scaled - (truncated << shift);
    if (dropped >= (static_cast<u128>(1) << (shift - 1))) ++value;  // ties away from zero
    if (value == kTen17) {
      q = kTen16;
      exponent = e + 1;
      return true;
    }
    q = static_cast<std::uint64_t>(value);
    exponent = e;
    return true;
  }
  return false;
}

// The eight decimal digits of x < 10^8 as text, in memory order: four digits in each 32-bit half,
// then two in each 16-bit quarter, then one in each byte, each split by a multiply and a shift
// that divide exactly in that range (x * 10486 >> 20 is x / 100 below 43,699; x * 103 >> 10 is
// x / 10 below 179). A digit at a time (nine dependent divisions) cost 40% of write_fast.
std::uint64_t eight_digit_text(std::uint32_t x) {
  const std::uint64_t halves = (x / 10000) | (std::uint64_t{x % 10000} << 32);
  const std::uint64_t hundreds = ((halves * 10486) >> 20) & 0x0000007F0000007FULL;
  const std::uint64_t pairs = hundreds | ((halves - hundreds * 100) << 16);
  const std::uint64_t tens = ((pairs * 103) >> 10) & 0x000F000F000F000FULL;
  std::uint64_t text = (tens | ((pairs - tens * 10) << 8)) + 0x3030303030303030ULL;
  if constexpr (std::endian::native == std::endian::big) text = __builtin_bswap64(text);
  return text;
}

// The common case without allocation: exact 17 digits, rounded to 9 half-to-even and written to
// `buf`; the count written. 0 (nothing written) when the slow path must decide: a value outside the
// plain-decimal range, whose error message needs the exact spelling.
std::size_t write_fast(char* buf, double v) {
  std::uint64_t q17 = 0;
  int exponent = 0;
  if (!digits17_exact(std::fabs(v), q17, exponent)) return 0;
  if (exponent < kPlainDecimalMinExponent || exponent >= kPlainDecimalMaxExponentExclusive) return 0;
  constexpr std::uint64_t kTen8 = 100'000'000;
  std::uint64_t q9 = q17 / kTen8;
  const std::uint64_t rest = q17 % kTen8;
  if (rest > kTen8 / 2 || (rest == kTen8 / 2 && q9 % 2 == 1)) ++q9;
  if (q9 == 1'000'000'000) {
    q9 = 100'000'000;
    ++exponent;
    if (exponent >= kPlainDecimalMaxExponentExclusive) return 0;
  }
  constexpr std::size_t n = kReceiptSignificantDigits;
  static_assert(n == 9, "the digits are written as one and eight");
  std::array<char, n> digits{};
  digits[0] = static_cast<char>('0' + q9 / kTen8);
  const std::uint64_t last8 = eight_digit_text(static_cast<std::uint32_t>(q9 % kTen8));
  std::memcpy(digits.data() + 1, &last8, sizeof last8);
  char* p = buf;
  if (v < 0) *p++ = '-';
  if (exponent >= 0) {
    const auto int_len = static_cast<std::size_t>(exponent) + 1;
    std::memcpy(p, digits.data(), int_len);
    p += int_len;
    *p++ = '.';
    std::memcpy(p, digits.data() + int_len, n - int_len);
    p += n - int_len;
  } else {
    *p++ = '0';
    *p++ = '.';
    const auto zeros = static_cast<std::size_t>(-exponent - 1);
    std::memset(p, '0', zeros);
    p += zeros;
    std::memcpy(p, digits.data(), n);
    p += n;
  }
  return static_cast<std::size_t>(p - buf);
}

}  // namespace

Status append_receipt_number(std::string& out, double v) {
  if (!std::isfinite(v)) return not_finite(v);
  if (v == 0) {
    out.append(kZero);
    return {};
  }
  char buf[kReceiptNumberMaxChars];
  if (const std::size_t n = write_fast(buf, v)) {
    out.append(buf, n);
    return {};
  }
  auto slow = render(digits17(v), to_precision_17(v));
  if (!slow) return slow.error();
  out.append(*slow);
  return {};
}

std::size_t write_receipt_number_fast(char* buf, double v) {
  if (!std::isfinite(v)) return 0;
  if (v == 0) {
    std::memcpy(buf, kZero.data(), kZero.size());
    return kZero.size();
  }
  return write_fast(buf, v);
}

Result<std::string> format_receipt_number(double v) {
  std::string out;
  if (auto s = append_receipt_number(out, v); !s) return s.error();
  return out;
}

Result<std::string> format_policy_decimal(std::string_view decimal) {
  if (!is_plain_decimal(decimal)) {
    return Error::malformed(std::string(kNonPlain) + ": " + quoted(decimal) +
                            " is not a plain decimal (expected -?(0|[1-9][0-9]*)(.[0-9]+)?)");
  }
  Decimal d;
  std::string_view s = decimal;
  if (s.front() == '-') {
    d.negative = true;
    s.remove_prefix(1);
  }
  const std::size_t dot = s.find('.');
  const std::string_view int_part = s.substr(0, dot);
  const std::string_view frac_part = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  if (int_part != "0") {
    d.exponent = static_cast<int>(int_part.size()) - 1;
    d.digits.assign(int_part);
    d.digits.append(frac_part);
  } else {
    const std::size_t first = frac_part.find_first_not_of('0');
    if (first == std::string_view::npos) return std::string(kZero);
    d.exponent = -static_cast<int>(first + 1);
    d.digits.assign(frac_part.substr(first));
  }
  return render(std::move(d), quoted(decimal));
}

Result<std::string> format_receipt_integer(double v) {
  if (!std::isfinite(v) || std::trunc(v) != v) {
    return Error::malformed("expected an integer, got a number with a fraction or a non-finite value");
  }
  if (v == 0) return std::string("0");
  // JavaScript prints the shortest round-trip digits, zero padded below 1e21.
  std::array<char, 64> buf{};
  auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::scientific);
  const Decimal d = split_scientific(std::string_view(buf.data(), static_cast<std::size_t>(r.ptr - buf.data())));
  std::string out = d.negative ? "-" : "";
  if (d.exponent >= 21) {
    out.push_back(d.digits[0]);
    if (d.digits.size() > 1) {
      out.push_back('.');
      out.append(d.digits, 1, std::string::npos);
    }
    out.append("e+" + std::to_string(d.exponent));
    return out;
  }
  out.append(d.digits);
  if (static_cast<int>(d.digits.size()) < d.exponent + 1) {
    out.append(static_cast<std::size_t>(d.exponent + 1) - d.digits.size(), '0');
  }
  return out;
}

PolicyErrorKind policy_error_kind(const Error& e) {
  const std::string& m = e.message();
  if (m.starts_with(kNonPlain)) return PolicyErrorKind::non_plain_decimal_input;
  if (m.starts_with(kOutOfScope)) return PolicyErrorKind::plain_decimal_out_of_scope;
  return PolicyErrorKind::none;
}

}  // namespace common
