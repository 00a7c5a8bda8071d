#include "common/json_document.hpp"

#include <algorithm>
#include <utility>

#include "common/error.hpp"
#include "common/json_string.hpp"
#include "common/same_key.hpp"

namespace common {

void JsonDocument::grow() {
  const auto k = static_cast<std::uint32_t>(blocks_.size());
  const std::uint32_t nodes = k < kDoublingBlocks ? 1u << (kFirstBlockBits + k) : 1u << kBigBlockBits;
  blocks_.push_back(std::make_unique_for_overwrite<Node[]>(nodes));
  if (k == 0) first_ = blocks_.front().get();
  next_ = blocks_.back().get();
  block_end_ = next_ + nodes;
}

const JsonDocument::Node& JsonDocument::far_node(std::uint32_t i) const {
  const auto [block, at] = locate(i);
  return blocks_[block][at];
}

JsonDocument::Run JsonDocument::run_from(std::uint32_t i) const {
  const auto [block, at] = locate(i);
  const std::uint32_t size = block < kDoublingBlocks ? 1u << (kFirstBlockBits + block) : 1u << kBigBlockBits;
  return {blocks_[block].get() + at, std::min(size - at, count_ - i)};
}

std::optional<JsonView> JsonView::find(std::string_view key) const {
  for (auto it = members().begin(), e = members().end(); it != e; ++it) {
    if (same_key(it.key().string(), key)) return *it;
  }
  return std::nullopt;
}

std::optional<std::string_view> JsonView::member_span(const Iterator& it) const {
  const auto in_text = [this](std::uint32_t key) { return (doc_->node(key).head & 0xF) == JsonDocument::kStringInText; };
  if (!in_text(it.index_)) return std::nullopt;
  const JsonDocument::Node& key = doc_->node(it.index_);
  const std::size_t from = std::size_t{key.offset} + (key.head >> 4);  // the closing quote
  Iterator next = it;
  ++next;
  std::size_t to = 0;
  if (next.index_ != doc_->node(index_).offset) {
    if (!in_text(next.index_)) return std::nullopt;
    to = doc_->node(next.index_).offset;  // just past the opening quote
  } else if (index_ == 0) {
    to = doc_->text_view().size();
  } else {
    return std::nullopt;
  }
  return doc_->text_view().substr(from, to - from);
}

std::optional<std::string_view> JsonView::member_span(std::string_view key) const {
  if (!is_object()) return std::nullopt;
  const auto range = members();
  for (auto it = range.begin(); it != range.end(); ++it) {
    if (same_key(it.key().string(), key)) return member_span(it);
  }
  return std::nullopt;
}

namespace {

// The first `keep` bytes of a text written piece by piece, and its whole length.
struct PrefixWriter {
  std::size_t keep;
  std::string kept;
  std::size_t total = 0;
  void add(std::string_view s) {
    if (kept.size() < keep) kept.append(s.substr(0, keep - kept.size()));
    total += s.size();
  }
};

// A string as nlohmann's dump() writes it (ensure_ascii off), which for valid UTF-8 is what
// append_json_string writes: escaped a piece at a time (cut between characters), so a 200 MB
// string is never copied whole.
void dump_string(std::string_view s, PrefixWriter& w) {
  w.add("\"");
  std::string piece;
  while (!s.empty()) {
    std::size_t n = std::min<std::size_t>(s.size(), 4096);
    while (n > 1 && n < s.size() && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    piece.clear();
    append_json_string(piece, s.substr(0, n));
    w.add(std::string_view(piece).substr(1, piece.size() - 2));
    s.remove_prefix(n);
  }
  w.add("\"");
}

void dump_into(JsonView v, PrefixWriter& w) {
  switch (v.type()) {
    case JsonType::string: dump_string(v.string(), w); return;
    case JsonType::array: {
      w.add("[");
      bool first = true;
      for (JsonView e : v.elements()) {
        if (!first) w.add(",");
        first = false;
        dump_into(e, w);
      }
      w.add("]");
      return;
    }
    case JsonType::object: {
      w.add("{");
      const auto range = v.members();
      for (auto it = range.begin(); it != range.end(); ++it) {
        if (it != range.begin()) w.add(",");
        dump_string(it.key().string(), w);
        w.add(":");
        dump_into(*it, w);
      }
      w.add("}");
      return;
    }
    default: w.add(to_ordered_json(v).dump());  // a number or a literal: a few bytes
  }
}

}  // namespace

std::string dump_excerpt(JsonView v, std::size_t max_bytes) {
  PrefixWriter w{max_bytes + 1, {}};
  dump_into(v, w);
  return excerpt_of_prefix(w.kept, w.total, max_bytes);
}

std::string dump_json(JsonView v) {
  PrefixWriter w{std::string::npos, {}};
  dump_into(v, w);
  return std::move(w.kept);
}

nlohmann::ordered_json to_ordered_json(JsonView v) {
  using ojson = nlohmann::ordered_json;
  switch (v.type()) {
    case JsonType::null: return nullptr;
    case JsonType::boolean: return v.boolean();
    case JsonType::number_integer: return static_cast<ojson::number_integer_t>(v.integer());
    case JsonType::number_unsigned: return static_cast<ojson::number_unsigned_t>(v.unsigned_integer());
    case JsonType::number_float: return v.number();
    case JsonType::string: return std::string(v.string());
    case JsonType::array: {
      ojson out(ojson::value_t::array);
      auto& items = out.get_ref<ojson::array_t&>();
      items.reserve(v.size());
      for (JsonView e : v.elements()) items.push_back(to_ordered_json(e));
      return out;
    }
    case JsonType::object: {
      ojson out(ojson::value_t::object);
      // The document holds no duplicate key, so members go straight into the object's vector.
      auto& entries = static_cast<ojson::object_t::Container&>(out.get_ref<ojson::object_t&>());
      entries.reserve(v.size());
      const auto range = v.members();
      for (auto it = range.begin(); it != range.end(); ++it) {
        entries.emplace_back(std::string(it.key().string()), to_ordered_json(*it));
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace common
