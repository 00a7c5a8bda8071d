#include "common/json_string.hpp"

#include <cstdint>
#include <cstring>

#include "common/json_lexer.hpp"

namespace common {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Length of the well-formed UTF-8 sequence starting at s[i], or 0 when the bytes
// there are ill-formed; `bad_len` then receives the maximal subpart length (>= 1).
std::size_t utf8_sequence(std::string_view s, std::size_t i, std::size_t& bad_len) {
  const auto b0 = static_cast<std::uint8_t>(s[i]);
  std::size_t need = 0;
  std::uint8_t lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    bad_len = 1;
    return 0;
  }
  for (std::size_t k = 1; k <= need; ++k) {
    if (i + k >= s.size()) {
      bad_len = k;
      return 0;
    }
    const auto b = static_cast<std::uint8_t>(s[i + k]);
    const std::uint8_t l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
    if (b < l || b > h) {
      bad_len = k;
      return 0;
    }
  }
  return need + 1;
}

// How many bytes from s[i] on are plain (json_lexer's test, eight bytes at a time): a receipt's
// keys and strings (ids, names) are plain from end to end.
std::size_t plain_run(std::string_view s, std::size_t i) {
  json_lexer::Cursor c{s.data() + i, s.data() + s.size()};
  json_lexer::skip_plain(c);
  return static_cast<std::size_t>(c.p - s.data());
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t i = plain_run(s, 0);
  if (i == s.size()) {  // nearly every key and string of a receipt: one growth, one copy
    const std::size_t at = out.size();
    out.append(s.size() + 2, '"');
    std::memcpy(out.data() + at + 1, s.data(), s.size());
    return;
  }
  out.push_back('"');
  out.append(s.data(), i);
  while (i < s.size()) {
    // Runs of printable ASCII (ids, names: nearly every byte) are copied in one go.
    const std::size_t run = plain_run(s, i);
    if (run > i) {
      out.append(s.data() + i, run - i);
      i = run;
      if (i == s.size()) break;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
          if (c < 0x20) {
            out.append("\\u00");
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 0xF]);
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    std::size_t bad = 0;
    const std::size_t len = utf8_sequence(s, i, bad);
    if (len == 0) {
      out.append(kReplacement);
      i += bad;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  out.push_back('"');
}

std::string json_string(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  append_json_string(out, s);
  return out;
}

}  // namespace common
