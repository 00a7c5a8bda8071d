#include "common/json_input.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "common/json_fast_reader.hpp"
#include "common/json_object_index.hpp"

namespace common {
namespace {

using ojson = nlohmann::ordered_json;

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Input iterator over the text that remembers the furthest byte the parser has
// read, so an error raised from a SAX callback can still name its line.
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator(const char* p, const char** furthest) : p_(p), furthest_(furthest) {}
  reference operator*() const { return *p_; }
  TrackingIterator& operator++() {
    ++p_;
    if (p_ > *furthest_) *furthest_ = p_;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackingIterator& o) const { return p_ == o.p_; }
  bool operator!=(const TrackingIterator& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  const char** furthest_;
};

// Builds an ordered_json DOM (as nlohmann's own DOM parser does) while keeping
// the JSON Pointer of the current value and enforcing depth / finiteness. Its cost is linear
// in the input: keys go into their object through a JsonObjectIndex (ordered_json's own
// operator[] scans every key, which made an n-key object cost n^2/2 compares), and errors
// quote at most an excerpt of the offending token.
class DomBuilder final : public nlohmann::json_sax<ojson> {
 public:
  explicit DomBuilder(std::size_t max_depth) : max_depth_(max_depth) {}

  bool null() override { return add(ojson(nullptr)); }
  bool boolean(bool v) override { return add(ojson(v)); }
  bool number_integer(number_integer_t v) override { return add(ojson(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(ojson(v)); }
  bool number_float(number_float_t v, const string_t& spelled) override {
    if (!std::isfinite(v)) {
      fail("number " + excerpt(spelled) + " is outside the range of binary64 (NaN and Infinity are not allowed)");
      return false;
    }
    return add(ojson(v));
  }
  bool string(string_t& v) override { return add(ojson(std::move(v))); }
  bool binary(binary_t&) override {
    fail("binary values are not JSON");
    return false;
  }
  bool start_object(std::size_t) override { return open(ojson::object()); }
  bool key(string_t& k) override {
    tokens_.back() = json_pointer_token(k);
    // Duplicate keys: last value wins at the first key's position, as JSON.parse does.
    pending_ = key_index_.back().slot(stack_.back()->get_ref<ojson::object_t&>(), std::move(k));
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(ojson::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string& last_token, const nlohmann::detail::exception& ex) override {
    std::string what = ex.what();
    // nlohmann quotes the whole token it stopped in ("last read: '<token>'", "number overflow
    // parsing '<token>'"): a 50 MB string would be echoed whole. Quote an excerpt of it.
    if (last_token.size() > kMaxQuotedInputBytes) {
      if (auto q = what.find('\''); q != std::string::npos && what.compare(q + 1, last_token.size(), last_token) == 0) {
        what.replace(q + 1, last_token.size(), excerpt(last_token));
      }
      if (what.size() > 4 * kMaxQuotedInputBytes) what = excerpt(what, 4 * kMaxQuotedInputBytes);
    }
    if (auto p = what.find("] "); p != std::string::npos) what.erase(0, p + 2);
    if (what.starts_with("parse error at ")) {
      what.erase(0, std::string_view("parse error at ").size());
      if (auto p = what.find(", column "); p != std::string::npos) what.erase(0, p + 2);
    }
    fail("invalid JSON: " + what);
    return false;
  }

  [[nodiscard]] const std::string& message() const { return message_; }
  [[nodiscard]] const std::string& error_path() const { return error_path_; }
  ojson take() { return std::move(root_); }

 private:
  // JSON Pointer of the value being read. In the innermost array that is the
  // element not yet placed (its size); outer tokens name placed containers.
  std::string pointer() const {
    std::string p;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      const bool innermost_array = i + 1 == tokens_.size() && stack_[i]->is_array();
      p += "/" + (innermost_array ? std::to_string(stack_[i]->size()) : tokens_[i]);
    }
    return p;
  }
  void fail(std::string msg) {
    if (message_.empty()) {
      message_ = std::move(msg);
      error_path_ = pointer();
    }
  }
  ojson* place(ojson&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    ojson& top = *stack_.back();
    if (top.is_array()) {
      tokens_.back() = std::to_string(top.size());
      top.push_back(std::move(v));
      return &top.back();
    }
    *pending_ = std::move(v);
    return pending_;
  }
  bool add(ojson&& v) {
    place(std::move(v));
    return true;
  }
  bool open(ojson&& container) {
    if (stack_.size() >= max_depth_) {
      if (!stack_.empty() && stack_.back()->is_array()) tokens_.back() = std::to_string(stack_.back()->size());
      fail("nesting deeper than " + std::to_string(max_depth_) + " levels");
      return false;
    }
    stack_.push_back(place(std::move(container)));
    tokens_.emplace_back();
    key_index_.emplace_back();
    return true;
  }
  bool close() {
    stack_.pop_back();
    tokens_.pop_back();
    key_index_.pop_back();
    return true;
  }

  std::size_t max_depth_;
  ojson root_;
  std::vector<ojson*> stack_;
  std::vector<std::string> tokens_;
  std::vector<JsonObjectIndex> key_index_;  // one per open container (unused for arrays)
  ojson* pending_ = nullptr;
  std::string message_;
  std::string error_path_;
};

std::int64_t line_of(std::string_view text, const char* at, std::int64_t first_line) {
  const char* begin = text.data();
  const char* end = std::min(at, text.data() + text.size());
  // The parser reads one byte ahead; do not count a newline it has only peeked at.
  if (end > begin && *(end - 1) == '\n') --end;
  return first_line + std::count(begin, end, '\n');
}

bool is_blank(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      ++i;
    } else if (line.substr(i).starts_with("\xC2\xA0")) {
      i += 2;
    } else if (line.substr(i).starts_with(kBom)) {
      i += 3;
    } else {
      return false;
    }
  }
  return true;
}

Result<std::string_view> check_envelope(std::string_view text, const JsonInputOptions& options) {
  if (text.size() > options.max_bytes) {
    return Error::malformed("input is " + std::to_string(text.size()) + " bytes; the limit is " +
                                std::to_string(options.max_bytes),
                            {options.file, 0, ""});
  }
  if (text.starts_with(kBom)) {
    if (options.bom == BomPolicy::reject) {
      return Error::malformed("input starts with a UTF-8 byte order mark, which this format does not allow",
                              {options.file, options.first_line, ""});
    }
    text.remove_prefix(kBom.size());
    if (text.starts_with(kBom)) {  // nlohmann's lexer would skip it too
      return Error::malformed("a second UTF-8 byte order mark at byte 3; JSON text cannot start with one",
                              {options.file, options.first_line, ""});
    }
  }
  return text;
}

Result<ojson> parse_checked(std::string_view text, const JsonInputOptions& options) {
  // nlohmann's lexer takes a NUL byte for the end of the input, so `{...}\0junk` would read as
  // the document alone. No JSON text holds a NUL (not in a string, not as whitespace): refuse it
  // wherever it is, before either reader sees the text.
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return Error::malformed("NUL byte (0x00) at byte " + std::to_string(nul) + "; JSON text cannot contain one",
                            {options.file, line_of(text, text.data() + nul, options.first_line), ""});
  }
  // Most input is well formed: read it on the fast path, and give anything that path does not
  // accept to the checked reader below, whose verdict and error text are the reference.
  if (auto fast = fast_read_json(text, options.max_depth)) return std::move(*fast);
  const char* furthest = text.data();
  DomBuilder builder(options.max_depth);
  TrackingIterator first(text.data(), &furthest);
  TrackingIterator last(text.data() + text.size(), &furthest);
  const bool ok = ojson::sax_parse(first, last, &builder, nlohmann::detail::input_format_t::json, true, false);
  if (!ok) {
    std::string msg = builder.message().empty() ? std::string("invalid JSON") : builder.message();
    return Error::malformed(std::move(msg), {options.file, line_of(text, furthest, options.first_line), builder.error_path()});
  }
  return builder.take();
}

}  // namespace

std::string json_pointer_token(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<ojson> parse_json_text(std::string_view text, const JsonInputOptions& options) {
  auto body = check_envelope(text, options);
  if (!body) return body.error();
  return parse_checked(*body, options);
}

Result<std::vector<JsonlRecord>> parse_jsonl_text(std::string_view text, const JsonInputOptions& options) {
  auto body = check_envelope(text, options);
  if (!body) return body.error();
  std::vector<JsonlRecord> records;
  std::string_view rest = *body;
  std::int64_t line = options.first_line;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    std::string_view one = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (one.ends_with('\r')) one.remove_suffix(1);
    if (!is_blank(one)) {
      JsonInputOptions per_line = options;
      per_line.first_line = line;
      auto value = parse_checked(one, per_line);
      if (!value) return value.error();
      records.push_back({line, std::move(*value)});
    }
    ++line;
  }
  if (records.empty()) return Error::malformed("empty JSONL input: no record found", {options.file, 0, ""});
  return records;
}

Result<ojson> read_json_file(FileSystem& fs, const std::string& path, JsonInputOptions options) {
  if (options.file.empty()) options.file = path;
  auto text = read_text(fs, path, options.max_bytes);
  if (!text) return text.error().at_file(options.file);
  return parse_json_text(*text, options);
}

Result<std::vector<JsonlRecord>> read_jsonl_file(FileSystem& fs, const std::string& path, JsonInputOptions options) {
  if (options.file.empty()) options.file = path;
  auto text = read_text(fs, path, options.max_bytes);
  if (!text) return text.error().at_file(options.file);
  return parse_jsonl_text(*text, options);
}

}  // namespace common
