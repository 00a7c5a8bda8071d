#pragma once
// CompactJsonWriter: builds compact JSON text (no whitespace) token by token,
// placing commas and colons itself. Numbers go through the canonical receipt
// formatter (common/number_format.hpp), strings through JSON.stringify escaping
// (common/json_string.hpp). Key order is the caller's: this writer never sorts.
//
//   common::CompactJsonWriter w;
//   w.begin_object();
//   w.key("lr");  if (auto s = w.number(0.5); !s) return s.error();   // "0.500000000"
//   w.key("ids"); w.begin_array(); w.string("a"); w.end_array();
//   w.end_object();
//   std::string text = w.take();   // {"lr":0.500000000,"ids":["a"]}
#include <cstddef>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace common {

class CompactJsonWriter {
 public:
  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view k);  // inside an object, before each value
  // A key the program itself spells (a receipt layout's field): plain by construction, so written
  // without looking for bytes to escape (receipt::emit's tests hold every layout key plain).
  void program_key(std::string_view k) {
    quoted_plain(k, true);
    after_key_ = true;
  }
  [[nodiscard]] Status number(double v);   // canonical 9-significant-digit form
  [[nodiscard]] Status integer(double v);  // bare digits; error unless integral
  void string(std::string_view s);
  void boolean(bool b);
  void null();
  // A value already spelled as JSON (e.g. the output of another writer).
  void raw_value(std::string_view json);

  // Room for `bytes` of text: a writer of many similar documents (a stream's receipts) grows
  // its text once rather than by doubling.
  void reserve(std::size_t bytes) {
    if (out_.size() < bytes) grow(bytes - len_);
  }
  [[nodiscard]] std::string_view text() const { return {out_.data(), len_}; }
  [[nodiscard]] std::string take() {
    out_.resize(len_);
    std::string text = std::move(out_);
    // The writer starts again from nothing: an empty text (whatever a moved-from string holds)
    // and no open container, even where the one taken was left unfinished.
    out_ = std::string();
    len_ = 0;
    need_comma_ = after_key_ = false;
    depth_ = 0;
    return text;
  }

 private:
  // The text is out_'s first len_ bytes; the rest of out_ is room already allocated and
  // initialised, so that a token is written with plain stores (std::string's own growth
  // zero-fills what it adds: a generic call and a fill per token, more than half of a key's cost).
  [[nodiscard]] char* room(std::size_t bytes) {
    if (out_.size() - len_ < bytes) grow(bytes);
    return out_.data() + len_;
  }
  void grow(std::size_t bytes);
  // Writes the comma a value needs at `at` (nothing after a key), returning the bytes written.
  std::size_t separator(char* at);
  void append(std::string_view bytes);
  void quoted_plain(std::string_view s, bool as_key);  // a string of json_lexer's plain bytes

  std::string out_;
  std::size_t len_ = 0;
  // The comma state as two words rather than a flag per open container: a value of the
  // innermost container has been written (false right after its '{' or '['; a closed container
  // counts as a value of its parent), and how many containers are open (none: no commas).
  bool need_comma_ = false;
  std::size_t depth_ = 0;
  bool after_key_ = false;
};

}  // namespace common
