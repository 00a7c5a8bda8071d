#include "reconcile/read_json.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

#include "common/json_release.hpp"

namespace reconcile {

namespace {

// The root's key table (Json::indexed_): 64 slots for at most 32 keys, probed linearly from a hash
// of the key's length and end bytes. Every rule looks members of the root up, 150 times a record
// or so, many of them absent (optimizer_config, attestor, batch): a scan of its 20-odd keys each.
constexpr std::size_t kKeyTableSlots = 64;
constexpr std::size_t kIndexedMembers = 12;
constexpr std::size_t kMaxIndexedMembers = 32;

std::size_t key_slot(std::string_view k) {
  std::uint64_t x = k.size();
  if (!k.empty()) x ^= std::uint64_t{static_cast<unsigned char>(k.front())} << 8;
  if (k.size() >= 4) {
    std::uint32_t tail = 0;
    std::memcpy(&tail, k.data() + k.size() - 4, sizeof tail);
    x ^= std::uint64_t{tail} << 16;
  }
  return static_cast<std::size_t>((x * 0x9E3779B97F4A7C15ULL) >> 58);  // the top 6 bits: 0..63
}

}  // namespace

const Json* Json::find(std::string_view key) const {
  if (!is_object()) return nullptr;
  build();
  if (indexed_) {
    const auto* slots = reinterpret_cast<const std::uint8_t*>(v_.members + size_);
    for (std::size_t at = key_slot(key);; at = (at + 1) & (kKeyTableSlots - 1)) {
      const std::uint8_t s = slots[at];
      if (s == 0) return nullptr;
      if (same_key(v_.members[s - 1].first, key)) return &v_.members[s - 1].second;
    }
  }
  for (const JsonMember* m = v_.members, *e = v_.members + size_; m != e; ++m) {
    if (same_key(m->first, key)) return &m->second;
  }
  return nullptr;
}

nlohmann::ordered_json to_tree(const Json& v) {
  using ojson = nlohmann::ordered_json;
  switch (v.type()) {
    case Json::Type::null: return nullptr;
    case Json::Type::boolean: return v.boolean();
    case Json::Type::number_integer: return static_cast<ojson::number_integer_t>(v.integer());
    case Json::Type::number_unsigned: return static_cast<ojson::number_unsigned_t>(v.unsigned_integer());
    case Json::Type::number_float: return v.number();
    case Json::Type::string: return std::string(v.string());
    case Json::Type::array: {
      ojson out(ojson::value_t::array);
      auto& items = out.get_ref<ojson::array_t&>();
      items.reserve(v.size());
      for (const Json& e : v) items.push_back(to_tree(e));
      return out;
    }
    case Json::Type::object: {
      ojson out(ojson::value_t::object);
      // No duplicate key: members go straight into the object's vector.
      auto& entries = static_cast<ojson::object_t::Container&>(out.get_ref<ojson::object_t&>());
      entries.reserve(v.size());
      for (const JsonMember& m : v.members()) entries.emplace_back(std::string(m.first), to_tree(m.second));
      return out;
    }
  }
  return nullptr;
}

std::string Json::dump() const { return to_tree(*this).dump(); }

bool same_as_tree(const Json& a, const nlohmann::ordered_json& b) {
  using ojson = nlohmann::ordered_json;
  switch (a.type()) {
    case Json::Type::null: return b.is_null();
    case Json::Type::boolean: return b.is_boolean() && b.get<bool>() == a.boolean();
    case Json::Type::number_integer: return b.is_number_integer() && !b.is_number_unsigned() && b.get<std::int64_t>() == a.integer();
    case Json::Type::number_unsigned: return b.is_number_unsigned() && b.get<std::uint64_t>() == a.unsigned_integer();
    case Json::Type::number_float:
      return b.is_number_float() && std::bit_cast<std::uint64_t>(b.get<double>()) == std::bit_cast<std::uint64_t>(a.number());
    case Json::Type::string: return b.is_string() && b.get_ref<const std::string&>() == a.string();
    case Json::Type::array: {
      if (!b.is_array() || b.size() != a.size()) return false;
      const auto& items = b.get_ref<const ojson::array_t&>();
      std::size_t i = 0;
      for (const Json& e : a) {
        if (!same_as_tree(e, items[i++])) return false;
      }
      return true;
    }
    case Json::Type::object: {
      if (!b.is_object() || b.size() != a.size()) return false;
      auto it = b.get_ref<const ojson::object_t&>().begin();
      for (const JsonMember& m : a.members()) {
        if (m.first != it->first || !same_as_tree(m.second, it->second)) return false;
        ++it;
      }
      return true;
    }
  }
  return false;
}

// Both kinds of node are placed in turn in the same blocks: each keeps the alignment of the other.
static_assert(sizeof(Json) % alignof(JsonMember) == 0 && sizeof(JsonMember) % alignof(Json) == 0 &&
              alignof(JsonMember) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

// Fills nodes from a document or a tree, a container's children in one run of the arena (so that
// a container is a pointer and a count), its grandchildren after them.
class JsonArenaBuilder {
 public:
  explicit JsonArenaBuilder(ReadReceipt::Arena& arena) : arena_(arena) {}

  // The value at slot i of `doc` into `out`, a container left pending (its children are built by
  // build_children when first read); the slot after the value's subtree.
  static std::uint32_t fill_one(Json& out, const common::JsonDocument& doc, std::uint32_t i, const ReadReceipt* owner) {
    using D = common::JsonDocument;
    const D::Node n = doc.node(i);
    switch (n.head & 0xF) {
      case D::kNull: out.type_ = Json::Type::null; return i + 1;
      case D::kFalse:
      case D::kTrue:
        out.type_ = Json::Type::boolean;
        out.boolean_ = (n.head & 0xF) == D::kTrue;
        return i + 1;
      case D::kSmallUnsigned:
        out.type_ = Json::Type::number_unsigned;
        out.v_.u = n.head >> 4;
        return i + 1;
      case D::kInteger:
        out.type_ = Json::Type::number_integer;
        out.v_.i = std::bit_cast<std::int64_t>(doc.number_bits(i));
        return i + 2;
      case D::kUnsigned:
        out.type_ = Json::Type::number_unsigned;
        out.v_.u = doc.number_bits(i);
        return i + 2;
      case D::kFloat:
        out.type_ = Json::Type::number_float;
        out.v_.d = std::bit_cast<double>(doc.number_bits(i));
        return i + 2;
      case D::kStringInText:
      case D::kStringDecoded: set_string(out, string_at(doc, n)); return i + 1;
      default: {  // an array or an object
        set_container(out, (n.head & 0xF) == D::kArray ? Json::Type::array : Json::Type::object, n.head >> 4);
        if (out.size_ > 0) {  // pending: the slot where size_ goes, the owner where the children go
          out.pending_ = true;
          out.size_ = i;
          out.v_.owner = owner;
        }
        return n.offset;
      }
    }
  }

  // The children of the pending container `node` (at its slot of `doc`), each container among them
  // pending in turn.
  void build_children(const Json& node, const common::JsonDocument& doc, const ReadReceipt* owner) {
    const std::uint32_t slot = node.size_;
    const std::uint32_t count = doc.node(slot).head >> 4;
    std::uint32_t at = slot + 1;
    if (node.type_ == Json::Type::array) {
      Json* elements = take<Json>(count);
      for (std::uint32_t k = 0; k < count; ++k) at = fill_one(elements[k], doc, at, owner);
      node.v_.elements = elements;
    } else {  // an object: key, value, key, value...
      const bool indexed = &node == &owner->root_ && count >= kIndexedMembers && count <= kMaxIndexedMembers;
      // The key table right after the members: room for both in one block.
      if (indexed) make_room(count * sizeof(JsonMember) + kKeyTableSlots);
      JsonMember* members = take<JsonMember>(count);
      for (std::uint32_t k = 0; k < count; ++k) {
        members[k].first = string_at(doc, doc.node(at));
        at = fill_one(members[k].second, doc, at + 1, owner);
      }
      node.v_.members = members;
      if (indexed) index_keys(members, count);
      node.indexed_ = indexed;
    }
    node.size_ = count;
    node.pending_ = false;
  }

  void fill(Json& out, const nlohmann::ordered_json& v) {
    using ojson = nlohmann::ordered_json;
    switch (v.type()) {
      case ojson::value_t::boolean:
        out.type_ = Json::Type::boolean;
        out.boolean_ = v.get<bool>();
        return;
      case ojson::value_t::number_integer:
        out.type_ = Json::Type::number_integer;
        out.v_.i = v.get<std::int64_t>();
        return;
      case ojson::value_t::number_unsigned:
        out.type_ = Json::Type::number_unsigned;
        out.v_.u = v.get<std::uint64_t>();
        return;
      case ojson::value_t::number_float:
        out.type_ = Json::Type::number_float;
        out.v_.d = v.get<double>();
        return;
      case ojson::value_t::string: set_string(out, v.get_ref<const std::string&>()); return;
      case ojson::value_t::array: {
        const auto& items = v.get_ref<const ojson::array_t&>();
        Json* elements = take<Json>(items.size());
        set_container(out, Json::Type::array, items.size());
        out.v_.elements = elements;
        for (std::size_t i = 0; i < items.size(); ++i) fill(elements[i], items[i]);
        return;
      }
      case ojson::value_t::object: {
        const auto& map = v.get_ref<const ojson::object_t&>();
        JsonMember* members = take<JsonMember>(map.size());
        std::size_t n = 0;
        for (const auto& [key, value] : map) {
          members[n].first = key;
          fill(members[n++].second, value);
        }
        set_container(out, Json::Type::object, n);
        out.v_.members = members;
        return;
      }
      default: out.type_ = Json::Type::null; return;  // null, discarded, binary (never read from text)
    }
  }

 private:
  static std::string_view string_at(const common::JsonDocument& doc, const common::JsonDocument::Node& n) {
    const std::string_view from =
        (n.head & 0xF) == common::JsonDocument::kStringDecoded ? doc.decoded_view() : doc.text_view();
    return {from.data() + n.offset, n.head >> 4};
  }
  static void set_string(Json& out, std::string_view s) {
    out.type_ = Json::Type::string;
    out.size_ = static_cast<std::uint32_t>(s.size());
    out.v_.s = s.data();
  }
  static void set_container(Json& out, Json::Type t, std::size_t n) {
    out.type_ = t;
    out.size_ = static_cast<std::uint32_t>(n);
  }

  // `bytes` free in the current block (a new block when they are not).
  void make_room(std::size_t bytes) {
    if (static_cast<std::size_t>(arena_.end - arena_.next) < bytes) {
      const std::size_t size = std::max(bytes, kBlockBytes);
      arena_.blocks.push_back(std::unique_ptr<std::byte[]>(new std::byte[size]));
      arena_.next = arena_.blocks.back().get();
      arena_.end = arena_.next + size;
    }
  }

  // The key table of `count` members (kIndexedMembers..kMaxIndexedMembers of them, distinct
  // keys: the reader keeps one value a key), taken right after them.
  void index_keys(const JsonMember* members, std::uint32_t count) {
    auto* slots = reinterpret_cast<std::uint8_t*>(arena_.next);
    std::memset(slots, 0, kKeyTableSlots);
    for (std::uint32_t k = 0; k < count; ++k) {
      std::size_t at = key_slot(members[k].first);
      while (slots[at] != 0) at = (at + 1) & (kKeyTableSlots - 1);
      slots[at] = static_cast<std::uint8_t>(k + 1);
    }
    arena_.next += kKeyTableSlots;
    arena_.used += kKeyTableSlots;
  }

  // n default-constructed T in the current block, or a new one.
  template <class T>
  T* take(std::size_t n) {
    if (n == 0) return nullptr;
    const std::size_t bytes = n * sizeof(T);
    make_room(bytes);
    T* out = reinterpret_cast<T*>(arena_.next);
    for (std::size_t k = 0; k < n; ++k) new (out + k) T();  // one by one: no array cookie to allow for
    arena_.next += bytes;
    arena_.used += bytes;
    return out;
  }

  static constexpr std::size_t kBlockBytes = 16 * 1024;
  ReadReceipt::Arena& arena_;
};

ReadReceipt::ReadReceipt(common::JsonDocument&& document) : document_(std::move(document)) {
  if (document_.node_count() > 0) JsonArenaBuilder::fill_one(root_, document_, 0, this);
}

void ReadReceipt::build_children(const Json& node) const { JsonArenaBuilder(arena_).build_children(node, document_, this); }

ReadReceipt::ReadReceipt(const nlohmann::ordered_json& tree) : source_tree_(&tree) {
  JsonArenaBuilder(arena_).fill(root_, tree);
}

ReadReceipt::~ReadReceipt() {
  // The whole receipt's tree, when a rule asked for it: freed leaves first (common/json_release.hpp).
  if (converted_) common::release_json(*converted_);
}

const nlohmann::ordered_json& ReadReceipt::tree() const {
  if (source_tree_) return *source_tree_;
  if (!converted_) converted_ = std::make_unique<nlohmann::ordered_json>(to_tree(root_));
  return *converted_;
}

const nlohmann::ordered_json* ReadReceipt::tree_member(const char* key) const {
  if (source_tree_ || converted_) {
    const nlohmann::ordered_json& t = tree();
    if (!t.is_object()) return nullptr;
    const auto& map = t.get_ref<const nlohmann::ordered_json::object_t&>();
    for (auto it = map.rbegin(); it != map.rend(); ++it) {
      if (it->first == key) return &it->second;
    }
    return nullptr;
  }
  const Json* v = root_.find(key);
  if (!v) return nullptr;
  const auto hit = members_.find(std::string_view(key));
  if (hit != members_.end()) return hit->second.get();
  // The last tree of each key this thread converted: shared, so that a receipt still holding it
  // keeps it when another replaces it here. With it the member's input bytes, when known: the
  // same bytes again are the same value without walking it (same_as_tree walks both).
  struct Kept {
    std::shared_ptr<const nlohmann::ordered_json> tree;
    std::optional<std::string> span;
  };
  thread_local std::map<std::string, Kept, std::less<>> last;
  auto at = last.find(std::string_view(key));
  if (at == last.end()) at = last.emplace(key, Kept{}).first;
  Kept& kept = at->second;
  // Bytes of a member beyond this are not kept: a huge record's would double what it holds.
  constexpr std::size_t kMaxSpanBytes = std::size_t{4} << 20;
  std::optional<std::string_view> span = member_span(key);
  if (span && span->size() > kMaxSpanBytes) span.reset();
  const bool same_bytes = kept.tree && span && kept.span && *kept.span == *span;
  if (!same_bytes) {
    if (!kept.tree || !same_as_tree(*v, *kept.tree)) kept.tree = std::make_shared<const nlohmann::ordered_json>(to_tree(*v));
    kept.span = span ? std::optional<std::string>(*span) : std::nullopt;
  }
  return members_.emplace(key, kept.tree).first->second.get();
}

std::optional<std::string_view> ReadReceipt::member_span(std::string_view key) const {
  if (document_.node_count() == 0) return std::nullopt;
  return document_.root().member_span(key);
}

}  // namespace reconcile
