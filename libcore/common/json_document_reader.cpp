#include "common/json_document_reader.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

#include "common/json_release.hpp"

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
};

// From this many members on, duplicate keys are found by hashing instead of a scan.
constexpr std::size_t kHashFrom = 16;
// Scratch capacity (keys) kept between documents, per nesting level.
constexpr std::size_t kKeptCapacity = 4096;

// RFC 8259 with the checked reader's rules (json_fast_reader.cpp holds the same grammar for the
// ordered_json tree; see there for why each number and string case is read as it is). Any
// refusal, and any duplicate key, answers false: parse_json_document then asks the checked reader.
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

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  void number_node(std::uint32_t tag, const char* start, Node n) {
    n.head = tag | (static_cast<std::uint32_t>(p_ - start) << 4);
    n.offset = static_cast<std::uint32_t>(start - base_);
    doc_.append(n);
  }

  bool number() {
    const char* start = p_;
    const char* q = p_;
    const bool negative = q != end_ && *q == '-';
    if (negative) ++q;
    if (q == end_) return false;
    std::uint64_t m = 0;
    int digits = 0;
    long exp10 = 0;
    const auto take = [&](char ch) {
      if (m == 0 && ch == '0') return;
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
    // A number text must fit the node's 28-bit length (only a 256 MiB number could not).
    if (static_cast<std::size_t>(q - start) >= (std::size_t{1} << 28)) return false;
    p_ = q;
    Node n{};
    if (integer && digits <= 19) {
      if (!negative) {
        n.payload.u = m;
        number_node(JsonDocument::kUnsigned, start, n);
        return true;
      }
      if (m <= std::uint64_t{1} << 63) {
        n.payload.i = static_cast<std::int64_t>(0 - m);
        number_node(JsonDocument::kInteger, start, n);
        return true;
      }
    } else if (integer) {
      if (negative) {
        std::int64_t v = 0;
        const auto r = std::from_chars(start, q, v);
        if (r.ec == std::errc() && r.ptr == q) {
          n.payload.i = v;
          number_node(JsonDocument::kInteger, start, n);
          return true;
        }
      } else {
        std::uint64_t v = 0;
        const auto r = std::from_chars(start, q, v);
        if (r.ec == std::errc() && r.ptr == q) {
          n.payload.u = v;
          number_node(JsonDocument::kUnsigned, start, n);
          return true;
        }
      }
    }
    if (!integer && digits <= 19 && m <= (std::uint64_t{1} << 53) && exp10 >= -22 && exp10 <= 22) {
      static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
      const double d = exp10 < 0 ? static_cast<double>(m) / kPow10[-exp10] : static_cast<double>(m) * kPow10[exp10];
      n.payload.d = negative ? -d : d;
      number_node(JsonDocument::kFloat, start, n);
      return true;
    }
    double d = 0;
    const auto r = std::from_chars(start, q, d);
    if (r.ec == std::errc::result_out_of_range && r.ptr == q) {
      // Underflow is read as the checked reader reads it (strtod's nearest: 0 or a subnormal);
      // overflow, infinite, stays its refusal.
      d = std::strtod(std::string(start, q).c_str(), nullptr);
    } else if (r.ec != std::errc() || r.ptr != q) {
      return false;
    }
    if (!std::isfinite(d)) return false;
    n.payload.d = d;
    number_node(JsonDocument::kFloat, start, n);
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

  // One well-formed UTF-8 sequence of 2-4 bytes at p_ (Unicode table 3-7).
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

  static std::uint64_t special_bits(std::uint64_t w) {
    constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    const auto zero_byte = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
    const std::uint64_t below_space = (w - ones * 0x20) & ~w & highs;
    return zero_byte(w ^ (ones * '"')) | zero_byte(w ^ (ones * '\\')) | below_space | (w & highs);
  }

  static bool plain(unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; }

  // Plain ASCII skipped, eight bytes at a time, to the first byte that needs a look.
  void skip_plain() {
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
          return;
        }
        p_ += 8;
      } else {
        while (p_ != end_ && plain(static_cast<unsigned char>(*p_))) ++p_;
        return;
      }
    }
  }

  // A string token at p_ (the opening quote) as a node: a view into the text when it has no
  // escape, else its decoded bytes appended to the document's decoded pool.
  bool string() {
    ++p_;
    const char* first = p_;
    std::string* decoded = nullptr;  // set at the first escape
    std::size_t decoded_start = 0;
    const char* run = p_;
    for (;;) {
      skip_plain();
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') break;
      if (c == '\\') {
        if (decoded == nullptr) {
          decoded = &doc_.decoded();
          decoded_start = decoded->size();
        }
        decoded->append(run, p_);
        if (!escape(*decoded)) return false;
        run = p_;
        continue;
      }
      if (c < 0x20) return false;
      if (!utf8_sequence()) return false;
    }
    Node n{};
    if (decoded == nullptr) {
      n.head = JsonDocument::kStringInText | (static_cast<std::uint32_t>(p_ - first) << 4);
      n.offset = static_cast<std::uint32_t>(first - base_);
    } else {
      decoded->append(run, p_);
      n.head = JsonDocument::kStringDecoded | (static_cast<std::uint32_t>(decoded->size() - decoded_start) << 4);
      n.offset = static_cast<std::uint32_t>(decoded_start);
    }
    ++p_;
    doc_.append(n);
    return true;
  }

  bool escape(std::string& s) {
    ++p_;
    if (p_ == end_) return false;
    const char e = *p_++;
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
        if (!hex4(cp)) return false;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return false;
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
      default: return false;
    }
  }

  // A container's node, its count and end filled in when it closes.
  std::uint32_t open(std::uint32_t tag) {
    Node n{};
    n.head = tag;
    return doc_.append(n);
  }
  void close(std::uint32_t at, std::uint32_t count) {
    Node& n = doc_.node(at);
    n.payload.c.count = count;
    n.payload.c.end = static_cast<std::uint32_t>(doc_.node_count());
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

  // Whether this object already has the key just read (`key`, the last node), then records it.
  bool duplicate(Level& level, std::uint32_t key) {
    const std::string_view text = key_text(key);
    const std::size_t n = level.keys.size();
    if (n < kHashFrom) {
      for (std::uint32_t k : level.keys) {
        if (key_text(k) == text) return true;
      }
    } else {
      if (level.slots.size() < 2 * n) rebuild(level, 4 * kHashFrom);
      const std::size_t mask = level.slots.size() - 1;
      for (std::size_t i = hash(text) & mask;; i = (i + 1) & mask) {
        const std::uint32_t s = level.slots[i];
        if (s == 0) break;
        if (key_text(level.keys[s - 1]) == text) return true;
      }
    }
    level.keys.push_back(key);
    if (!level.slots.empty()) {
      if (2 * level.keys.size() > level.slots.size()) {
        rebuild(level, 2 * level.slots.size());
      } else {
        index_key(level, level.keys.size() - 1);
      }
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

}  // namespace document_tokenizer

using document_tokenizer::kBom;
using document_tokenizer::tokenize;

Result<JsonDocument> parse_json_document(std::string text, const JsonInputOptions& options) {
  if (options.max_bytes > JsonDocument::kMaxTextBytes) {
    return Error::invalid_argument("a JSON document holds at most " + std::to_string(JsonDocument::kMaxTextBytes) +
                                   " bytes; max_bytes is " + std::to_string(options.max_bytes));
  }
  // The envelope (size, BOM, NUL bytes) and every refusal are the checked reader's; the tokenizer
  // refuses all of them too, so only text it accepts can skip parse_json_text.
  if (text.size() <= options.max_bytes && (options.bom == BomPolicy::strip || !text.starts_with(kBom))) {
    const std::size_t start = text.starts_with(kBom) ? kBom.size() : 0;
    if (auto doc = tokenize(std::move(text), start, options.max_depth)) return std::move(*doc);
  }
  auto tree = parse_json_text(text, options);
  if (!tree) return tree.error();
  // Accepted by the checked reader alone (duplicate keys, an underflowing number): its tree,
  // written out, is text the tokenizer reads as the same values.
  std::string again = tree->dump();
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
