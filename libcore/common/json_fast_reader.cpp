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

#include "common/json_lexer.hpp"
#include "common/same_key.hpp"

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

  // The lexical rules are json_lexer.hpp's; an underflowing number is left to the checked reader.
  bool number(ojson& out) {
    json_lexer::Cursor c{p_, end_};
    json_lexer::Number v;
    if (!json_lexer::number(c, v, /*read_underflow=*/false)) return false;
    p_ = c.p;
    switch (v.kind) {
      case json_lexer::NumberKind::unsigned_integer: out = static_cast<ojson::number_unsigned_t>(v.u); break;
      case json_lexer::NumberKind::integer: out = static_cast<ojson::number_integer_t>(v.i); break;
      case json_lexer::NumberKind::floating: out = v.d; break;
    }
    return true;
  }

  // A string token at p_ (the opening quote), decoded into `s`.
  bool string(std::string& s) {
    ++p_;
    const char* run = p_;  // start of the bytes not yet copied into s
    for (;;) {
      json_lexer::Cursor rest{p_, end_};
      json_lexer::skip_plain(rest);
      p_ = rest.p;
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        s.append(run, static_cast<std::size_t>(p_ - run));
        ++p_;
        return true;
      }
      if (c == '\\') {
        s.append(run, static_cast<std::size_t>(p_ - run));
        json_lexer::Cursor at{p_, end_};
        if (!json_lexer::escape(at, s)) return false;
        p_ = at.p;
        run = p_;
        continue;
      }
      if (c < 0x20) return false;
      json_lexer::Cursor at{p_, end_};
      if (!json_lexer::utf8_sequence(at)) return false;
      p_ = at.p;
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
        if (same_key(m.first, key)) return &m;
      }
      return nullptr;
    }
    if (level.slots.size() < 2 * n) rebuild(level, 4 * kHashFrom);
    const std::size_t mask = level.slots.size() - 1;
    for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      const std::uint32_t s = level.slots[i];
      if (s == 0) return nullptr;
      if (same_key(level.members[s - 1].first, key)) return &level.members[s - 1];
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
