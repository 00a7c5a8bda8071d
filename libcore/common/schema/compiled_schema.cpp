#include "common/schema/compiled_schema.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/json_document.hpp"
#include "common/json_document_shape.hpp"
#include "common/json_input.hpp"
#include "common/json_reader.hpp"
#include "common/json_string.hpp"
#include "common/json_tree_shape.hpp"
#include "common/same_key.hpp"
#include "common/schema/pattern_matcher.hpp"
#include "common/schema/shape_memo.hpp"

namespace common::schema {
// Named, not anonymous: CompiledSchema::Impl (declared in the header) holds these types, and a
// class with external linkage may not hold anonymous-namespace members outside the main file
// (as in a unity batch).
namespace compiled_nodes {

using ojson = nlohmann::ordered_json;
using common::JsonType;
using detail::PatternMatcher;

// ---- one way to read an instance: an ordered_json tree or a JsonDocument ----

// A value of an ordered_json tree read through JsonView's interface, so that one validator runs
// on both. An object's key, a std::string in the tree, is a string value of its own here (as a
// key is a string node in a JsonDocument): "propertyNames" checks it.
class TreeView {
 public:
  explicit TreeView(const ojson& v) : node_(&v) {}
  explicit TreeView(const std::string& key) : key_(&key) {}

  JsonType type() const {
    if (key_ != nullptr) return JsonType::string;
    switch (node_->type()) {
      case ojson::value_t::null: return JsonType::null;
      case ojson::value_t::boolean: return JsonType::boolean;
      case ojson::value_t::number_integer: return JsonType::number_integer;
      case ojson::value_t::number_unsigned: return JsonType::number_unsigned;
      case ojson::value_t::number_float: return JsonType::number_float;
      case ojson::value_t::string: return JsonType::string;
      case ojson::value_t::array: return JsonType::array;
      case ojson::value_t::object: return JsonType::object;
      default: return kOther;
    }
  }
  // binary / discarded: never in a parsed document, and of no JSON type.
  static constexpr auto kOther = static_cast<JsonType>(255);

  bool boolean() const { return node_->get<bool>(); }
  bool is_number() const { return key_ == nullptr && node_->is_number(); }
  bool is_string() const { return key_ != nullptr || node_->is_string(); }
  // Its value's bits as kept (int64, uint64 or double, as its type says).
  std::uint64_t number_bits() const {
    switch (node_->type()) {
      case ojson::value_t::number_integer: return std::bit_cast<std::uint64_t>(*node_->get_ptr<const ojson::number_integer_t*>());
      case ojson::value_t::number_unsigned: return *node_->get_ptr<const ojson::number_unsigned_t*>();
      default: return std::bit_cast<std::uint64_t>(node_->get<double>());
    }
  }
  // What it is a view of (a value or a key): the same for every view of it.
  const void* address() const { return key_ != nullptr ? static_cast<const void*>(key_) : node_; }
  const ojson& tree() const { return *node_; }  // a value's (not a key's)
  static TreeView of(const common::TreeShape::Place& p) { return p.key != nullptr ? TreeView(*p.key) : TreeView(*p.value); }
  double number() const {
    switch (node_->type()) {
      case ojson::value_t::number_integer: return static_cast<double>(*node_->get_ptr<const ojson::number_integer_t*>());
      case ojson::value_t::number_unsigned: return static_cast<double>(*node_->get_ptr<const ojson::number_unsigned_t*>());
      default: return node_->get<double>();
    }
  }
  std::string_view string() const { return key_ != nullptr ? *key_ : node_->get_ref<const std::string&>(); }
  std::size_t size() const { return key_ != nullptr ? 0 : node_->size(); }

  // An array's elements, straight over its vector (ordered_json's own iterator switches on the
  // value's type at every step).
  class ElementIterator {
   public:
    explicit ElementIterator(ojson::array_t::const_iterator it) : it_(it) {}
    TreeView operator*() const { return TreeView(*it_); }
    ElementIterator& operator++() {
      ++it_;
      return *this;
    }
    bool operator!=(const ElementIterator& o) const { return it_ != o.it_; }

   private:
    ojson::array_t::const_iterator it_;
  };
  class MemberIterator {
   public:
    explicit MemberIterator(ojson::object_t::const_iterator it) : it_(it) {}
    TreeView operator*() const { return TreeView(it_->second); }
    TreeView key() const { return TreeView(it_->first); }
    MemberIterator& operator++() {
      ++it_;
      return *this;
    }
    bool operator!=(const MemberIterator& o) const { return it_ != o.it_; }

   private:
    ojson::object_t::const_iterator it_;
  };
  template <class It>
  struct Range {
    It b, e;
    It begin() const { return b; }
    It end() const { return e; }
  };
  // Precondition: an array.
  Range<ElementIterator> elements() const {
    const auto& a = node_->get_ref<const ojson::array_t&>();
    return {ElementIterator(a.cbegin()), ElementIterator(a.cend())};
  }
  Range<MemberIterator> members() const {
    const auto& m = node_->get_ref<const ojson::object_t&>();
    return {MemberIterator(m.cbegin()), MemberIterator(m.cend())};
  }
  std::optional<TreeView> find(std::string_view key) const {
    if (const ojson* v = common::find_member(*node_, key)) return TreeView(*v);
    return std::nullopt;
  }

 private:
  const ojson* node_ = nullptr;
  const std::string* key_ = nullptr;  // set: this is an object's key
};

bool is_number_type(JsonType t) {
  return t == JsonType::number_integer || t == JsonType::number_unsigned || t == JsonType::number_float;
}

// ---- JavaScript-flavoured value helpers (the walking validator's definitions) ----

// JavaScript-style deep equality: numbers by value, objects regardless of key order.
template <class A, class B>
bool json_equal(const A& a, const B& b) {
  const JsonType ta = a.type(), tb = b.type();
  if (is_number_type(ta) && is_number_type(tb)) return a.number() == b.number();
  if (ta != tb) return false;
  switch (ta) {
    case JsonType::object: {
      if (a.size() != b.size()) return false;
      const auto members = a.members();
      for (auto it = members.begin(); it != members.end(); ++it) {
        const auto other = b.find(it.key().string());
        if (!other || !json_equal(*it, *other)) return false;
      }
      return true;
    }
    case JsonType::array: {
      if (a.size() != b.size()) return false;
      const auto eb = b.elements();
      auto j = eb.begin();
      for (const auto x : a.elements()) {
        if (!json_equal(x, *j)) return false;
        ++j;
      }
      return true;
    }
    case JsonType::null: return true;
    case JsonType::boolean: return a.boolean() == b.boolean();
    case JsonType::string: return a.string() == b.string();
    default: return false;
  }
}

bool is_integer(const ojson& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  return std::isfinite(d) && std::trunc(d) == d;
}

template <class V>
bool view_is_integer(const V& v) {
  const JsonType t = v.type();
  if (t == JsonType::number_integer || t == JsonType::number_unsigned) return true;
  if (t != JsonType::number_float) return false;
  const double d = v.number();
  return std::isfinite(d) && std::trunc(d) == d;
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::string number_text(const ojson& v) {
  if (is_integer(v) && std::fabs(v.get<double>()) < 1e15) return std::to_string(static_cast<long long>(v.get<double>()));
  return v.dump();
}

// ---- types as bits ----

enum TypeBit : std::uint8_t {
  kNull = 1,
  kBoolean = 2,
  kObject = 4,
  kArray = 8,
  kString = 16,
  kNumber = 32,
  kInteger = 64,
};
constexpr std::uint8_t kScalarTypes = kNull | kBoolean | kString | kNumber | kInteger;

std::uint8_t type_bit(std::string_view name) {
  if (name == "object") return kObject;
  if (name == "array") return kArray;
  if (name == "string") return kString;
  if (name == "boolean") return kBoolean;
  if (name == "null") return kNull;
  if (name == "number") return kNumber;
  if (name == "integer") return kInteger;
  return 0;
}

// The type names a value answers to, as bits ("integer" includes 2.0).
template <class V>
std::uint8_t instance_types(const V& v) {
  switch (v.type()) {
    case JsonType::null: return kNull;
    case JsonType::boolean: return kBoolean;
    case JsonType::object: return kObject;
    case JsonType::array: return kArray;
    case JsonType::string: return kString;
    case JsonType::number_integer:
    case JsonType::number_unsigned: return kNumber | kInteger;
    case JsonType::number_float: return view_is_integer(v) ? kNumber | kInteger : kNumber;
    default: return 0;
  }
}

// ---- uniqueItems by hashing; hashes agree with json_equal (1 and 1.0 hash alike) ----

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

std::uint64_t hash_text(std::string_view s) { return std::hash<std::string_view>{}(s); }

// A property name's hash for the name tables: its length and up to 16 of its bytes (the first and
// last 8), mixed. Every member of every object is looked up once per document, and a full hash of
// each key cost more than the rest of the look-up; keys sharing those bytes only lengthen a probe
// (the tables hold the schema's own names, so no document can crowd them).
inline std::uint64_t name_hash(std::string_view s) {
  const std::size_t n = s.size();
  const char* p = s.data();
  std::uint64_t head = 0, tail = 0;
  if (n >= 8) {
    std::memcpy(&head, p, 8);
    std::memcpy(&tail, p + n - 8, 8);
  } else if (n >= 4) {
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    head = a;
    tail = b;
  } else if (n > 0) {
    head = static_cast<unsigned char>(p[0]) | (std::uint64_t{static_cast<unsigned char>(p[n / 2])} << 8) |
           (std::uint64_t{static_cast<unsigned char>(p[n - 1])} << 16);
  }
  return mix(head ^ mix(tail + n));
}

template <class V>
std::uint64_t js_hash(const V& v) {
  switch (v.type()) {
    case JsonType::null: return 0x6e756c6cULL;
    case JsonType::boolean: return mix(v.boolean() ? 3 : 2);
    case JsonType::number_integer:
    case JsonType::number_unsigned:
    case JsonType::number_float: {
      double d = v.number();
      if (d == 0) d = 0;  // -0 == 0
      std::uint64_t bits = 0;
      std::memcpy(&bits, &d, sizeof bits);
      return mix(bits ^ 0x51ed270b27a1f9c3ULL);
    }
    case JsonType::string: return mix(hash_text(v.string()) ^ 0x737472ULL);
    case JsonType::array: {
      std::uint64_t h = 0xa77a7ULL + v.size();
      for (const auto e : v.elements()) h = mix(h + js_hash(e));
      return h;
    }
    case JsonType::object: {  // key order does not matter: a sum of the members' hashes
      std::uint64_t sum = 0;
      const auto members = v.members();
      for (auto it = members.begin(); it != members.end(); ++it) {
        sum += mix(hash_text(it.key().string()) * 31 + js_hash(*it));
      }
      return mix(sum ^ (0x0b1ec7ULL + v.size()));
    }
    default: return 7;
  }
}

// An open-addressing set of array indices, keyed by js_hash, equal by json_equal.
class IndexTable {
 public:
  explicit IndexTable(std::size_t n) {
    std::size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    slots_.assign(cap, Slot{});
    mask_ = cap - 1;
  }
  // The slot holding an element equal to a[i], or a free slot (index == 0) to put it in.
  struct Slot {
    std::uint64_t hash = 0;
    std::size_t index = 0;  // element index + 1; 0 = free
  };
  template <class V>
  Slot& find(const std::vector<V>& a, std::size_t i, std::uint64_t h) {
    for (std::size_t at = h & mask_;; at = (at + 1) & mask_) {
      Slot& s = slots_[at];
      if (s.index == 0) return s;
      if (s.hash == h && json_equal(a[s.index - 1], a[i])) return s;
    }
  }

 private:
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
};

// ---- compiled nodes ----

struct CountBound {
  std::size_t value = 0;
  std::string message;
};
struct NumberBound {
  double value = 0;
  std::string message;
};

constexpr std::uint32_t kNoSlot = 0xffffffffU;

// Property names of one object schema (properties, required, dependentRequired) -> slot.
class NameTable {
 public:
  std::uint32_t add(const std::string& name) {
    if (auto found = find(name); found != kNoSlot) return found;
    names_.push_back(name);
    rehash();
    return static_cast<std::uint32_t>(names_.size() - 1);
  }
  std::uint32_t find(std::string_view name) const {
    if (names_.empty()) return kNoSlot;
    for (std::size_t at = name_hash(name) & mask_;; at = (at + 1) & mask_) {
      const std::uint32_t slot = buckets_[at];
      if (slot == kNoSlot) return kNoSlot;
      if (common::same_key(names_[slot], name)) return slot;
    }
  }
  std::size_t size() const { return names_.size(); }
  const std::string& name(std::uint32_t slot) const { return names_[slot]; }

 private:
  void rehash() {
    std::size_t cap = 8;
    while (cap < 2 * names_.size()) cap *= 2;
    buckets_.assign(cap, kNoSlot);
    mask_ = cap - 1;
    for (std::uint32_t s = 0; s < names_.size(); ++s) {
      std::size_t at = name_hash(names_[s]) & mask_;
      while (buckets_[at] != kNoSlot) at = (at + 1) & mask_;
      buckets_[at] = s;
    }
  }
  std::vector<std::string> names_;
  std::vector<std::uint32_t> buckets_;
  std::size_t mask_ = 0;
};

struct Node {
  enum class Kind : std::uint8_t { accept, reject, schema } kind = Kind::accept;

  // $ref
  bool has_ref = false;
  const Node* ref = nullptr;  // nullptr with has_ref: unresolved
  std::string ref_failure;
  // type
  bool has_type = false;
  std::uint8_t types = 0;
  std::string type_message;
  // const, enum
  std::optional<ojson> const_value;
  std::string const_message;
  bool has_enum = false;
  struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view t) const { return std::hash<std::string_view>{}(t); }
  };
  std::unordered_set<std::string, TextHash, std::equal_to<>> enum_strings;
  std::vector<ojson> enum_others;
  std::string enum_allowed;  // the allowed values as the schema lists them, for the error's detail
  // numbers
  bool has_number = false;
  std::optional<NumberBound> minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of;
  // strings
  bool has_string = false;
  std::optional<CountBound> min_length, max_length;
  const PatternMatcher* pattern = nullptr;
  std::string pattern_message;
  // arrays
  bool has_array = false;
  std::optional<CountBound> min_items, max_items;
  bool unique_items = false;
  std::uint8_t unique_scalar_types = 0;  // items' types when all scalar: Ajv's faster scan
  std::vector<std::string> unique_type_names;
  bool has_prefix_items = false;
  std::vector<const Node*> prefix_items;
  const Node* items = nullptr;
  const Node* contains = nullptr;
  // objects
  bool has_object = false;
  bool needs_slots = false;  // required / dependentRequired / properties present
  NameTable names;
  std::vector<const Node*> slot_schema;  // per slot: its "properties" schema or nullptr
  std::vector<std::uint32_t> required;
  struct Dependent {
    std::uint32_t key;
    std::vector<std::uint32_t> needs;
  };
  std::vector<Dependent> dependent_required;
  std::optional<CountBound> min_properties, max_properties;
  std::vector<std::pair<const PatternMatcher*, const Node*>> pattern_properties;
  enum class Additional : std::uint8_t { none, allow, forbid, schema } additional = Additional::none;
  const Node* additional_schema = nullptr;
  const Node* property_names = nullptr;
  bool walks_members = false;  // anything to do per member
  // combinators
  bool has_combinators = false;
  std::vector<const Node*> all_of;
  bool has_any_of = false;
  std::vector<const Node*> any_of;
  bool has_one_of = false;
  std::vector<const Node*> one_of;
  const Node* not_schema = nullptr;
  const Node* if_schema = nullptr;
  const Node* then_schema = nullptr;
  const Node* else_schema = nullptr;
};

}  // namespace compiled_nodes

using namespace compiled_nodes;

struct CompiledSchema::Impl {
  std::deque<Node> nodes;
  std::map<std::string, std::unique_ptr<PatternMatcher>, std::less<>> patterns;
  const Node* root = nullptr;
  // Unique in the process (unlike an address, which a later schema may reuse): RootMemo's key.
  std::uint64_t id = 0;
};

namespace {

// ---- compiling ----

class Compiler {
 public:
  Compiler(const ojson& root, CompiledSchema::Impl& out) : root_(root), out_(out) {}

  const Node* compile(const ojson& s, const std::string& at) {
    if (auto it = memo_.find(&s); it != memo_.end()) return it->second;
    Node& n = out_.nodes.emplace_back();
    memo_[&s] = &n;
    if (s.is_boolean()) {
      n.kind = s.get<bool>() ? Node::Kind::accept : Node::Kind::reject;
      return &n;
    }
    if (!s.is_object()) return &n;  // any other value accepts everything
    n.kind = Node::Kind::schema;
    if (const auto r = s.find("$ref"); r != s.end()) {
      if (!r->is_string()) malformed(at, "$ref", "a string");
      const std::string& ref = r->get_ref<const std::string&>();
      n.has_ref = true;
      if (const ojson* target = resolve(ref)) {
        n.ref = compile(*target, ref);
      } else {
        n.ref_failure = "can't resolve reference " + ref;
      }
    }
    if (const auto t = s.find("type"); t != s.end()) {
      n.has_type = true;
      std::string names;
      if (t->is_string()) {
        names = t->get<std::string>();
        n.types = type_bit(names);
      } else if (t->is_array()) {
        for (const auto& one : *t) {
          if (!one.is_string()) malformed(at, "type", "a string or an array of strings");
          n.types |= type_bit(one.get_ref<const std::string&>());
          if (!names.empty()) names += ',';
          names += one.get_ref<const std::string&>();
        }
      } else {
        malformed(at, "type", "a string or an array of strings");
      }
      n.type_message = "must be " + names;
    }
    if (const auto c = s.find("const"); c != s.end()) {
      n.const_value = *c;
      n.const_message = "must be equal to constant " + c->dump();
    }
    if (const auto e = s.find("enum"); e != s.end()) {
      if (!e->is_array()) malformed(at, "enum", "an array");
      n.has_enum = true;
      for (const auto& option : *e) {
        if (option.is_string()) {
          n.enum_strings.insert(option.get<std::string>());
        } else {
          n.enum_others.push_back(option);
        }
        n.enum_allowed += (n.enum_allowed.empty() ? "allowed: " : ", ") + option.dump();
      }
    }
    compile_number(n, s, at);
    compile_string(n, s, at);
    compile_array(n, s, at);
    compile_object(n, s, at);
    compile_combinators(n, s, at);
    return &n;
  }

 private:
  [[noreturn]] static void malformed(const std::string& at, std::string_view keyword, std::string_view what) {
    throw std::invalid_argument("schema keyword \"" + std::string(keyword) + "\" at " + (at.empty() ? "#" : at) +
                                " must be " + std::string(what));
  }

  static std::string child_at(const std::string& at, std::string_view keyword) {
    return (at.empty() ? std::string("#") : at) + "/" + common::json_pointer_token(keyword);
  }

  // Resolves "#" and "#/a/b~1c/0" against the root document, as the walking validator did.
  const ojson* resolve(const std::string& ref) const {
    if (ref == "#") return &root_;
    if (!ref.starts_with("#/")) return nullptr;
    const ojson* node = &root_;
    std::size_t pos = 2;
    while (pos <= ref.size()) {
      std::size_t next = ref.find('/', pos);
      if (next == std::string::npos) next = ref.size();
      // "~1" -> "/", "~" and the character after it -> "~" (so "~0" -> "~").
      const std::string_view raw = std::string_view(ref).substr(pos, next - pos);
      std::string token;
      for (std::size_t i = 0; i < raw.size();) {
        if (raw[i] == '~') {
          token += raw.substr(i, 2) == "~1" ? '/' : '~';
          i += 2;
        } else {
          token += raw[i++];
        }
      }
      if (node->is_object()) {
        const auto it = node->find(token);
        if (it == node->end()) return nullptr;
        node = &*it;
      } else if (node->is_array()) {
        const std::size_t idx = std::stoul(token);
        if (idx >= node->size()) return nullptr;
        node = &(*node)[idx];
      } else {
        return nullptr;
      }
      pos = next + 1;
    }
    return node;
  }

  const PatternMatcher* pattern(const std::string& source) {
    auto it = out_.patterns.find(source);
    if (it == out_.patterns.end()) it = out_.patterns.emplace(source, std::make_unique<PatternMatcher>(source)).first;
    return it->second.get();
  }

  static std::optional<NumberBound> number_bound(const ojson& s, std::string_view keyword, const std::string& at,
                                                 std::string_view prefix) {
    const auto m = s.find(keyword);
    if (m == s.end()) return std::nullopt;
    if (!m->is_number()) malformed(at, keyword, "a number");
    return NumberBound{m->get<double>(), std::string(prefix) + number_text(*m)};
  }

  static std::optional<CountBound> count_bound(const ojson& s, std::string_view keyword, const std::string& at,
                                               std::string_view prefix, std::string_view suffix) {
    const auto m = s.find(keyword);
    if (m == s.end()) return std::nullopt;
    if (!m->is_number() || !is_integer(*m) || m->get<double>() < 0 || m->get<double>() > 9007199254740992.0)
      malformed(at, keyword, "a non-negative integer");
    return CountBound{m->get<std::size_t>(), std::string(prefix) + number_text(*m) + std::string(suffix)};
  }

  void compile_number(Node& n, const ojson& s, const std::string& at) {
    n.minimum = number_bound(s, "minimum", at, "must be >= ");
    n.maximum = number_bound(s, "maximum", at, "must be <= ");
    n.exclusive_minimum = number_bound(s, "exclusiveMinimum", at, "must be > ");
    n.exclusive_maximum = number_bound(s, "exclusiveMaximum", at, "must be < ");
    n.multiple_of = number_bound(s, "multipleOf", at, "must be multiple of ");
    n.has_number = n.minimum || n.maximum || n.exclusive_minimum || n.exclusive_maximum || n.multiple_of;
  }

  void compile_string(Node& n, const ojson& s, const std::string& at) {
    n.min_length = count_bound(s, "minLength", at, "must NOT have fewer than ", " characters");
    n.max_length = count_bound(s, "maxLength", at, "must NOT have more than ", " characters");
    if (const auto p = s.find("pattern"); p != s.end()) {
      if (!p->is_string()) malformed(at, "pattern", "a string");
      n.pattern = pattern(p->get<std::string>());
      std::string quoted;
      common::append_json_string(quoted, p->get_ref<const std::string&>());
      n.pattern_message = "must match pattern " + quoted;
    }
    n.has_string = n.min_length || n.max_length || n.pattern != nullptr;
  }

  void compile_array(Node& n, const ojson& s, const std::string& at) {
    n.min_items = count_bound(s, "minItems", at, "must NOT have fewer than ", " items");
    n.max_items = count_bound(s, "maxItems", at, "must NOT have more than ", " items");
    if (const auto u = s.find("uniqueItems"); u != s.end()) {
      if (!u->is_boolean()) malformed(at, "uniqueItems", "a boolean");
      n.unique_items = u->get<bool>();
    }
    if (n.unique_items) {
      // Ajv's choice of scan: the types "items" declares, when they are all scalar ones.
      std::vector<std::string> types;
      if (auto items = s.find("items"); items != s.end() && items->is_object()) {
        if (auto t = items->find("type"); t != items->end()) {
          if (t->is_string()) types.push_back(t->get<std::string>());
          if (t->is_array())
            for (const auto& one : *t)
              if (one.is_string()) types.push_back(one.get<std::string>());
        }
      }
      const bool scalar = !types.empty() && std::all_of(types.begin(), types.end(), [](const std::string& t) {
        return t == "string" || t == "number" || t == "integer" || t == "boolean" || t == "null";
      });
      if (scalar) {
        for (const auto& t : types) n.unique_scalar_types |= type_bit(t);
      }
    }
    if (const auto p = s.find("prefixItems"); p != s.end()) {
      if (!p->is_array()) malformed(at, "prefixItems", "an array");
      n.has_prefix_items = true;
      const std::string here = child_at(at, "prefixItems");
      for (std::size_t i = 0; i < p->size(); ++i) n.prefix_items.push_back(compile((*p)[i], here + "/" + std::to_string(i)));
    }
    if (const auto items = s.find("items"); items != s.end()) n.items = compile(*items, child_at(at, "items"));
    if (const auto c = s.find("contains"); c != s.end()) n.contains = compile(*c, child_at(at, "contains"));
    n.has_array = n.min_items || n.max_items || n.unique_items || n.has_prefix_items || n.items || n.contains;
  }

  static std::vector<std::string> string_list(const ojson& v, const std::string& at, std::string_view keyword) {
    if (!v.is_array()) malformed(at, keyword, "an array of strings");
    std::vector<std::string> out;
    for (const auto& e : v) {
      if (!e.is_string()) malformed(at, keyword, "an array of strings");
      out.push_back(e.get<std::string>());
    }
    return out;
  }

  void compile_object(Node& n, const ojson& s, const std::string& at) {
    bool any = false;
    if (const auto r = s.find("required"); r != s.end()) {
      for (const auto& name : string_list(*r, at, "required")) n.required.push_back(n.names.add(name));
      any = true;
    }
    if (const auto d = s.find("dependentRequired"); d != s.end()) {
      if (!d->is_object()) malformed(at, "dependentRequired", "an object");
      for (const auto& [key, needs] : d->items()) {
        Node::Dependent dep{n.names.add(key), {}};
        for (const auto& name : string_list(needs, at, "dependentRequired")) dep.needs.push_back(n.names.add(name));
        n.dependent_required.push_back(std::move(dep));
      }
      any = true;
    }
    n.min_properties = count_bound(s, "minProperties", at, "must NOT have fewer than ", " properties");
    n.max_properties = count_bound(s, "maxProperties", at, "must NOT have more than ", " properties");
    std::vector<std::pair<std::uint32_t, const Node*>> props;
    if (const auto p = s.find("properties"); p != s.end() && p->is_object()) {
      const std::string here = child_at(at, "properties");
      for (const auto& [key, sub] : p->items())
        props.emplace_back(n.names.add(key), compile(sub, here + "/" + common::json_pointer_token(key)));
      n.walks_members = n.walks_members || !props.empty();
    }
    n.slot_schema.assign(n.names.size(), nullptr);
    for (const auto& [slot, node] : props) n.slot_schema[slot] = node;
    n.needs_slots = n.names.size() != 0;
    if (const auto p = s.find("patternProperties"); p != s.end() && p->is_object()) {
      const std::string here = child_at(at, "patternProperties");
      for (const auto& [source, sub] : p->items())
        n.pattern_properties.emplace_back(pattern(source), compile(sub, here + "/" + common::json_pointer_token(source)));
      n.walks_members = n.walks_members || !n.pattern_properties.empty();
    }
    if (const auto a = s.find("additionalProperties"); a != s.end()) {
      if (a->is_boolean()) {
        n.additional = a->get<bool>() ? Node::Additional::allow : Node::Additional::forbid;
      } else {
        n.additional = Node::Additional::schema;
        n.additional_schema = compile(*a, child_at(at, "additionalProperties"));
      }
      n.walks_members = n.walks_members || n.additional != Node::Additional::allow;
    }
    if (const auto p = s.find("propertyNames"); p != s.end()) {
      n.property_names = compile(*p, child_at(at, "propertyNames"));
      n.walks_members = true;
    }
    n.has_object = any || n.min_properties || n.max_properties || n.walks_members;
  }

  std::vector<const Node*> schema_list(const ojson& s, std::string_view keyword, const std::string& at, bool& present) {
    std::vector<const Node*> out;
    const auto it = s.find(keyword);
    present = it != s.end();
    if (!present) return out;
    if (!it->is_array()) malformed(at, keyword, "an array of schemas");
    const std::string here = child_at(at, keyword);
    for (std::size_t i = 0; i < it->size(); ++i) out.push_back(compile((*it)[i], here + "/" + std::to_string(i)));
    return out;
  }

  void compile_combinators(Node& n, const ojson& s, const std::string& at) {
    bool all = false;
    n.all_of = schema_list(s, "allOf", at, all);
    n.any_of = schema_list(s, "anyOf", at, n.has_any_of);
    n.one_of = schema_list(s, "oneOf", at, n.has_one_of);
    if (const auto x = s.find("not"); x != s.end()) n.not_schema = compile(*x, child_at(at, "not"));
    if (const auto x = s.find("if"); x != s.end()) {
      const auto then_it = s.find("then");
      const auto else_it = s.find("else");
      if (then_it != s.end() || else_it != s.end()) {  // an "if" alone decides nothing
        n.if_schema = compile(*x, child_at(at, "if"));
        if (then_it != s.end()) n.then_schema = compile(*then_it, child_at(at, "then"));
        if (else_it != s.end()) n.else_schema = compile(*else_it, child_at(at, "else"));
      }
    }
    n.has_combinators = !n.all_of.empty() || n.has_any_of || n.has_one_of || n.not_schema || n.if_schema;
  }

  const ojson& root_;
  CompiledSchema::Impl& out_;
  std::unordered_map<const ojson*, Node*> memo_;
};

// ---- running ----

// The root members of the last documents this thread validated that passed their property's
// schema, as their input bytes (JsonView::member_span), by schema, object node (a root may be
// checked against several: allOf, $ref, if/then) and slot: a stream's records repeat their
// topology and policies, which need not be walked again. Only for documents whose shape is too big
// to keep (shape_memo.hpp serves the others, whole). Only spans of kMinBytes to kMaxBytes are
// kept, kMaxTotalBytes in all: a shorter member costs less to check than to compare and copy, and
// more would double what a huge record holds.
class RootMemo {
 public:
  static constexpr std::size_t kMinBytes = 64;
  static constexpr std::size_t kMaxBytes = std::size_t{4} << 20;
  static constexpr std::size_t kMaxTotalBytes = std::size_t{16} << 20;
  // The spans kept for the object node `n` of schema `schema`, by slot.
  std::vector<std::string>& passed(std::uint64_t schema, const Node& n) {
    for (Entry& e : entries_) {
      if (e.schema == schema && e.node == &n) return e.passed;
    }
    if (entries_.size() >= kMaxEntries) {
      entries_.clear();
      total_ = 0;
    }
    entries_.push_back({schema, &n, std::vector<std::string>(n.names.size())});
    return entries_.back().passed;
  }
  // `slot` (one of passed()'s) now holds `span`, or nothing when it is not to be kept.
  void keep(std::string& slot, std::optional<std::string_view> span) {
    total_ -= slot.size();
    const bool kept = span && span->size() >= kMinBytes && span->size() <= kMaxBytes &&
                      total_ + span->size() <= kMaxTotalBytes;
    if (kept) {
      slot.assign(*span);
    } else {
      slot.clear();
    }
    total_ += slot.size();
  }

 private:
  static constexpr std::size_t kMaxEntries = 16;
  std::size_t total_ = 0;  // bytes of the spans held
  struct Entry {
    std::uint64_t schema;
    const Node* node;
    std::vector<std::string> passed;
  };
  std::vector<Entry> entries_;
};

// The RootMemo of this thread (one for every kind of Run).
RootMemo& root_memo() {
  thread_local RootMemo memo;
  return memo;
}

template <class Shape>
ShapeMemo<Shape>& shape_memo() {
  thread_local ShapeMemo<Shape> memo;
  return memo;
}

// One validation of one instance; V is how the instance is read (TreeView or common::JsonView).
// A Run that records (kRecord) keeps the errors with their paths; one that does not only
// answers whether the instance is valid, stopping at the first failure, without the paths'
// frames or the errors' texts: validate() asks it first, and a valid instance (nearly every
// one) is never walked again.
template <class V, bool kRecord>
class Run {
 public:
  // With `checks`, the walk (which then reads no RootMemo) notes each check that reads a value: a
  // document's by its slot, a tree's by what it read (TreeView::address(), into `read`, the
  // check's place its index there until name_places() names the tree's place).
  Run(std::size_t max_errors, std::uint64_t schema, std::vector<LeafCheck>* checks = nullptr,
      std::vector<const void*>* read = nullptr)
      : max_(max_errors), schema_(schema), checks_(checks), read_(read) {
    if constexpr (kRecord) frames_.reserve(32);
  }

  // What `check` answers for `v` now: as a walk would, had it reached that check.
  bool answers(const LeafCheck& c, const V& v) {
    const Node& n = *c.node;
    switch (c.kind) {
      case LeafCheck::Kind::types: return (n.types & instance_types(v)) != 0;
      case LeafCheck::Kind::constant: return json_equal(TreeView(*n.const_value), v);
      case LeafCheck::Kind::enumeration: return in_enum(n, v);
      case LeafCheck::Kind::number: return number(n, v);
      case LeafCheck::Kind::text: return text(n, v.string());
      case LeafCheck::Kind::unique: return !first_duplicate(n, v);
    }
    return false;
  }

  // True when `v` is valid against `n`; records errors unless probing. Once an error is
  // recorded and the list is full (or, when probing, at the first failure) it returns.
  bool check(const Node& n, const V& v) {
    if (n.kind != Node::Kind::schema) {
      if (n.kind == Node::Kind::accept) return true;
      return fail("boolean schema is false");
    }
    bool ok = true;
    if (n.has_ref) {
      if (n.ref == nullptr) return fail(n.ref_failure);
      ok = check(*n.ref, v);
      if (!ok && full()) return false;
    }
    if (n.has_type) {
      const bool typed = (n.types & instance_types(v)) != 0;
      // Only a float's answer can change with its value: 2.0 is an integer, 2.5 is not.
      if ((n.types & kNumber) == 0 && v.type() == JsonType::number_float) note(LeafCheck::Kind::types, n, v, typed);
      if (!typed) return fail(n.type_message);
    }
    if (n.const_value) {
      const bool equal = json_equal(TreeView(*n.const_value), v);
      note(LeafCheck::Kind::constant, n, v, equal);
      if (!equal) {
        ok = fail(n.const_message);
        if (full()) return false;
      }
    }
    if (n.has_enum) {
      const bool allowed = in_enum(n, v);
      note(LeafCheck::Kind::enumeration, n, v, allowed);
      if (!allowed) {
        ok = fail("must be equal to one of the allowed values", n.enum_allowed);
        if (full()) return false;
      }
    }
    switch (v.type()) {
      case JsonType::number_integer:
      case JsonType::number_unsigned:
      case JsonType::number_float:
        if (n.has_number) {
          const bool within = number(n, v);
          note(LeafCheck::Kind::number, n, v, within);
          ok = within && ok;
        }
        break;
      case JsonType::string:
        if (n.has_string) {
          const bool fits = text(n, v.string());
          note(LeafCheck::Kind::text, n, v, fits);
          ok = fits && ok;
        }
        break;
      case JsonType::array:
        if (n.has_array) ok = array(n, v) && ok;
        break;
      case JsonType::object:
        if (n.has_object) ok = object(n, v) && ok;
        break;
      default: break;
    }
    if (!ok && full()) return false;
    if (n.has_combinators) ok = combinators(n, v) && ok;
    return ok;
  }

  std::vector<common::Error> take() { return std::move(errors_); }

 private:
  struct Frame {
    std::string_view key;
    std::size_t index;  // kKeyFrame: a member, else an array index
  };
  static constexpr std::size_t kKeyFrame = SIZE_MAX;

  void note(LeafCheck::Kind kind, const Node& n, const V& v, bool answer) {
    if constexpr (!kRecord) {
      if (checks_ == nullptr) return;
      if constexpr (std::is_same_v<V, common::JsonView>) {
        checks_->push_back({kind, answer, v.index(), &n});
      } else {
        checks_->push_back({kind, answer, static_cast<std::uint32_t>(read_->size()), &n});
        read_->push_back(v.address());
      }
    }
  }

  // When probing, the first failure decides: nothing is recorded.
  bool full() const {
    if constexpr (kRecord) {
      return quiet_ > 0 || errors_.size() >= max_;
    } else {
      return true;
    }
  }
  bool recording() const {
    if constexpr (kRecord) {
      return quiet_ == 0 && errors_.size() < max_;
    } else {
      return false;
    }
  }

  std::string path() const {
    std::string p;
    for (const auto& f : frames_) {
      p += '/';
      if (f.index == kKeyFrame) {
        p += common::json_pointer_token(f.key);
      } else {
        p += std::to_string(f.index);
      }
    }
    return p;
  }

  bool fail(std::string_view message, std::string_view detail = {}) {
    if (recording()) {
      errors_.push_back(common::Error::malformed(std::string(message), {"", 0, path()}).with_detail(std::string(detail)));
    }
    return false;
  }

  bool probe(const Node& n, const V& v) {
    if constexpr (!kRecord) return check(n, v);
    ++quiet_;
    const bool ok = check(n, v);
    --quiet_;
    return ok;
  }

  template <class Step>
  bool child(const Node& n, const V& v, Step step) {
    if constexpr (!kRecord) return check(n, v);
    if constexpr (std::is_same_v<Step, std::size_t>) {
      frames_.push_back({{}, step});
    } else {
      frames_.push_back({step, kKeyFrame});
    }
    const bool ok = check(n, v);
    frames_.pop_back();
    return ok;
  }

  static bool in_enum(const Node& n, const V& v) {
    if (v.type() == JsonType::string) return n.enum_strings.contains(v.string());
    for (const auto& option : n.enum_others)
      if (json_equal(TreeView(option), v)) return true;
    return false;
  }

  bool number(const Node& n, const V& v) {
    const double x = v.number();
    if (n.minimum && !(x >= n.minimum->value)) return fail(n.minimum->message);
    if (n.maximum && !(x <= n.maximum->value)) return fail(n.maximum->message);
    if (n.exclusive_minimum && !(x > n.exclusive_minimum->value)) return fail(n.exclusive_minimum->message);
    if (n.exclusive_maximum && !(x < n.exclusive_maximum->value)) return fail(n.exclusive_maximum->message);
    if (n.multiple_of) {
      const double q = x / n.multiple_of->value;
      if (!std::isfinite(q) || std::trunc(q) != q) return fail(n.multiple_of->message);
    }
    return true;
  }

  bool text(const Node& n, std::string_view str) {
    if (n.min_length || n.max_length) {
      const std::size_t length = code_points(str);
      if (n.min_length && length < n.min_length->value) return fail(n.min_length->message);
      if (n.max_length && length > n.max_length->value) return fail(n.max_length->message);
    }
    if (n.pattern != nullptr && !n.pattern->search(str)) return fail(n.pattern_message);
    return true;
  }

  // The pair Ajv reports for uniqueItems, in its (j, i) message order. Ajv scans from the end:
  // when the items schema declares only scalar types it keeps the nearest later index of each
  // value (skipping items of other types), otherwise it compares each item with every earlier one.
  static std::optional<std::pair<std::size_t, std::size_t>> first_duplicate(const Node& n, const V& array) {
    std::vector<V> v;  // the elements, indexed
    v.reserve(array.size());
    for (const auto e : array.elements()) v.push_back(e);
    const std::size_t size = v.size();
    const std::uint8_t scalar = n.unique_scalar_types;
    if (size < 2) return std::nullopt;
    if (size <= 8) {  // small: the pairwise scans themselves
      if (scalar != 0) {
        for (std::size_t i = size; i-- > 0;) {
          if ((instance_types(v[i]) & scalar) == 0) continue;
          for (std::size_t k = i + 1; k < size; ++k)
            if ((instance_types(v[k]) & scalar) != 0 && json_equal(v[i], v[k])) return std::make_pair(k, i);
        }
        return std::nullopt;
      }
      for (std::size_t i = size; i-- > 0;)
        for (std::size_t j = i; j-- > 0;)
          if (json_equal(v[i], v[j])) return std::make_pair(j, i);
      return std::nullopt;
    }
    IndexTable table(size);
    if (scalar != 0) {
      // From the end: the first item with an equal (typed) item after it; the items after it
      // are pairwise distinct, so the one equal to it is the nearest.
      for (std::size_t i = size; i-- > 0;) {
        if ((instance_types(v[i]) & scalar) == 0) continue;
        const std::uint64_t h = js_hash(v[i]);
        auto& slot = table.find(v, i, h);
        if (slot.index != 0) return std::make_pair(slot.index - 1, i);
        slot = {h, i + 1};
      }
      return std::nullopt;
    }
    // The largest i with an equal item before it, paired with the nearest such item: scanning
    // forward, the table keeps the last index of each distinct value.
    std::optional<std::pair<std::size_t, std::size_t>> found;
    for (std::size_t i = 0; i < size; ++i) {
      const std::uint64_t h = js_hash(v[i]);
      auto& slot = table.find(v, i, h);
      if (slot.index != 0) found = std::make_pair(slot.index - 1, i);
      slot = {h, i + 1};
    }
    return found;
  }

  bool array(const Node& n, const V& v) {
    bool ok = true;
    const std::size_t size = v.size();
    if (n.min_items && size < n.min_items->value) return fail(n.min_items->message);
    if (n.max_items && size > n.max_items->value) return fail(n.max_items->message);
    if (n.unique_items) {
      const auto dup = first_duplicate(n, v);
      note(LeafCheck::Kind::unique, n, v, !dup);
      if (dup) {
        if (!recording()) return false;
        return fail("must NOT have duplicate items (items ## " + std::to_string(dup->first) + " and " +
                    std::to_string(dup->second) + " are identical)");
      }
    }
    // Elements in order: prefixItems' schemas first, then "items" for the rest (a JsonDocument's
    // elements are reached by walking, not by index).
    const bool items = n.items != nullptr && !(n.items->kind == Node::Kind::accept);
    if (n.has_prefix_items || items) {
      std::size_t i = 0;
      for (const auto e : v.elements()) {
        if (n.has_prefix_items && i < n.prefix_items.size()) {
          ok = child(*n.prefix_items[i], e, i) && ok;
        } else if (items) {
          ok = child(*n.items, e, i) && ok;
        } else {
          break;
        }
        if (!ok && full()) return false;
        ++i;
      }
    }
    if (n.contains != nullptr) {
      bool any = false;
      for (const auto e : v.elements()) {
        if (probe(*n.contains, e)) {
          any = true;
          break;
        }
      }
      if (!any) return fail("must contain at least 1 valid item(s)");
    }
    return ok;
  }

  bool object(const Node& n, const V& v) {
    const auto members = v.members();
    const std::size_t size = v.size();
    // Each member's slot in the schema's name table, and which slots are present.
    const std::size_t base = slots_.size();
    const std::size_t mark_base = present_.size();
    struct Restore {
      Run& r;
      std::size_t base, mark_base;
      ~Restore() {
        r.slots_.resize(base);
        r.present_.resize(mark_base);
      }
    } restore{*this, base, mark_base};
    if (n.needs_slots) {
      slots_.resize(base + size);
      present_.resize(mark_base + n.names.size(), 0);
      std::size_t i = 0;
      for (auto it = members.begin(); it != members.end(); ++it) {
        const std::uint32_t slot = n.names.find(it.key().string());
        slots_[base + i++] = slot;
        if (slot != kNoSlot) present_[mark_base + slot] = 1;
      }
    }
    for (const std::uint32_t r : n.required) {
      if (present_[mark_base + r] == 0) {
        if (!recording()) return false;
        return fail("must have required property '" + n.names.name(r) + "'");
      }
    }
    for (const auto& dep : n.dependent_required) {
      if (present_[mark_base + dep.key] == 0) continue;
      for (const std::uint32_t need : dep.needs) {
        if (present_[mark_base + need] == 0) {
          if (!recording()) return false;
          return fail("must have property " + n.names.name(need) + " when property " + n.names.name(dep.key) +
                      " is present");
        }
      }
    }
    if (n.min_properties && size < n.min_properties->value) return fail(n.min_properties->message);
    if (n.max_properties && size > n.max_properties->value) return fail(n.max_properties->message);
    if (!n.walks_members) return true;
    bool ok = true;
    std::size_t i = 0;
    for (auto it = members.begin(); it != members.end(); ++it) {
      const V name = it.key();
      const std::string_view key = name.string();
      const V value = *it;
      const std::uint32_t slot = n.needs_slots ? slots_[base + i] : kNoSlot;
      ++i;
      if (n.property_names != nullptr && !probe(*n.property_names, name)) {
        if (!recording()) return false;
        return fail("property name '" + std::string(key) + "' is invalid");
      }
      bool matched = false;
      if (slot != kNoSlot && n.slot_schema[slot] != nullptr) {
        matched = true;
        ok = property(n, slot, v, it, key) && ok;
        if (!ok && full()) return false;
      }
      for (const auto& [pattern, sub] : n.pattern_properties) {
        if (pattern->search(key)) {
          matched = true;
          ok = child(*sub, value, key) && ok;
          if (!ok && full()) return false;
        }
      }
      if (!matched) {
        if (n.additional == Node::Additional::forbid) {
          if (recording()) fail("must NOT have additional properties ('" + std::string(key) + "')");
          ok = false;
          if (full()) return false;
        } else if (n.additional == Node::Additional::schema) {
          ok = child(*n.additional_schema, value, key) && ok;
          if (!ok && full()) return false;
        }
      }
    }
    return ok;
  }

  // The member `it` of `object` against its property's schema (slot `slot` of `n`), or, for a
  // root member of a document whose bytes passed that schema just before, nothing to do.
  template <class MemberIterator>
  bool property(const Node& n, std::uint32_t slot, const V& object, const MemberIterator& it, std::string_view key) {
    const Node& schema = *n.slot_schema[slot];
    if constexpr (std::is_same_v<V, common::JsonView>) {
      if (object.index() == 0 && schema_ != 0 && checks_ == nullptr) {
        RootMemo& memo = root_memo();
        // Held across child(), which reads no root: nothing adds an entry meanwhile.
        std::string& passed = memo.passed(schema_, n)[slot];
        const auto span = object.member_span(it);
        if (span && !passed.empty() && passed == *span) return true;
        const bool ok = child(schema, *it, key);
        memo.keep(passed, ok ? span : std::nullopt);
        return ok;
      }
    }
    return child(schema, *it, key);
  }

  bool combinators(const Node& n, const V& v) {
    bool ok = true;
    for (const Node* sub : n.all_of) {
      ok = check(*sub, v) && ok;
      if (!ok && full()) return false;
    }
    if (n.has_any_of) {
      bool matched = false;
      for (const Node* sub : n.any_of) {
        if (probe(*sub, v)) {
          matched = true;
          break;
        }
      }
      if (!matched) {
        ok = fail("must match a schema in anyOf");
        if (full()) return false;
      }
    }
    if (n.has_one_of) {
      int matches = 0;
      for (const Node* sub : n.one_of) {
        matches += probe(*sub, v) ? 1 : 0;
        if (matches > 1) break;
      }
      if (matches != 1) {
        ok = fail("must match exactly one schema in oneOf");
        if (full()) return false;
      }
    }
    if (n.not_schema != nullptr && probe(*n.not_schema, v)) {
      ok = fail("must NOT be valid");
      if (full()) return false;
    }
    if (n.if_schema != nullptr) {
      const bool holds = probe(*n.if_schema, v);
      const Node* branch = holds ? n.then_schema : n.else_schema;
      // Checked once: when it fails its own reasons are recorded, then the branch's.
      if (branch != nullptr && !check(*branch, v)) {
        ok = fail(holds ? "must match \"then\" schema" : "must match \"else\" schema");
        if (full()) return false;
      }
    }
    return ok;
  }

  std::size_t max_;
  std::uint64_t schema_;  // CompiledSchema::Impl::id
  std::vector<LeafCheck>* checks_;
  std::vector<const void*>* read_;
  int quiet_ = 0;
  std::vector<common::Error> errors_;
  std::vector<Frame> frames_;
  std::vector<std::uint32_t> slots_;
  std::vector<std::uint8_t> present_;
};

}  // namespace

CompiledSchema::CompiledSchema(const ojson& schema) : impl_(std::make_unique<Impl>()) {
  static std::atomic<std::uint64_t> last_id{0};
  impl_->id = ++last_id;
  impl_->root = Compiler(schema, *impl_).compile(schema, "");
}

CompiledSchema::~CompiledSchema() = default;

namespace {

// Whether the last valid instance of `last`'s shape, walked, would answer for an instance of that
// shape (`at(place)` its value there) what it answered: then that instance is valid too.
template <class V, class Shape, class At>
bool answers_as_before(const typename ShapeMemo<Shape>::Entry& last, At at) {
  Run<V, false> run(1, last.schema);
  for (std::size_t k = 0; k < last.checks.size(); ++k) {
    const LeafCheck& c = last.checks[k];
    const V v = at(c.place);
    if (!last.same_value(k, v) && run.answers(c, v) != c.answer) return false;
  }
  return true;
}

// Whether the document `root` is the root of is valid: as the last valid one of its shape was,
// or walked, noting its checks of values for the next.
bool valid_document(const CompiledSchema::Impl& schema, common::JsonView root) {
  const common::JsonDocument& doc = root.document();
  const auto at = [&doc](std::uint32_t place) { return common::JsonView(&doc, place); };
  auto& memo = shape_memo<common::DocumentShape>();
  if (const auto* last = memo.find(schema.id);
      last != nullptr && last->shape.matches(doc) && answers_as_before<common::JsonView, common::DocumentShape>(*last, at)) {
    return true;
  }
  common::DocumentShape shape;
  // A shape too big to keep: the walk that skips root members seen before (RootMemo).
  if (!shape.take(doc)) return Run<common::JsonView, false>(1, schema.id).check(*schema.root, root);
  std::vector<LeafCheck> checks;
  if (!Run<common::JsonView, false>(1, schema.id, &checks).check(*schema.root, root)) return false;
  memo.keep(schema.id, std::move(shape), std::move(checks), at);
  return true;
}

// Each check's place in `places` (a tree's, in its TreeShape's order), from what it read
// (`read[check.place]`): one pass over the places with a small table of the addresses read.
// False when one read is at no place (never: a walk reads only the tree's values and keys).
bool name_places(std::vector<LeafCheck>& checks, const std::vector<const void*>& read,
                 const std::vector<common::TreeShape::Place>& places) {
  constexpr std::uint32_t kNone = 0xFFFFFFFFU;
  std::size_t capacity = 16;
  while (capacity < 2 * read.size()) capacity *= 2;
  struct Slot {
    const void* address = nullptr;
    std::uint32_t place = kNone;
  };
  std::vector<Slot> table(capacity);
  const auto slot_of = [&](const void* a) -> Slot& {
    std::size_t at = (reinterpret_cast<std::uintptr_t>(a) * 0x9E3779B97F4A7C15ULL) >> 40 & (capacity - 1);
    while (table[at].address != nullptr && table[at].address != a) at = (at + 1) & (capacity - 1);
    return table[at];
  };
  for (const void* a : read) slot_of(a).address = a;
  for (std::uint32_t i = 0; i < places.size(); ++i) {
    const void* a = TreeView::of(places[i]).address();
    if (Slot& s = slot_of(a); s.address == a) s.place = i;
  }
  for (LeafCheck& c : checks) {
    c.place = slot_of(read[c.place]).place;
    if (c.place == kNone) return false;
  }
  return true;
}

// The same for an ordered_json tree (whose places are listed by its TreeShape).
bool valid_tree(const CompiledSchema::Impl& schema, const ojson& tree) {
  thread_local std::vector<common::TreeShape::Place> places;
  const auto at = [](std::uint32_t place) { return TreeView::of(places[place]); };
  auto& memo = shape_memo<common::TreeShape>();
  if (const auto* last = memo.find(schema.id);
      last != nullptr && last->shape.matches(tree, places) && answers_as_before<TreeView, common::TreeShape>(*last, at)) {
    return true;
  }
  // A tree too big for its shape to be kept is walked alone; the next of this schema whose root
  // is as big is taken for another such (a guess that costs nothing when wrong but a memo missed)
  // rather than taken to the shape's limit again.
  thread_local struct {
    std::uint64_t schema = 0;
    std::size_t root_size = 0;
  } too_big;
  if (too_big.schema == schema.id && too_big.root_size == tree.size()) {
    return Run<TreeView, false>(1, schema.id).check(*schema.root, TreeView(tree));
  }
  std::vector<LeafCheck> checks;
  std::vector<const void*> read;
  if (!Run<TreeView, false>(1, schema.id, &checks, &read).check(*schema.root, TreeView(tree))) return false;
  common::TreeShape shape;
  if (!shape.take(tree, places)) {
    too_big = {schema.id, tree.size()};
    return true;
  }
  if (name_places(checks, read, places)) memo.keep(schema.id, std::move(shape), std::move(checks), at);
  return true;
}

// Whether `instance` is valid, then, only when it is not, its errors.
template <class V>
std::vector<common::Error> validate_with(const CompiledSchema::Impl& schema, const V& instance, std::size_t max_errors) {
  if constexpr (std::is_same_v<V, common::JsonView>) {
    if (instance.index() == 0 ? valid_document(schema, instance) : Run<V, false>(1, schema.id).check(*schema.root, instance)) {
      return {};
    }
  } else {
    if (valid_tree(schema, instance.tree())) return {};
  }
  Run<V, true> run(max_errors == 0 ? 1 : max_errors, schema.id);
  run.check(*schema.root, instance);
  return run.take();
}

}  // namespace

std::vector<common::Error> CompiledSchema::validate(const ojson& instance, std::size_t max_errors) const {
  return validate_with(*impl_, TreeView(instance), max_errors);
}

std::vector<common::Error> CompiledSchema::validate(common::JsonView instance, std::size_t max_errors) const {
  return validate_with(*impl_, instance, max_errors);
}

bool CompiledSchema::is_valid(const ojson& instance) const { return valid_tree(*impl_, instance); }

}  // namespace common::schema
