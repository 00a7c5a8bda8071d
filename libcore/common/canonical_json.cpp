#include "common/canonical_json.hpp"

#include <cmath>
#include <cstring>

#include "common/json_lexer.hpp"
#include "common/json_string.hpp"
#include "common/number_format.hpp"

namespace common {

namespace {
constexpr std::size_t kShortKey = 48;  // bytes of a key quoted on the stack
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
  // Nearly every key is short and needs no escape: copied to the stack, padded with plain bytes
  // to whole 16-byte blocks for skip_plain, then written with its quotes and colon at once.
  const std::size_t n = k.size();
  if (n <= kShortKey) {
    char quoted[kShortKey + 16 + 3];
    quoted[0] = '"';
    std::memcpy(quoted + 1, k.data(), n);
    std::memset(quoted + 1 + n, 'a', 16);
    json_lexer::Cursor c{quoted + 1, quoted + 1 + (n + 15) / 16 * 16};
    json_lexer::skip_plain(c);
    if (c.p >= quoted + 1 + n) {
      quoted[n + 1] = '"';
      quoted[n + 2] = ':';
      out_.append(quoted, n + 3);
      after_key_ = true;
      return;
    }
  }
  append_json_string(out_, k);
  out_.push_back(':');
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
