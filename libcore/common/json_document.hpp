#pragma once
// A read-only JSON document in one arena: the nodes of the whole value in a flat array (depth
// first, each container followed by its subtree), strings and keys as views into the text the
// document owns, numbers as their source text beside the value parsed from it. It costs 8 bytes
// a value, 16 a number other than a small non-negative integer, where an ordered_json node is 16
// bytes plus a heap block per string, array and object (about 80 bytes for an empty object): 12
// million empty objects take 96 MB, not 1.7 GB.
//
//   auto doc = common::parse_json_document(std::move(text), {.file = "in.json"});  // json_document_reader.hpp
//   if (!doc) return doc.error();
//   for (const auto& [key, value] : doc->root().members()) ...
//
// Views are cheap to copy (a pointer and an index) and valid while their document lives. Types
// are nlohmann's: an integer written without fraction or exponent is number_unsigned when
// positive, number_integer when negative, and a number_float when outside 64 bits.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace common {

class JsonDocument;

enum class JsonType : std::uint8_t { null, boolean, number_integer, number_unsigned, number_float, string, array, object };

class JsonView {
 public:
  JsonView(const JsonDocument* doc, std::uint32_t index) : doc_(doc), index_(index) {}

  [[nodiscard]] JsonType type() const;
  [[nodiscard]] bool is_null() const { return type() == JsonType::null; }
  [[nodiscard]] bool is_boolean() const { return type() == JsonType::boolean; }
  [[nodiscard]] bool is_number() const;
  [[nodiscard]] bool is_string() const { return type() == JsonType::string; }
  [[nodiscard]] bool is_array() const { return type() == JsonType::array; }
  [[nodiscard]] bool is_object() const { return type() == JsonType::object; }

  // Each of these is only for a value of its type (an assert, never a conversion).
  [[nodiscard]] bool boolean() const;
  [[nodiscard]] double number() const;  // any number type, as nlohmann's get<double>
  [[nodiscard]] std::uint64_t number_bits() const;  // its value's bits as kept (int64, uint64 or double)
  [[nodiscard]] std::int64_t integer() const;
  [[nodiscard]] std::uint64_t unsigned_integer() const;
  [[nodiscard]] std::string_view number_text() const;  // as written in the input
  [[nodiscard]] std::string_view string() const;       // escapes decoded

  // Members of an object or elements of an array; 0 for a scalar.
  [[nodiscard]] std::size_t size() const;

  // The elements of an array, or the member values of an object, in order.
  class Iterator {
    friend class JsonView;

   public:
    Iterator(const JsonDocument* doc, std::uint32_t index, bool members) : doc_(doc), index_(index), members_(members) {}
    [[nodiscard]] JsonView operator*() const { return {doc_, members_ ? index_ + 1 : index_}; }
    // The member's key (objects only).
    [[nodiscard]] JsonView key() const { return {doc_, index_}; }
    Iterator& operator++();
    bool operator==(const Iterator& o) const { return index_ == o.index_; }
    bool operator!=(const Iterator& o) const { return index_ != o.index_; }

   private:
    const JsonDocument* doc_;
    std::uint32_t index_;
    bool members_;
  };
  struct Range {
    Iterator b, e;
    [[nodiscard]] Iterator begin() const { return b; }
    [[nodiscard]] Iterator end() const { return e; }
  };
  [[nodiscard]] Range elements() const;  // an array's
  [[nodiscard]] Range members() const;   // an object's: it.key(), *it

  // An object's member `key`, or nullopt. A scan: objects with many keys are best walked once.
  [[nodiscard]] std::optional<JsonView> find(std::string_view key) const;

  // Input bytes that hold the value of this object's member `it` and only what the input puts
  // around it: from its key's closing quote to the next key's opening quote, or, for the last
  // member of the root, to the end of the text. Two members whose spans are equal hold equal
  // values (same bytes, same reading), which lets a reader of a stream of records reuse what it
  // made of a member the record before had too. nullopt when a key had escapes (its bytes are
  // not in the text) or for the last member of a nested object (where its span ends is not kept).
  [[nodiscard]] std::optional<std::string_view> member_span(const Iterator& it) const;
  // The same for this object's member `key` (a scan); nullopt also when there is none, or this is
  // not an object.
  [[nodiscard]] std::optional<std::string_view> member_span(std::string_view key) const;

  [[nodiscard]] std::uint32_t index() const { return index_; }
  [[nodiscard]] const JsonDocument& document() const { return *doc_; }

 private:
  const JsonDocument* doc_;
  std::uint32_t index_;
};

class JsonDocument {
 public:
  // One value in one 8-byte slot, a number in two: 4 bits of type and 28 of length (string bytes,
  // number text bytes) or of count (a container's members or elements), then the offset of that
  // text, or a container's end (the slot past its subtree). A number's value (int64, uint64 or
  // double, as its type says) fills the slot after it. An object's subtree is key, value, key,
  // value... Two 16-byte slots a value, as before, made nested empty arrays ("[]", 2 bytes a
  // value) take 8 times their text in slots alone: 12 million empty objects, 36 MB, took 0.23 GB.
  // A non-negative integer below 2^28 written without fraction or exponent (kSmallUnsigned) keeps
  // its value in the 28 bits and takes one slot: its text is its value's decimal digits, so the
  // length need not be kept. Single-digit numbers ("1,", 2 bytes a value) took 8 times their text.
  // Trivial (no member initializers), so that a block is allocated without writing it.
  struct Node {
    std::uint32_t head;
    std::uint32_t offset;  // a container's end
  };
  static_assert(sizeof(Node) == 8 && std::is_trivial_v<Node>);
  // Storage tags in `head` (the JsonType, plus where a string's bytes are).
  enum Tag : std::uint32_t {
    kNull = 0, kFalse, kTrue, kInteger, kUnsigned, kFloat, kStringInText, kStringDecoded, kArray, kObject,
    kSmallUnsigned
  };
  static constexpr std::uint64_t kSmallUnsignedLimit = std::uint64_t{1} << 28;
  [[nodiscard]] static bool is_number_tag(std::uint32_t tag) {
    return (tag >= kInteger && tag <= kFloat) || tag == kSmallUnsigned;
  }
  // A number whose value fills the slot after its own.
  [[nodiscard]] static bool is_wide_number_tag(std::uint32_t tag) { return tag >= kInteger && tag <= kFloat; }
  // The longest text (json_input.hpp's kMaxJsonInputBytes): a string's length, less than the
  // text's, fits the 28 bits (a number's is checked), and offsets fit 32.
  static constexpr std::size_t kMaxTextBytes = std::size_t{1} << 28;

  JsonDocument() = default;
  // Views of a document do not follow it when it moves (they point at the document).
  JsonDocument(JsonDocument&& o) noexcept { *this = std::move(o); }
  JsonDocument& operator=(JsonDocument&& o) noexcept {
    if (this != &o) {
      blocks_ = std::move(o.blocks_);
      first_ = std::exchange(o.first_, nullptr);
      count_ = std::exchange(o.count_, 0);
      wide_numbers_ = std::exchange(o.wide_numbers_, 0);
      next_ = std::exchange(o.next_, nullptr);
      block_end_ = std::exchange(o.block_end_, nullptr);
      text_ = std::move(o.text_);
      decoded_ = std::move(o.decoded_);
    }
    return *this;
  }

  [[nodiscard]] JsonView root() const { return {this, 0}; }
  [[nodiscard]] std::size_t node_count() const { return count_; }  // slots
  [[nodiscard]] std::size_t value_count() const { return count_ - wide_numbers_; }  // JSON values, keys included
  [[nodiscard]] const Node& node(std::uint32_t i) const {
    if (i < kFirstBlockNodes) [[likely]] return first_[i];  // every slot of a record-sized document
    return far_node(i);
  }

  // For the reader (json_document_reader.cpp): nodes are appended in document order. Always
  // inlined: in some unity batches GCC called an out-of-line copy (~2K instructions a record).
  [[gnu::always_inline]] std::uint32_t append(const Node& n) {
    if (next_ == block_end_) grow();
    *next_++ = n;
    return count_++;
  }
  // A number's node and, in the next slot, its value's bits.
  void append_number(const Node& n, std::uint64_t bits) {
    append(n);
    ++wide_numbers_;
    Node value;
    std::memcpy(&value, &bits, sizeof value);
    append(value);
  }
  // A small non-negative integer's node (value < kSmallUnsignedLimit, text at `offset`).
  void append_small_unsigned(std::uint64_t value, std::uint32_t offset) {
    append(Node{kSmallUnsigned | static_cast<std::uint32_t>(value << 4), offset});
  }
  // The bits of the value of the number at slot i (int64, uint64 or double, as its tag says).
  [[nodiscard]] std::uint64_t number_bits(std::uint32_t i) const {
    const Node& n = node(i);
    if ((n.head & 0xF) == kSmallUnsigned) return n.head >> 4;
    std::uint64_t bits = 0;
    const Node& value = node(i + 1);
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  }
  // The slots from i up to the end of the block that holds i (or of the document), contiguous.
  struct Run {
    const Node* first;
    std::uint32_t count;
  };
  [[nodiscard]] Run run_from(std::uint32_t i) const;
  Node& node(std::uint32_t i) {
    if (i < kFirstBlockNodes) [[likely]] return first_[i];
    return const_cast<Node&>(far_node(i));
  }
  std::string& text() { return text_; }
  std::string& decoded() { return decoded_; }
  [[nodiscard]] std::string_view text_view() const { return text_; }
  [[nodiscard]] std::string_view decoded_view() const { return decoded_; }

 private:
  // Blocks, not one vector: growing never copies, and the peak is the nodes themselves. The first
  // kDoublingBlocks double from 2,048 slots (16 KB: a 7 KB record fits the first, whose slots are
  // reached without locate(), the validator's and the rules' most frequent read); after them every
  // block holds 2^18 slots (2 MB).
  static constexpr std::uint32_t kFirstBlockBits = 11;
  static constexpr std::uint32_t kFirstBlockNodes = 1u << kFirstBlockBits;
  static constexpr std::uint32_t kDoublingBlocks = 8;
  static constexpr std::uint32_t kBigBlockBits = kFirstBlockBits + kDoublingBlocks - 1;
  static constexpr std::uint32_t kDoublingNodes = ((1u << kDoublingBlocks) - 1) << kFirstBlockBits;

  struct Place {
    std::uint32_t block, at;
  };
  static Place locate(std::uint32_t i) {
    if (i < kDoublingNodes) {
      const std::uint32_t k = static_cast<std::uint32_t>(std::bit_width((i >> kFirstBlockBits) + 1)) - 1;
      return {k, i - (((1u << k) - 1) << kFirstBlockBits)};
    }
    const std::uint32_t j = i - kDoublingNodes;
    return {kDoublingBlocks + (j >> kBigBlockBits), j & ((1u << kBigBlockBits) - 1)};
  }
  void grow();
  // A slot past the first block, out of line: node() stays small enough to be inlined into the
  // accessors, which GCC otherwise called as functions (a sixth of the validator's time on a record).
  [[nodiscard]] const Node& far_node(std::uint32_t i) const;

  std::vector<std::unique_ptr<Node[]>> blocks_;
  Node* first_ = nullptr;  // blocks_[0]
  std::uint32_t count_ = 0;
  std::uint32_t wide_numbers_ = 0;  // numbers that took two slots
  Node* next_ = nullptr;  // where append writes, in the last block
  Node* block_end_ = nullptr;
  std::string text_;     // the input; strings without escapes and number texts point into it
  std::string decoded_;  // strings that had escapes, decoded
};

// The same value as an ordered_json tree (for output, or for code that still reads nlohmann).
[[nodiscard]] nlohmann::ordered_json to_ordered_json(JsonView v);

// excerpt(to_ordered_json(v).dump(), max_bytes) (error.hpp), written in memory of max_bytes: an
// error that quotes a 12-million-element array does not build its tree or its text.
[[nodiscard]] std::string dump_excerpt(JsonView v, std::size_t max_bytes);
// to_ordered_json(v).dump(), without the tree.
[[nodiscard]] std::string dump_json(JsonView v);

// ---- inline: the accessors are on every path that reads a document ----

[[gnu::always_inline]] inline JsonType JsonView::type() const {
  // By storage tag (JsonDocument::Tag); the unused tags read as objects, as no node has them.
  static constexpr JsonType kOfTag[16] = {
      JsonType::null,          JsonType::boolean,         JsonType::boolean, JsonType::number_integer,
      JsonType::number_unsigned, JsonType::number_float,  JsonType::string,  JsonType::string,
      JsonType::array,         JsonType::object,          JsonType::number_unsigned, JsonType::object,
      JsonType::object,        JsonType::object,          JsonType::object,  JsonType::object};
  return kOfTag[doc_->node(index_).head & 0xF];
}

inline bool JsonView::is_number() const { return JsonDocument::is_number_tag(doc_->node(index_).head & 0xF); }

inline bool JsonView::boolean() const { return (doc_->node(index_).head & 0xF) == JsonDocument::kTrue; }

inline double JsonView::number() const {
  const std::uint64_t bits = doc_->number_bits(index_);
  switch (doc_->node(index_).head & 0xF) {
    case JsonDocument::kInteger: return static_cast<double>(std::bit_cast<std::int64_t>(bits));
    case JsonDocument::kUnsigned:
    case JsonDocument::kSmallUnsigned: return static_cast<double>(bits);
    default: return std::bit_cast<double>(bits);
  }
}

inline std::uint64_t JsonView::number_bits() const { return doc_->number_bits(index_); }
inline std::int64_t JsonView::integer() const { return std::bit_cast<std::int64_t>(doc_->number_bits(index_)); }
inline std::uint64_t JsonView::unsigned_integer() const { return doc_->number_bits(index_); }

inline std::string_view JsonView::number_text() const {
  const auto& n = doc_->node(index_);
  if ((n.head & 0xF) != JsonDocument::kSmallUnsigned) return doc_->text_view().substr(n.offset, n.head >> 4);
  std::size_t digits = 1;
  for (std::uint32_t v = n.head >> 4; v >= 10; v /= 10) ++digits;
  return doc_->text_view().substr(n.offset, digits);
}

[[gnu::always_inline]] inline std::string_view JsonView::string() const {
  const auto& n = doc_->node(index_);
  const std::string_view from =
      (n.head & 0xF) == JsonDocument::kStringDecoded ? doc_->decoded_view() : doc_->text_view();
  return {from.data() + n.offset, n.head >> 4};  // within `from`: the reader placed it there
}

inline std::size_t JsonView::size() const {
  const auto& n = doc_->node(index_);
  const std::uint32_t tag = n.head & 0xF;
  return tag == JsonDocument::kArray || tag == JsonDocument::kObject ? n.head >> 4 : 0;
}

[[gnu::always_inline]] inline JsonView::Iterator& JsonView::Iterator::operator++() {
  // Past this element (and its subtree), or past this member's key and value.
  if (members_) ++index_;
  const auto& n = doc_->node(index_);
  const std::uint32_t tag = n.head & 0xF;
  if (tag == JsonDocument::kArray || tag == JsonDocument::kObject) {
    index_ = n.offset;
  } else {
    index_ += JsonDocument::is_wide_number_tag(tag) ? 2 : 1;
  }
  return *this;
}

inline JsonView::Range JsonView::elements() const {
  const auto end = doc_->node(index_).offset;
  return {Iterator(doc_, index_ + 1, false), Iterator(doc_, end, false)};
}

inline JsonView::Range JsonView::members() const {
  const auto end = doc_->node(index_).offset;
  return {Iterator(doc_, index_ + 1, true), Iterator(doc_, end, true)};
}

}  // namespace common
