#pragma once
// What the rules read: a receipt as a read-only JSON value in one arena, 16 bytes a value (32 a
// member, its key beside it), strings and keys viewing the text or tree it was read from. Its
// nodes keep their addresses, so the rules hold `const Json*` into it as they held them into an
// ordered_json (nullptr for JavaScript's undefined), and its accessors are the subset of
// nlohmann's that the rules use, with the same answers: iterating an object gives its member
// values, get<double>() reads any number, objects hold no duplicate key (JSON.parse keeps the
// last; both readers do).
//
//   const reconcile::ReadReceipt receipt(std::move(document));   // or (tree)
//   const reconcile::Json& r = receipt.root();
//   if (const Json* updates = array_member(r, "updates")) for (const Json& u : *updates) ...
//
// Read from a JsonDocument (what bp's readers hold), which it takes over, a container's children
// are built the first time they are read: the rules read the members they know, so a receipt
// padded with a million values no rule visits costs its document and its text, not a copy of
// them. That building is why one receipt is read by one thread at a time. Read from an
// ordered_json (what tests and tree callers hold), which must outlive it, it is built whole.
// Where a rule needs a tree (the engine's input reader, the canonical emitter, a value kept beyond
// the record), ReadReceipt gives one: the caller's own, or converted once and kept.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json_document.hpp"
#include "common/same_key.hpp"

namespace reconcile {

struct JsonMember;
class ReadReceipt;

using common::same_key;  // common/same_key.hpp

class Json {
 public:
  enum class Type : std::uint8_t { null, boolean, number_integer, number_unsigned, number_float, string, array, object };

  Json() = default;  // null
  [[nodiscard]] static Json object() { return Json(Type::object); }  // an empty object
  [[nodiscard]] static Json array() { return Json(Type::array); }    // an empty array
  // An object whose members are `count` at `members`, kept by the caller for the object's life (a
  // receipt composed of other documents' values: importer/observer_receipt.hpp). Found by a scan.
  [[nodiscard]] static Json object_over(const JsonMember* members, std::size_t count);

  [[nodiscard]] Type type() const { return type_; }
  [[nodiscard]] bool is_null() const { return type_ == Type::null; }
  [[nodiscard]] bool is_boolean() const { return type_ == Type::boolean; }
  [[nodiscard]] bool is_number() const {
    return type_ == Type::number_integer || type_ == Type::number_unsigned || type_ == Type::number_float;
  }
  [[nodiscard]] bool is_number_integer() const { return type_ == Type::number_integer || type_ == Type::number_unsigned; }
  [[nodiscard]] bool is_number_unsigned() const { return type_ == Type::number_unsigned; }
  [[nodiscard]] bool is_number_float() const { return type_ == Type::number_float; }
  [[nodiscard]] bool is_string() const { return type_ == Type::string; }
  [[nodiscard]] bool is_array() const { return type_ == Type::array; }
  [[nodiscard]] bool is_object() const { return type_ == Type::object; }
  [[nodiscard]] bool is_structured() const { return is_array() || is_object(); }
  [[nodiscard]] bool is_primitive() const { return !is_structured(); }

  // Each for a value of its type only, as nlohmann's get<>() (numbers: any number type).
  [[nodiscard]] bool boolean() const { return boolean_; }
  [[nodiscard]] double number() const {
    switch (type_) {
      case Type::number_integer: return static_cast<double>(v_.i);
      case Type::number_unsigned: return static_cast<double>(v_.u);
      default: return v_.d;
    }
  }
  [[nodiscard]] std::int64_t integer() const { return type_ == Type::number_unsigned ? static_cast<std::int64_t>(v_.u) : v_.i; }
  [[nodiscard]] std::uint64_t unsigned_integer() const { return v_.u; }
  [[nodiscard]] std::string_view string() const { return {v_.s, size_}; }
  template <class T>
  [[nodiscard]] T get() const {
    if constexpr (std::is_same_v<T, bool>) {
      return boolean_;
    } else if constexpr (std::is_same_v<T, std::string>) {
      return std::string(string());
    } else if constexpr (std::is_same_v<T, std::string_view>) {
      return string();
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(number());
    } else {
      static_assert(std::is_integral_v<T>, "Json::get reads bool, strings and numbers");
      if (type_ == Type::number_float) return static_cast<T>(v_.d);
      return type_ == Type::number_unsigned ? static_cast<T>(v_.u) : static_cast<T>(v_.i);
    }
  }

  // Elements of an array, members of an object; 0 for a scalar (nlohmann says 1; no rule asks).
  [[nodiscard]] std::size_t size() const;
  [[nodiscard]] bool empty() const { return size() == 0; }

  // An array's elements, or an object's member values (it.key() names the member), in order.
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Json;
    using difference_type = std::ptrdiff_t;
    using pointer = const Json*;
    using reference = const Json&;
    const_iterator() = default;
    const_iterator(const Json* element, const JsonMember* member) : element_(element), member_(member) {}
    [[nodiscard]] const Json& operator*() const;
    [[nodiscard]] const Json* operator->() const { return &**this; }
    [[nodiscard]] const Json& value() const { return **this; }
    [[nodiscard]] std::string_view key() const;  // objects only
    const_iterator& operator++();
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const const_iterator& o) const { return element_ == o.element_ && member_ == o.member_; }
    bool operator!=(const const_iterator& o) const { return !(*this == o); }

   private:
    const Json* element_ = nullptr;
    const JsonMember* member_ = nullptr;
  };
  [[nodiscard]] const_iterator begin() const;
  [[nodiscard]] const_iterator end() const;

  // An array's element i (i < size()).
  [[nodiscard]] const Json& operator[](std::size_t i) const { return build().v_.elements[i]; }
  [[nodiscard]] const Json& front() const { return build().v_.elements[0]; }
  // An object's members in order (key, value); empty for anything else.
  [[nodiscard]] const JsonMember* members_begin() const { return is_object() ? build().v_.members : nullptr; }
  [[nodiscard]] const JsonMember* members_end() const;
  struct Members {
    const JsonMember* b;
    const JsonMember* e;
    [[nodiscard]] const JsonMember* begin() const { return b; }
    [[nodiscard]] const JsonMember* end() const { return e; }
    [[nodiscard]] std::size_t size() const;
  };
  [[nodiscard]] Members members() const { return {members_begin(), members_end()}; }
  [[nodiscard]] Members items() const { return members(); }  // nlohmann's name; [key, value] bind
  // An object's member `key`, or nullptr (a scan: objects with many keys are indexed by the caller).
  [[nodiscard]] const Json* find(std::string_view key) const;
  [[nodiscard]] bool contains(std::string_view key) const { return find(key) != nullptr; }

  // The value's JSON text as nlohmann's dump() writes it (numbers re-spelled from their values).
  [[nodiscard]] std::string dump() const;

 private:
  friend class ReadReceipt;
  friend class JsonArenaBuilder;
  explicit Json(Type t) : type_(t) {}
  // This container with its children built (ReadReceipt::build_children when still pending).
  const Json& build() const;

  Type type_ = Type::null;
  bool boolean_ = false;
  mutable bool pending_ = false;  // a document's container whose children are not built yet
  // A document's root object of 12 to 32 members: a table of 64 one-byte slots (1 + member
  // index, 0 empty) follows its members, which find() probes (read_json.cpp: key_slot).
  mutable bool indexed_ = false;
  mutable std::uint32_t size_ = 0;  // string bytes, elements or members; a pending container's slot
  mutable union Value {
    double d;
    std::int64_t i;
    std::uint64_t u;
    const char* s;
    const Json* elements;
    const JsonMember* members;
    const ReadReceipt* owner;  // a pending container's: who builds its children
  } v_{.u = 0};
};
static_assert(sizeof(Json) == 16);

struct JsonMember {
  std::string_view first;  // the key
  Json second;             // the value
};

inline const Json& Json::const_iterator::operator*() const { return member_ ? member_->second : *element_; }
inline std::string_view Json::const_iterator::key() const { return member_->first; }
inline Json::const_iterator& Json::const_iterator::operator++() {
  if (member_) {
    ++member_;
  } else {
    ++element_;
  }
  return *this;
}
inline Json::const_iterator Json::begin() const {
  if (is_object()) return {nullptr, build().v_.members};
  if (is_array()) return {build().v_.elements, nullptr};
  return {};
}
inline Json::const_iterator Json::end() const {
  if (!is_structured()) return {};
  const Json& built = build();
  if (is_object()) return {nullptr, built.v_.members + built.size_};
  return {built.v_.elements + built.size_, nullptr};
}
inline std::size_t Json::Members::size() const { return static_cast<std::size_t>(e - b); }
inline const JsonMember* Json::members_end() const {
  if (!is_object()) return nullptr;
  const Json& built = build();
  return built.v_.members + built.size_;
}

// What receipt::emit's section writers ask of a value (receipt/emit/object_writer.hpp), so that a
// receipt read for the rules is written canonically as it is, not converted to a tree first.
[[nodiscard]] inline const Json* member_of(const Json& obj, std::string_view key) { return obj.find(key); }
[[nodiscard]] inline std::string_view text_of(const Json& s) { return s.string(); }

// The value as an ordered_json tree (for a rule that hands a part of the receipt to tree code, or
// keeps it beyond the record).
[[nodiscard]] nlohmann::ordered_json to_tree(const Json& v);
// A tree's copy: code reading either kind of value (a template over the value type) asks for a tree
// the same way.
[[nodiscard]] inline nlohmann::ordered_json to_tree(const nlohmann::ordered_json& v) { return v; }
// Whether to_tree(a) would equal b exactly: the same kinds of number (and the same bits of a
// double), the same keys in the same order.
[[nodiscard]] bool same_as_tree(const Json& a, const nlohmann::ordered_json& b);

// A receipt read for the rules, and the trees some of them need.
class ReadReceipt {
 public:
  // Takes the document over; its containers' children are built as the rules first read them.
  explicit ReadReceipt(common::JsonDocument&& document);
  explicit ReadReceipt(const nlohmann::ordered_json& tree);
  ReadReceipt(const ReadReceipt&) = delete;
  ReadReceipt& operator=(const ReadReceipt&) = delete;
  ~ReadReceipt();

  [[nodiscard]] const Json& root() const { return root_; }
  // The whole receipt as a tree (the caller's own, or converted on first use and kept).
  [[nodiscard]] const nlohmann::ordered_json& tree() const;
  // The root's member `key` as a tree, or nullptr when the root is not an object or lacks it. Read
  // from a document, the tree this thread converted last for `key` serves again when the member
  // equals it exactly (a stream's records share their topology and policies).
  [[nodiscard]] const nlohmann::ordered_json* tree_member(const char* key) const;
  // The input bytes of the root's member `key` (common::JsonView::member_span), when read from a
  // document and known.
  [[nodiscard]] std::optional<std::string_view> member_span(std::string_view key) const;
  // Bytes of nodes built so far (what the rules' reads have cost; tests hold it bounded).
  [[nodiscard]] std::size_t built_bytes() const { return arena_.used; }
  // The document's text, taken out for its storage to serve again (a stream reader's next line);
  // the receipt must not be read after.
  [[nodiscard]] std::string take_text() { return std::move(document_.text()); }

 private:
  friend class Json;
  friend class JsonArenaBuilder;
  // A pending container's children, from the document (`node` is one of this receipt's).
  void build_children(const Json& node) const;
  // The elements or members of the container at `slot` of the document.
  [[nodiscard]] std::uint32_t count_at(std::uint32_t slot) const { return document_.node(slot).head >> 4; }

  // Where nodes are placed: blocks that never move, filled in turn.
  struct Arena {
    std::vector<std::unique_ptr<std::byte[]>> blocks;
    std::byte* next = nullptr;
    std::byte* end = nullptr;
    std::size_t used = 0;
  };

  common::JsonDocument document_;  // when read from a document
  Json root_;
  mutable Arena arena_;
  const nlohmann::ordered_json* source_tree_ = nullptr;
  mutable std::unique_ptr<nlohmann::ordered_json> converted_;                  // tree(), when read from a document
  mutable std::map<std::string, std::shared_ptr<const nlohmann::ordered_json>, std::less<>> members_;  // tree_member()
};

inline Json Json::object_over(const JsonMember* members, std::size_t count) {
  Json o(Type::object);
  o.v_.members = members;
  o.size_ = static_cast<std::uint32_t>(count);
  return o;
}

inline const Json& Json::build() const {
  if (pending_) v_.owner->build_children(*this);
  return *this;
}

inline std::size_t Json::size() const {
  if (!is_structured()) return 0;
  return pending_ ? v_.owner->count_at(size_) : size_;
}

}  // namespace reconcile
