#include "common/canonical_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/json_lexer.hpp"
#include "common/json_string.hpp"
#include "common/number_format.hpp"

namespace common {

namespace {

// Whether append_json_string would add only quotes to `k` (json_lexer's plain bytes), eight bytes
// a load, the last load overlapping the one before; under eight, two loads of four.
bool plain_text(std::string_view k) {
  const char* p = k.data();
  const std::size_t n = k.size();
  std::uint64_t w = 0;
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 <= n; i += 8) {
      std::memcpy(&w, p + i, 8);
      if (json_lexer::special_bits(w) != 0) return false;
    }
    std::memcpy(&w, p + n - 8, 8);
    return json_lexer::special_bits(w) == 0;
  }
  if (n >= 4) {
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    return json_lexer::special_bits(a | (std::uint64_t{b} << 32)) == 0;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!json_lexer::plain(static_cast<unsigned char>(p[i]))) return false;
  }
  return true;
}

// memcpy of a key-sized run without a call: two overlapping loads and stores from 4 to 16 bytes,
// bytes one by one under 4.
void copy_short(char* d, const char* s, std::size_t n) {
  if (n >= 8 && n <= 16) {
    std::uint64_t a = 0, b = 0;
    std::memcpy(&a, s, 8);
    std::memcpy(&b, s + n - 8, 8);
    std::memcpy(d, &a, 8);
    std::memcpy(d + n - 8, &b, 8);
  } else if (n >= 4 && n < 8) {
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, s, 4);
    std::memcpy(&b, s + n - 4, 4);
    std::memcpy(d, &a, 4);
    std::memcpy(d + n - 4, &b, 4);
  } else if (n < 4) {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
  } else {
    std::memcpy(d, s, n);
  }
}

}  // namespace

void CompactJsonWriter::grow(std::size_t bytes) {
  // Doubling, and never less than the token at hand; only the text is copied, not the room.
  std::string next(std::max({out_.size() * 2, len_ + bytes, std::size_t{256}}), '\0');
  std::memcpy(next.data(), out_.data(), len_);
  out_.swap(next);
}

std::size_t CompactJsonWriter::separator(char* at) {
  if (after_key_) {
    after_key_ = false;
    return 0;
  }
  const bool comma = depth_ > 0 && need_comma_;
  need_comma_ = true;
  *at = ',';  // room either way: counted only when it is wanted
  return comma ? 1 : 0;
}

void CompactJsonWriter::append(std::string_view bytes) {
  char* d = room(bytes.size() + 1);
  d += separator(d);
  std::memcpy(d, bytes.data(), bytes.size());
  len_ = static_cast<std::size_t>(d + bytes.size() - out_.data());
}

void CompactJsonWriter::quoted_plain(std::string_view s, bool as_key) {
  const std::size_t n = s.size();
  char* d = room(n + 4);
  d += separator(d);
  d[0] = '"';
  copy_short(d + 1, s.data(), n);
  d[n + 1] = '"';
  d += n + 2;
  if (as_key) *d++ = ':';
  len_ = static_cast<std::size_t>(d - out_.data());
}

void CompactJsonWriter::begin_object() {
  char* d = room(2);
  d += separator(d);
  *d = '{';
  len_ = static_cast<std::size_t>(d + 1 - out_.data());
  ++depth_;
  need_comma_ = false;
}

void CompactJsonWriter::end_object() {
  *room(1) = '}';
  ++len_;
  --depth_;
  need_comma_ = true;
}

void CompactJsonWriter::begin_array() {
  char* d = room(2);
  d += separator(d);
  *d = '[';
  len_ = static_cast<std::size_t>(d + 1 - out_.data());
  ++depth_;
  need_comma_ = false;
}

void CompactJsonWriter::end_array() {
  *room(1) = ']';
  ++len_;
  --depth_;
  need_comma_ = true;
}

void CompactJsonWriter::key(std::string_view k) {
  // Nearly every key is plain: written with its quotes and colon in place.
  if (plain_text(k)) {
    quoted_plain(k, true);
  } else {
    std::string quoted;
    append_json_string(quoted, k);
    quoted.push_back(':');
    append(quoted);
  }
  after_key_ = true;
}

Status CompactJsonWriter::number(double v) {
  // On error nothing changes: neither the text nor the comma state.
  const bool after_key = after_key_;
  const bool need_comma = need_comma_;
  char* d = room(kReceiptNumberMaxChars + 1);
  const std::size_t comma = separator(d);
  if (const std::size_t n = write_receipt_number_fast(d + comma, v)) {
    len_ += comma + n;
    return {};
  }
  after_key_ = after_key;
  need_comma_ = need_comma;
  auto slow = format_receipt_number(v);
  if (!slow) return slow.error();
  append(*slow);
  return {};
}

Status CompactJsonWriter::integer(double v) {
  auto s = format_receipt_integer(v);
  if (!s) return s.error();
  append(*s);
  return {};
}

void CompactJsonWriter::string(std::string_view s) {
  if (plain_text(s)) {
    quoted_plain(s, false);
    return;
  }
  std::string quoted;
  append_json_string(quoted, s);
  append(quoted);
}

void CompactJsonWriter::boolean(bool b) { append(b ? "true" : "false"); }

void CompactJsonWriter::null() { append("null"); }

void CompactJsonWriter::raw_value(std::string_view json) { append(json); }

}  // namespace common
