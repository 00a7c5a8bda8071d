#include "common/canonical_json.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/json_lexer.hpp"
#include "common/json_string.hpp"
#include "common/number_format.hpp"

namespace common {

namespace {

constexpr std::size_t kShortKey = 48;  // longer keys take append_json_string's way

// Whether append_json_string would add only quotes to `k` (json_lexer's plain bytes), eight bytes
// a load, the last load overlapping the one before; under eight, two loads of four.
bool plain_key(std::string_view k) {
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

}  // namespace

void CompactJsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (depth_ > 0 && need_comma_) out_.push_back(',');
  need_comma_ = true;
}

void CompactJsonWriter::begin_object() {
  before_value();
  out_.push_back('{');
  ++depth_;
  need_comma_ = false;
}

void CompactJsonWriter::end_object() {
  out_.push_back('}');
  --depth_;
  need_comma_ = true;
}

void CompactJsonWriter::begin_array() {
  before_value();
  out_.push_back('[');
  ++depth_;
  need_comma_ = false;
}

void CompactJsonWriter::end_array() {
  out_.push_back(']');
  --depth_;
  need_comma_ = true;
}

void CompactJsonWriter::key(std::string_view k) {
  before_value();
  // Nearly every key is short and needs no escape: written with its quotes and colon in place.
  // (Not through a copy on the stack: reading back the bytes just stored there stalled.)
  const std::size_t n = k.size();
  if (n <= kShortKey && plain_key(k)) {
    const std::size_t at = out_.size();
    out_.resize(at + n + 3);
    char* d = out_.data() + at;
    d[0] = '"';
    std::memcpy(d + 1, k.data(), n);
    d[n + 1] = '"';
    d[n + 2] = ':';
  } else {
    append_json_string(out_, k);
    out_.push_back(':');
  }
  after_key_ = true;
}

Status CompactJsonWriter::number(double v) {
  // On error nothing changes: neither the text nor the comma state.
  const std::size_t mark = out_.size();
  const bool after_key = after_key_;
  const bool need_comma = need_comma_;
  before_value();
  if (auto s = append_receipt_number(out_, v); !s) {
    out_.resize(mark);
    after_key_ = after_key;
    need_comma_ = need_comma;
    return s;
  }
  return {};
}

Status CompactJsonWriter::integer(double v) {
  auto s = format_receipt_integer(v);
  if (!s) return s.error();
  before_value();
  out_.append(*s);
  return {};
}

void CompactJsonWriter::string(std::string_view s) {
  before_value();
  append_json_string(out_, s);
}

void CompactJsonWriter::boolean(bool b) {
  before_value();
  out_.append(b ? "true" : "false");
}

void CompactJsonWriter::null() {
  before_value();
  out_.append("null");
}

void CompactJsonWriter::raw_value(std::string_view json) {
  before_value();
  out_.append(json);
}

}  // namespace common
