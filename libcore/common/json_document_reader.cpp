#include "common/json_document_reader.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "common/json_lexer.hpp"
#include "common/json_release.hpp"
#include "common/json_string.hpp"
#include "common/same_key.hpp"

namespace common {
// Named, not anonymous: in a unity batch this file shares one unit with json_fast_reader.cpp and
// json_input.cpp, whose anonymous namespaces hold names of their own (Level, kBom, ...).
namespace document_tokenizer {

using Node = JsonDocument::Node;

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// The keys of one open object, to find a duplicate (node indices of the key strings).
struct Level {
  std::vector<std::uint32_t> keys;
  std::vector<std::uint32_t> slots;  // open addressing over keys (0: empty, else 1 + position)
  // One bit per key read so far, chosen by its length and end bytes: a key whose bit is clear is
  // new without a scan (nearly every key of a small object).
  std::uint64_t seen = 0;
};

// From this many members on, duplicate keys are found by hashing instead of a scan.
constexpr std::size_t kHashFrom = 32;
// Scratch capacity (keys) kept between documents, per nesting level.
constexpr std::size_t kKeptCapacity = 4096;

// RFC 8259 with the checked reader's rules (the lexical pieces are json_lexer.hpp's, shared with
// json_fast_reader.cpp). Any refusal, and any duplicate key, answers false: parse_json_document
// then asks the checked reader.
class Tokenizer {
 public:
  Tokenizer(JsonDocument& doc, std::size_t start, std::size_t max_depth, std::vector<Level>& levels)
      : doc_(doc),
        base_(doc.text().data()),
        p_(base_ + start),
        end_(base_ + doc.text().size()),
        max_depth_(max_depth),
        levels_(levels) {}

  bool document() {
    skip_ws();
    if (!value(0)) return false;
    skip_ws();
    return p_ == end_;
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

  void scalar(std::uint32_t tag) {
    Node n{};
    n.head = tag;
    doc_.append(n);
  }

  bool value(std::size_t depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return string();
      case 't':
        if (!literal("true")) return false;
        scalar(JsonDocument::kTrue);
        return true;
      case 'f':
        if (!literal("false")) return false;
        scalar(JsonDocument::kFalse);
        return true;
      case 'n':
        if (!literal("null")) return false;
        scalar(JsonDocument::kNull);
        return true;
      default: return number();
    }
  }

  void number_node(std::uint32_t tag, const char* start, std::uint64_t bits) {
    Node n{};
    n.head = tag | (static_cast<std::uint32_t>(p_ - start) << 4);
    n.offset = static_cast<std::uint32_t>(start - base_);
    doc_.append_number(n, bits);
  }

  bool number() {
    const char* start = p_;
    json_lexer::Cursor c{p_, end_};
    json_lexer::Number v;
    if (!json_lexer::number(c, v, /*read_underflow=*/true)) return false;
    // A number text must fit the node's 28-bit length (only a 256 MiB number could not).
    if (static_cast<std::size_t>(c.p - start) >= (std::size_t{1} << 28)) return false;
    p_ = c.p;
    switch (v.kind) {
      case json_lexer::NumberKind::unsigned_integer:
        if (v.u < JsonDocument::kSmallUnsignedLimit) {
          doc_.append_small_unsigned(v.u, static_cast<std::uint32_t>(start - base_));
        } else {
          number_node(JsonDocument::kUnsigned, start, v.u);
        }
        break;
      case json_lexer::NumberKind::integer:
        number_node(JsonDocument::kInteger, start, std::bit_cast<std::uint64_t>(v.i));
        break;
      case json_lexer::NumberKind::floating: number_node(JsonDocument::kFloat, start, std::bit_cast<std::uint64_t>(v.d)); break;
    }
    return true;
  }

  // A string token at p_ (the opening quote) as a node: a view into the text when it has no
  // escape, else its decoded bytes appended to the document's decoded pool. Inlined into both of
  // its callers (keys in object(), values in value()): a record is mostly short strings.
  [[gnu::always_inline]] bool string() {
    ++p_;
    const char* first = p_;
    std::string* decoded = nullptr;  // set at the first escape
    std::size_t decoded_start = 0;
    const char* run = p_;
    for (;;) {
      json_lexer::Cursor rest{p_, end_};
      json_lexer::skip_plain(rest);
      p_ = rest.p;
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') break;
      if (c == '\\') {
        if (decoded == nullptr) {
          decoded = &doc_.decoded();
          decoded_start = decoded->size();
        }
        decoded->append(run, static_cast<std::size_t>(p_ - run));
        json_lexer::Cursor at{p_, end_};
        if (!json_lexer::escape(at, *decoded)) return false;
        p_ = at.p;
        run = p_;
        continue;
      }
      if (c < 0x20) return false;
      json_lexer::Cursor at{p_, end_};
      if (!json_lexer::utf8_sequence(at)) return false;
      p_ = at.p;
    }
    Node n{};
    if (decoded == nullptr) {
      n.head = JsonDocument::kStringInText | (static_cast<std::uint32_t>(p_ - first) << 4);
      n.offset = static_cast<std::uint32_t>(first - base_);
    } else {
      decoded->append(run, static_cast<std::size_t>(p_ - run));
      n.head = JsonDocument::kStringDecoded | (static_cast<std::uint32_t>(decoded->size() - decoded_start) << 4);
      n.offset = static_cast<std::uint32_t>(decoded_start);
    }
    ++p_;
    doc_.append(n);
    return true;
  }

  // A container's node, its count and end filled in when it closes.
  std::uint32_t open(std::uint32_t tag) {
    Node n{};
    n.head = tag;
    return doc_.append(n);
  }
  // A container holds fewer than 2^27 values (each takes a byte and a separator of a text of at
  // most 2^28 bytes): its count fits the 28 bits beside the tag.
  void close(std::uint32_t at, std::uint32_t count) {
    Node& n = doc_.node(at);
    n.head |= count << 4;
    n.offset = static_cast<std::uint32_t>(doc_.node_count());
  }

  bool array(std::size_t depth) {
    if (depth + 1 > max_depth_) return false;
    ++p_;
    const std::uint32_t at = open(JsonDocument::kArray);
    std::uint32_t count = 0;
    skip_ws();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      close(at, 0);
      return true;
    }
    for (;;) {
      if (!value(depth + 1)) return false;
      ++count;
      skip_ws();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        skip_ws();
        continue;
      }
      if (*p_ != ']') return false;
      ++p_;
      close(at, count);
      return true;
    }
  }

  std::string_view key_text(std::uint32_t key) const { return JsonView(&doc_, key).string(); }
  static std::size_t hash(std::string_view key) { return std::hash<std::string_view>{}(key); }

  void index_key(Level& level, std::size_t k) {
    const std::size_t mask = level.slots.size() - 1;
    std::size_t i = hash(key_text(level.keys[k])) & mask;
    while (level.slots[i] != 0) i = (i + 1) & mask;
    level.slots[i] = static_cast<std::uint32_t>(k + 1);
  }

  void rebuild(Level& level, std::size_t capacity) {
    while (capacity < 2 * level.keys.size()) capacity *= 2;
    level.slots.assign(capacity, 0);
    for (std::size_t k = 0; k < level.keys.size(); ++k) index_key(level, k);
  }

  // Which of Level::seen's 64 bits stands for `key`.
  static unsigned fingerprint(std::string_view key) {
    if (key.empty()) return 0;
    const auto first = static_cast<unsigned char>(key.front());
    const auto last = static_cast<unsigned char>(key.back());
    return (static_cast<unsigned>(key.size()) * 7u + first * 3u + last * 5u) & 63u;
  }

  // Whether this object already has the key just read (`key`, the last node), then records it.
  // Inlined into object(): nearly every key of a small object is told new by its fingerprint
  // bit alone, and a call per key cost a third of the check.
  [[gnu::always_inline]] bool duplicate(Level& level, std::uint32_t key) {
    const std::string_view text = key_text(key);
    if (level.keys.size() < kHashFrom) {
      const std::uint64_t bit = std::uint64_t{1} << fingerprint(text);
      const bool maybe = (level.seen & bit) != 0;
      level.seen |= bit;
      if (maybe && scanned_duplicate(level, text)) return true;
      level.keys.push_back(key);
      return false;
    }
    return hashed_duplicate(level, key, text);
  }

  // A key whose fingerprint bit is set: compared with the object's keys (their lengths are in
  // their nodes: most differ in it, and their texts need not be looked up).
  [[gnu::noinline]] bool scanned_duplicate(const Level& level, std::string_view text) const {
    const auto length = static_cast<std::uint32_t>(text.size());
    for (std::uint32_t k : level.keys) {
      if ((doc_.node(k).head >> 4) == length && same_key(key_text(k), text)) return true;
    }
    return false;
  }

  // From kHashFrom keys on: an open-addressing table over them.
  [[gnu::noinline]] bool hashed_duplicate(Level& level, std::uint32_t key, std::string_view text) {
    const std::size_t n = level.keys.size();
    if (level.slots.size() < 2 * n) rebuild(level, 4 * kHashFrom);
    const std::size_t mask = level.slots.size() - 1;
    for (std::size_t i = hash(text) & mask;; i = (i + 1) & mask) {
      const std::uint32_t s = level.slots[i];
      if (s == 0) break;
      if (same_key(key_text(level.keys[s - 1]), text)) return true;
    }
    level.keys.push_back(key);
    if (2 * level.keys.size() > level.slots.size()) {
      rebuild(level, 2 * level.slots.size());
    } else {
      index_key(level, level.keys.size() - 1);
    }
    return false;
  }

  bool object(std::size_t depth) {
    if (depth + 1 > max_depth_) return false;
    ++p_;
    const std::uint32_t at = open(JsonDocument::kObject);
    if (levels_.size() <= depth) levels_.resize(depth + 1);
    levels_[depth].keys.clear();
    levels_[depth].slots.clear();
    levels_[depth].seen = 0;
    std::uint32_t count = 0;
    skip_ws();
    bool closed = p_ != end_ && *p_ == '}';
    if (closed) ++p_;
    while (!closed) {
      if (p_ == end_ || *p_ != '"') return false;
      if (!string()) return false;
      // Duplicate keys (last value at the first key's position) are the checked reader's.
      if (duplicate(levels_[depth], static_cast<std::uint32_t>(doc_.node_count() - 1))) return false;
      skip_ws();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_ws();
      if (!value(depth + 1)) return false;
      ++count;
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
    close(at, count);
    Level& level = levels_[depth];
    if (level.keys.capacity() > kKeptCapacity) level = {};
    return true;
  }

  JsonDocument& doc_;
  const char* base_;
  const char* p_;
  const char* end_;
  std::size_t max_depth_;
  std::vector<Level>& levels_;
};

// The tokenizer's document of `text`, or nullopt when the checked reader must decide.
std::optional<JsonDocument> tokenize(std::string&& text, std::size_t start, std::size_t max_depth) {
  thread_local std::vector<Level> levels;  // scratch kept between documents
  JsonDocument doc;
  doc.text() = std::move(text);
  Tokenizer t(doc, start, max_depth, levels);
  if (!t.document()) {
    text = std::move(doc.text());  // given back for the checked reader
    return std::nullopt;
  }
  return doc;
}

// `v` as text the tokenizer reads back as the same values, kinds included: nlohmann's dump but
// for a signed integer zero (the text -0), which dump() writes as 0, an unsigned integer's text.
void write_for_tokenizer(const nlohmann::ordered_json& v, std::string& out) {
  switch (v.type()) {
    case nlohmann::ordered_json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, member] : v.items()) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, key);
        out += ':';
        write_for_tokenizer(member, out);
      }
      out += '}';
      return;
    }
    case nlohmann::ordered_json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first) out += ',';
        first = false;
        write_for_tokenizer(e, out);
      }
      out += ']';
      return;
    }
    case nlohmann::ordered_json::value_t::string: append_json_string(out, v.get_ref<const std::string&>()); return;
    case nlohmann::ordered_json::value_t::number_integer:
      if (v.get<std::int64_t>() == 0) {
        out += "-0";
        return;
      }
      [[fallthrough]];
    default: out += v.dump();
  }
}

}  // namespace document_tokenizer

using document_tokenizer::kBom;
using document_tokenizer::tokenize;

Result<JsonDocument> parse_json_document(std::string text, const JsonInputOptions& options) {
  return parse_json_document_keeping(text, options);
}

Result<JsonDocument> parse_json_document_keeping(std::string& text, const JsonInputOptions& options) {
  if (options.max_bytes > JsonDocument::kMaxTextBytes) {
    return Error::invalid_argument("a JSON document holds at most " + std::to_string(JsonDocument::kMaxTextBytes) +
                                   " bytes; max_bytes is " + std::to_string(options.max_bytes));
  }
  // The envelope (size, BOM, NUL bytes) and every refusal are the checked reader's; the tokenizer
  // refuses all of them too, so only text it accepts can skip parse_json_text.
  if (text.size() <= options.max_bytes && (options.bom == BomPolicy::strip || !text.starts_with(kBom))) {
    const std::size_t start = text.starts_with(kBom) ? kBom.size() : 0;
    if (auto doc = tokenize(std::move(text), start, options.max_depth)) return std::move(*doc);  // else given back
  }
  auto tree = parse_json_text(text, options);
  if (!tree) return tree.error();
  // Accepted by the checked reader alone (duplicate keys, an underflowing number, a second BOM):
  // its tree, written out, is text the tokenizer reads as the same values.
  std::string again;
  document_tokenizer::write_for_tokenizer(*tree, again);
  common::release_json(*tree);
  if (auto doc = tokenize(std::move(again), 0, options.max_depth)) return std::move(*doc);
  return Error::malformed("the JSON document reader refused the checked reader's own output", {options.file, 0, ""});
}

Result<JsonDocument> read_json_document(FileSystem& fs, const std::string& path, JsonInputOptions options) {
  if (options.file.empty()) options.file = path;
  auto text = read_text(fs, path, options.max_bytes);
  if (!text) return text.error().at_file(options.file);
  return parse_json_document(std::move(*text), options);
}

}  // namespace common
