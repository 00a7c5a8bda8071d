#pragma once
// The lexical pieces both one-pass JSON readers share (json_fast_reader.cpp builds an
// ordered_json tree, json_document_reader.cpp a JsonDocument): RFC 8259 numbers read as
// nlohmann's lexer reads them, UTF-8 checked as Unicode's table 3-7 says, escapes decoded. Each
// answers false where the checked reader (json_input.cpp) must decide; none says why.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace common::json_lexer {

// The text still to read.
struct Cursor {
  const char* p;
  const char* end;
};

enum class NumberKind { unsigned_integer, integer, floating };
struct Number {
  NumberKind kind = NumberKind::floating;
  std::uint64_t u = 0;
  std::int64_t i = 0;
  double d = 0;
};

inline bool digit(char c) { return c >= '0' && c <= '9'; }

// Eight bytes at once (`w` read little-endian: the first byte lowest), for the long digit runs of
// a receipt's decimals. A byte is a digit when its high nibble is 3 both as it is and with 6 added
// (0x3A..0x3F become 0x40..0x45); a carry out of a byte >= 0xFA fails that byte itself first.
inline bool eight_digits(std::uint64_t w) {
  constexpr std::uint64_t highs = 0xF0F0F0F0F0F0F0F0ULL;
  return ((w & highs) | (((w + 0x0606060606060606ULL) & highs) >> 4)) == 0x3333333333333333ULL;
}

// The value of eight digits: adjacent pairs first (each even byte becomes 10 x its digit + the
// next one), then the four pairs weighted 10^6, 10^4, 10^2 and 1 by two multiplications whose
// bits 32..63 hold the sums.
inline std::uint64_t eight_digit_value(std::uint64_t w) {
  w -= 0x3030303030303030ULL;
  w = w * 10 + (w >> 8);
  constexpr std::uint64_t pairs = 0x000000FF000000FFULL;
  constexpr std::uint64_t high_pairs = 100 + (std::uint64_t{1000000} << 32);  // pairs 0 and 2
  constexpr std::uint64_t low_pairs = 1 + (std::uint64_t{10000} << 32);      // pairs 1 and 3
  return (((w & pairs) * high_pairs) + (((w >> 16) & pairs) * low_pairs)) >> 32;
}

// A number at c.p: integers as nlohmann's lexer reads them (unsigned when positive, signed when
// negative, a double when outside 64 bits), fractions correctly rounded. The significant digits
// are gathered while the grammar is checked: integers of up to 19 digits need nothing more, and
// so do decimals whose digits (at most 2^53) and power of ten (|e| <= 22) are exact doubles, where
// one correctly rounded multiplication or division is the correctly rounded value (Clinger's fast
// path; receipts' 9-digit decimals take it). std::from_chars reads the rest. Overflow is always
// false; an underflowing number is read the strtod way (nlohmann's) when `read_underflow`.
inline bool number(Cursor& c, Number& out, bool read_underflow) {
  const char* start = c.p;
  const char* q = c.p;
  const char* end = c.end;
  const bool negative = q != end && *q == '-';
  if (negative) ++q;
  if (q == end) return false;
  std::uint64_t m = 0;
  int digits = 0;  // significant digits in m; above 19, m is not the value's digits
  long exp10 = 0;
  const auto take = [&](char ch) {
    if (m == 0 && ch == '0') return;  // a leading zero adds no significant digit
    if (++digits <= 19) m = m * 10 + static_cast<std::uint64_t>(ch - '0');
  };
  // Eight digits at q taken at once when they are eight digits and keep m within 19 digits
  // (the same m and count as eight take()s); false: nothing taken.
  const auto take_eight = [&]() {
    if (end - q < 8) return false;
    std::uint64_t w = 0;
    std::memcpy(&w, q, 8);
    if constexpr (std::endian::native != std::endian::little) w = __builtin_bswap64(w);
    if (!eight_digits(w)) return false;
    const std::uint64_t zeros = w - 0x3030303030303030ULL;  // a zero byte per '0'
    const int significant = m != 0 ? 8 : (zeros == 0 ? 0 : 8 - std::countr_zero(zeros) / 8);
    if (digits + significant > 19) return false;
    m = m * 100000000ULL + eight_digit_value(w);
    digits += significant;
    q += 8;
    return true;
  };
  if (*q == '0') {
    ++q;
  } else if (*q >= '1' && *q <= '9') {
    while (take_eight()) {
      // eight digits at a time while they last, then one at a time
    }
    for (; q != end && digit(*q); ++q) take(*q);
  } else {
    return false;
  }
  bool integer = true;
  if (q != end && *q == '.') {
    integer = false;
    ++q;
    if (q == end || !digit(*q)) return false;
    while (take_eight()) exp10 -= 8;
    for (; q != end && digit(*q); ++q, --exp10) take(*q);
  }
  if (q != end && (*q == 'e' || *q == 'E')) {
    integer = false;
    ++q;
    const bool minus = q != end && *q == '-';
    if (q != end && (*q == '+' || *q == '-')) ++q;
    if (q == end || !digit(*q)) return false;
    long e = 0;
    for (; q != end && digit(*q); ++q) e = std::min(e * 10 + (*q - '0'), 100000L);
    exp10 += minus ? -e : e;
  }
  c.p = q;
  if (integer && digits <= 19) {
    if (!negative) {
      out.kind = NumberKind::unsigned_integer;
      out.u = m;
      return true;
    }
    if (m <= std::uint64_t{1} << 63) {
      out.kind = NumberKind::integer;
      out.i = static_cast<std::int64_t>(0 - m);  // modular: -2^63 included
      return true;
    }
    // Below -2^63: nlohmann's lexer reads it as a double; so do we, below.
  } else if (integer) {  // 20 digits or more: 64 bits may still hold it
    if (negative) {
      std::int64_t v = 0;
      const auto r = std::from_chars(start, q, v);
      if (r.ec == std::errc() && r.ptr == q) {
        out.kind = NumberKind::integer;
        out.i = v;
        return true;
      }
    } else {
      std::uint64_t v = 0;
      const auto r = std::from_chars(start, q, v);
      if (r.ec == std::errc() && r.ptr == q) {
        out.kind = NumberKind::unsigned_integer;
        out.u = v;
        return true;
      }
    }
    // Outside 64 bits: nlohmann's lexer reads it as a double; so do we, below.
  }
  out.kind = NumberKind::floating;
  if (!integer && digits <= 19 && m <= (std::uint64_t{1} << 53) && exp10 >= -22 && exp10 <= 22) {
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const double d = exp10 < 0 ? static_cast<double>(m) / kPow10[-exp10] : static_cast<double>(m) * kPow10[exp10];
    out.d = negative ? -d : d;
    return true;
  }
  double d = 0;
  const auto r = std::from_chars(start, q, d);
  if (read_underflow && r.ec == std::errc::result_out_of_range && r.ptr == q) {
    d = std::strtod(std::string(start, q).c_str(), nullptr);  // 0 or a subnormal; overflow: inf
  } else if (r.ec != std::errc() || r.ptr != q) {
    return false;
  }
  if (!std::isfinite(d)) return false;
  out.d = d;
  return true;
}

inline int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

inline bool hex4(Cursor& c, std::uint32_t& cp) {
  if (c.end - c.p < 4) return false;
  cp = 0;
  for (int i = 0; i < 4; ++i) {
    const int h = hex(c.p[i]);
    if (h < 0) return false;
    cp = (cp << 4) | static_cast<std::uint32_t>(h);
  }
  c.p += 4;
  return true;
}

inline void append_utf8(std::string& s, std::uint32_t cp) {
  if (cp < 0x80) {
    s.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    s.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    s.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    s.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// One well-formed UTF-8 sequence of 2-4 bytes at c.p (Unicode table 3-7: no overlong forms,
// no surrogates, nothing above U+10FFFF); advances past it.
inline bool utf8_sequence(Cursor& c) {
  const char* p = c.p;
  const auto b = [&](std::ptrdiff_t i) { return static_cast<unsigned char>(p[i]); };
  const auto cont = [&](std::ptrdiff_t i, unsigned lo, unsigned hi) {
    return p + i < c.end && b(i) >= lo && b(i) <= hi;
  };
  const unsigned first = b(0);
  if (first >= 0xC2 && first <= 0xDF) {
    if (!cont(1, 0x80, 0xBF)) return false;
    c.p += 2;
  } else if (first >= 0xE0 && first <= 0xEF) {
    const unsigned lo = first == 0xE0 ? 0xA0 : 0x80;
    const unsigned hi = first == 0xED ? 0x9F : 0xBF;
    if (!cont(1, lo, hi) || !cont(2, 0x80, 0xBF)) return false;
    c.p += 3;
  } else if (first >= 0xF0 && first <= 0xF4) {
    const unsigned lo = first == 0xF0 ? 0x90 : 0x80;
    const unsigned hi = first == 0xF4 ? 0x8F : 0xBF;
    if (!cont(1, lo, hi) || !cont(2, 0x80, 0xBF) || !cont(3, 0x80, 0xBF)) return false;
    c.p += 4;
  } else {
    return false;
  }
  return true;
}

// The bytes among the 8 of `w` that need a look (a quote, a backslash, a control byte < 0x20,
// a byte of a multi-byte UTF-8 sequence >= 0x80), as high bits; the lowest set bit is exact.
inline std::uint64_t special_bits(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  const auto zero_byte = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
  const std::uint64_t below_space = (w - ones * 0x20) & ~w & highs;
  return zero_byte(w ^ (ones * '"')) | zero_byte(w ^ (ones * '\\')) | below_space | (w & highs);
}

inline bool plain(unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; }

// Plain ASCII inside a string skipped, sixteen bytes at a time where SSE2 is (every x86-64) and
// eight elsewhere, to the first byte that needs a look.
inline void skip_plain(Cursor& c) {
#if defined(__SSE2__)
  // One signed compare flags both the control bytes (< 0x20) and the bytes >= 0x80 (negative).
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  while (c.end - c.p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c.p));
    const __m128i special =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), _mm_cmplt_epi8(v, space));
    if (const auto mask = static_cast<unsigned>(_mm_movemask_epi8(special)); mask != 0) {
      c.p += std::countr_zero(mask);
      return;
    }
    c.p += 16;
  }
#endif
  for (;;) {
    if (c.end - c.p >= 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, c.p, sizeof w);
      if (const std::uint64_t bits = special_bits(w); bits != 0) {
        if constexpr (std::endian::native == std::endian::little) {
          c.p += std::countr_zero(bits) >> 3;
        } else {
          while (plain(static_cast<unsigned char>(*c.p))) ++c.p;
        }
        return;
      }
      c.p += 8;
    } else {
      while (c.p != c.end && plain(static_cast<unsigned char>(*c.p))) ++c.p;
      return;
    }
  }
}

// An escape at c.p (the backslash), appended to `s` decoded.
inline bool escape(Cursor& c, std::string& s) {
  ++c.p;
  if (c.p == c.end) return false;
  const char e = *c.p++;
  switch (e) {
    case '"': s.push_back('"'); return true;
    case '\\': s.push_back('\\'); return true;
    case '/': s.push_back('/'); return true;
    case 'b': s.push_back('\b'); return true;
    case 'f': s.push_back('\f'); return true;
    case 'n': s.push_back('\n'); return true;
    case 'r': s.push_back('\r'); return true;
    case 't': s.push_back('\t'); return true;
    case 'u': {
      std::uint32_t cp = 0;
      if (!hex4(c, cp)) return false;
      if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a low surrogate alone
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        std::uint32_t low = 0;
        if (c.end - c.p < 2 || c.p[0] != '\\' || c.p[1] != 'u') return false;
        c.p += 2;
        if (!hex4(c, low) || low < 0xDC00 || low > 0xDFFF) return false;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      append_utf8(s, cp);
      return true;
    }
    default: return false;
  }
}

}  // namespace common::json_lexer
