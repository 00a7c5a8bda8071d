#include "common/json_fast_reader.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace common {
namespace {

using ojson = nlohmann::ordered_json;

// Objects collect their members here first (one scratch list per nesting level, kept between
// values), so the object's vector is allocated once at its final size and keys are moved into
// it; ordered_json's own vector would copy every key on each regrowth (its keys are const).
struct Level {
  std::vector<std::pair<std::string, ojson>> members;
  std::vector<std::uint32_t> slots;  // open addressing over members (0: empty, else 1 + index)
};

// From this many members on, duplicate keys are found by hashing instead of a scan.
constexpr std::size_t kHashFrom = 16;
// Scratch capacity (members) kept between documents, per nesting level.
constexpr std::size_t kKeptCapacity = 4096;

class Reader {
 public:
  Reader(std::string_view text, std::size_t max_depth, std::vector<Level>& levels)
      : p_(text.data()), end_(text.data() + text.size()), max_depth_(max_depth), levels_(levels) {}

  std::optional<ojson> document() {
    skip_ws();
    ojson v;
    if (!value(v, 0)) return std::nullopt;
    skip_ws();
    if (p_ != end_) return std::nullopt;
    return v;
  }

 private:
  void skip_ws() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  bool value(ojson& out, std::size_t depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return object(out, depth);
      case '[':
        return array(out, depth);
      case '"':
        // Decoded straight into the value's own string (no temporary to move and free).
        out = ojson(ojson::value_t::string);
        return string(out.get_ref<std::string&>());
      case 't':
        if (!literal("true")) return false;
        out = true;
        return true;
      case 'f':
        if (!literal("false")) return false;
        out = false;
        return true;
      case 'n':
        if (!literal("null")) return false;
        out = nullptr;
        return true;
      default:
        return number(out);
    }
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  // RFC 8259 number grammar; integers as nlohmann's lexer reads them (unsigned when positive,
  // signed when negative, a double when outside 64 bits), fractions correctly rounded. The
  // significant digits are gathered while the grammar is checked: integers of up to 19 digits
  // need nothing more, and so do decimals whose digits (at most 2^53 as an integer) and power of
  // ten (|e| <= 22) are exact doubles, where one correctly rounded multiplication or division is
  // the correctly rounded value (Clinger's fast path; receipts' 9-digit decimals take it).
  // std::from_chars reads the rest.
  bool number(ojson& out) {
    const char* start = p_;
    const char* q = p_;
    const bool negative = q != end_ && *q == '-';
    if (negative) ++q;
    if (q == end_) return false;
    std::uint64_t m = 0;
    int digits = 0;  // significant digits in m; above 19, m is not the value's digits
    long exp10 = 0;
    const auto take = [&](char ch) {
      if (m == 0 && ch == '0') return;  // a leading zero adds no significant digit
      if (++digits <= 19) m = m * 10 + static_cast<std::uint64_t>(ch - '0');
    };
    if (*q == '0') {
      ++q;
    } else if (*q >= '1' && *q <= '9') {
      for (; q != end_ && digit(*q); ++q) take(*q);
    } else {
      return false;
    }
    bool integer = true;
    if (q != end_ && *q == '.') {
      integer = false;
      ++q;
      if (q == end_ || !digit(*q)) return false;
      for (; q != end_ && digit(*q); ++q, --exp10) take(*q);
    }
    if (q != end_ && (*q == 'e' || *q == 'E')) {
      integer = false;
      ++q;
      const bool minus = q != end_ && *q == '-';
      if (q != end_ && (*q == '+' || *q == '-')) ++q;
      if (q == end_ || !digit(*q)) return false;
      long e = 0;
      for (; q != end_ && digit(*q); ++q) e = std::min(e * 10 + (*q - '0'), 100000L);
      exp10 += minus ? -e : e;
    }
    p_ = q;
    if (integer && digits <= 19) {
      if (!negative) {
        out = static_cast<ojson::number_unsigned_t>(m);
        return true;
      }
      if (m <= std::uint64_t{1} << 63) {
        out = static_cast<ojson::number_integer_t>(0 - m);  // modular: -2^63 included
        return true;
      }
      // Below -2^63: nlohmann's lexer reads it as a double; so do we, below.
    } else if (integer) {  // 20 digits or more: 64 bits may still hold it
      if (negative) {
        std::int64_t v = 0;
        const auto r = std::from_chars(start, q, v);
        if (r.ec == std::errc() && r.ptr == q) {
          out = static_cast<ojson::number_integer_t>(v);
          return true;
        }
      } else {
        std::uint64_t v = 0;
        const auto r = std::from_chars(start, q, v);
        if (r.ec == std::errc() && r.ptr == q) {
          out = static_cast<ojson::number_unsigned_t>(v);
          return true;
        }
      }
      // Outside 64 bits: nlohmann's lexer reads it as a double; so do we, below.
    }
    if (!integer && digits <= 19 && m <= (std::uint64_t{1} << 53) && exp10 >= -22 && exp10 <= 22) {
      static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
      const double d = exp10 < 0 ? static_cast<double>(m) / kPow10[-exp10] : static_cast<double>(m) * kPow10[exp10];
      out = negative ? -d : d;
      return true;
    }
    double d = 0;
    const auto r = std::from_chars(start, q, d);
    // Overflow (an error of the checked reader) and underflow (which it rounds the strtod way)
    // are both left to the checked reader.
    if (r.ec != std::errc() || r.ptr != q || !std::isfinite(d)) return false;
    out = d;
    return true;
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool hex4(std::uint32_t& cp) {
    if (end_ - p_ < 4) return false;
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hex(p_[i]);
      if (h < 0) return false;
      cp = (cp << 4) | static_cast<std::uint32_t>(h);
    }
    p_ += 4;
    return true;
  }

  static void append_utf8(std::string& s, std::uint32_t cp) {
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

  // One well-formed UTF-8 sequence of 2-4 bytes at p_ (Unicode table 3-7: no overlong forms,
  // no surrogates, nothing above U+10FFFF); advances past it.
  bool utf8_sequence() {
    const auto b = [&](std::ptrdiff_t i) { return static_cast<unsigned char>(p_[i]); };
    const auto cont = [&](std::ptrdiff_t i, unsigned lo, unsigned hi) {
      return p_ + i < end_ && b(i) >= lo && b(i) <= hi;
    };
    const unsigned c = b(0);
    if (c >= 0xC2 && c <= 0xDF) {
      if (!cont(1, 0x80, 0xBF)) return false;
      p_ += 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      const unsigned lo = c == 0xE0 ? 0xA0 : 0x80;
      const unsigned hi = c == 0xED ? 0x9F : 0xBF;
      if (!cont(1, lo, hi) || !cont(2, 0x80, 0xBF)) return false;
      p_ += 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      const unsigned lo = c == 0xF0 ? 0x90 : 0x80;
      const unsigned hi = c == 0xF4 ? 0x8F : 0xBF;
      if (!cont(1, lo, hi) || !cont(2, 0x80, 0xBF) || !cont(3, 0x80, 0xBF)) return false;
      p_ += 4;
    } else {
      return false;
    }
    return true;
  }

  // The bytes among the 8 of `w` that need a look (a quote, a backslash, a control byte < 0x20,
  // a byte of a multi-byte UTF-8 sequence >= 0x80), as high bits; the lowest set bit is exact.
  static std::uint64_t special_bits(std::uint64_t w) {
    constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    const auto zero_byte = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
    const std::uint64_t below_space = (w - ones * 0x20) & ~w & highs;
    return zero_byte(w ^ (ones * '"')) | zero_byte(w ^ (ones * '\\')) | below_space | (w & highs);
  }

  static bool plain(unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; }

  // A string token at p_ (the opening quote), decoded into `s`.
  bool string(std::string& s) {
    ++p_;
    const char* run = p_;  // start of the bytes not yet copied into s
    for (;;) {
      // Skip plain ASCII, eight bytes at a time, to the first byte that needs a look.
      for (;;) {
        if (end_ - p_ >= 8) {
          std::uint64_t w = 0;
          std::memcpy(&w, p_, sizeof w);
          if (const std::uint64_t bits = special_bits(w); bits != 0) {
            if constexpr (std::endian::native == std::endian::little) {
              p_ += std::countr_zero(bits) >> 3;
            } else {
              while (plain(static_cast<unsigned char>(*p_))) ++p_;
            }
            break;
          }
          p_ += 8;
        } else {
          while (p_ != end_ && plain(static_cast<unsigned char>(*p_))) ++p_;
          break;
        }
      }
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        s.append(run, p_);
        ++p_;
        return true;
      }
      if (c == '\\') {
        s.append(run, p_);
        if (!escape(s)) return false;
        run = p_;
        continue;
      }
      if (c < 0x20) return false;
      if (!utf8_sequence()) return false;
    }
  }

  // An escape at p_ (the backslash), appended decoded.
  bool escape(std::string& s) {
    ++p_;
    if (p_ == end_) return false;
    const char e = *p_++;
    switch (e) {
      case '"':
        s.push_back('"');
        return true;
      case '\\':
        s.push_back('\\');
        return true;
      case '/':
        s.push_back('/');
        return true;
      case 'b':
        s.push_back('\b');
        return true;
      case 'f':
        s.push_back('\f');
        return true;
      case 'n':
        s.push_back('\n');
        return true;
      case 'r':
        s.push_back('\r');
        return true;
      case 't':
        s.push_back('\t');
        return true;
      case 'u': {
        std::uint32_t cp = 0;
        if (!hex4(cp)) return false;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a low surrogate alone
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          std::uint32_t low = 0;
          if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
          p_ += 2;
          if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(s, cp);
        return true;
      }
      default:
        return false;
    }
  }

  bool array(ojson& out, std::size_t depth) {
    if (depth + 1 > max_depth_) return false;
    ++p_;
    out = ojson(ojson::value_t::array);  // not ojson::array(): that one walks an initializer list
    auto& items = out.get_ref<ojson::array_t&>();
    skip_ws();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return true;
    }
    for (;;) {
      items.emplace_back();
      if (!value(items.back(), depth + 1)) return false;
      skip_ws();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        skip_ws();
        continue;
      }
      if (*p_ != ']') return false;
      ++p_;
      return true;
    }
  }

  static std::size_t hash(std::string_view key) { return std::hash<std::string_view>{}(key); }

  void index_member(Level& level, std::size_t k) {
    const std::size_t mask = level.slots.size() - 1;
    std::size_t i = hash(level.members[k].first) & mask;
    while (level.slots[i] != 0) i = (i + 1) & mask;
    level.slots[i] = static_cast<std::uint32_t>(k + 1);
  }

  void rebuild(Level& level, std::size_t capacity) {
    while (capacity < 2 * level.members.size()) capacity *= 2;
    level.slots.assign(capacity, 0);
    for (std::size_t k = 0; k < level.members.size(); ++k) index_member(level, k);
  }

  // The member already holding `key` in this object, or nullptr.
  std::pair<std::string, ojson>* find_member(Level& level, std::string_view key) {
    const std::size_t n = level.members.size();
    if (n < kHashFrom) {
      for (auto& m : level.members) {
        if (m.first == key) return &m;
      }
      return nullptr;
    }
    if (level.slots.size() < 2 * n) rebuild(level, 4 * kHashFrom);
    const std::size_t mask = level.slots.size() - 1;
    for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      const std::uint32_t s = level.slots[i];
      if (s == 0) return nullptr;
      if (level.members[s - 1].first == key) return &level.members[s - 1];
    }
  }

  bool object(ojson& out, std::size_t depth) {
    if (depth + 1 > max_depth_) return false;
    ++p_;
    if (levels_.size() <= depth) levels_.resize(depth + 1);
    levels_[depth].members.clear();
    levels_[depth].slots.clear();
    skip_ws();
    bool closed = p_ != end_ && *p_ == '}';
    if (closed) ++p_;
    while (!closed) {
      if (p_ == end_ || *p_ != '"') return false;
      std::string key;
      if (!string(key)) return false;
      skip_ws();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_ws();
      // Duplicate keys: the last value wins at the first key's position, as JSON.parse does.
      // The value is read in place: nested values use deeper levels, so this member's address
      // holds while they are read (levels_ itself may grow: index it afresh each time).
      if (auto* existing = find_member(levels_[depth], key)) {
        ojson v;
        if (!value(v, depth + 1)) return false;
        existing->second = std::move(v);
      } else {
        Level& level = levels_[depth];
        level.members.emplace_back(std::move(key), nullptr);
        if (!level.slots.empty()) {
          if (2 * level.members.size() > level.slots.size()) {
            rebuild(level, 2 * level.slots.size());
          } else {
            index_member(level, level.members.size() - 1);
          }
        }
        if (!value(level.members.back().second, depth + 1)) return false;
      }
      skip_ws();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        skip_ws();
        continue;
      }
      if (*p_ != '}') return false;
      ++p_;
      closed = true;
    }
    out = ojson(ojson::value_t::object);
    auto& entries = static_cast<ojson::object_t::Container&>(out.get_ref<ojson::object_t&>());
    auto& members = levels_[depth].members;
    entries.reserve(members.size());
    for (auto& m : members) entries.emplace_back(std::move(m.first), std::move(m.second));
    members.clear();
    // Keep the capacity of ordinary objects for the next record, not that of a huge one.
    if (members.capacity() > kKeptCapacity) {
      members = {};
      levels_[depth].slots = {};
    }
    return true;
  }

  const char* p_;
  const char* end_;
  std::size_t max_depth_;
  std::vector<Level>& levels_;
};

}  // namespace

std::optional<ojson> fast_read_json(std::string_view text, std::size_t max_depth) {
  // The scratch lists outlive one call, so a stream of records reuses their capacity.
  thread_local std::vector<Level> levels;
  return Reader(text, max_depth, levels).document();
}

}  // namespace common
