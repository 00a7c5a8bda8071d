#include "common/canonical_json.hpp"

#include <cmath>

#include "common/json_string.hpp"
#include "common/number_format.hpp"

namespace common {

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
