#include "receipt/emit/object_writer.hpp"

#include <string_view>
#include <unordered_map>

#include "common/json_input.hpp"
#include "common/json_reader.hpp"
#include "common/same_key.hpp"

namespace receipt::emit {

const char* type_name(const ojson& v) {
  switch (v.type()) {
    case ojson::value_t::null: return "null";
    case ojson::value_t::boolean: return "a boolean";
    case ojson::value_t::string: return "a string";
    case ojson::value_t::array: return "an array";
    case ojson::value_t::object: return "an object";
    case ojson::value_t::number_integer:
    case ojson::value_t::number_unsigned:
    case ojson::value_t::number_float: return "a number";
    default: return "an unsupported value";
  }
}

common::Error ObjectWriter::error(std::string message, std::string_view child) const {
  std::string pointer;
  // Appends, not "/" + t: GCC 12 at -O2 reports a false -Wrestrict on the temporary.
  for (const auto& t : tokens_) {
    pointer += '/';
    pointer += t.index_plus_one ? std::to_string(t.index_plus_one - 1) : common::json_pointer_token(t.key);
  }
  if (!child.empty()) {
    pointer += '/';
    pointer += common::json_pointer_token(child);
  }
  return common::Error::malformed(std::move(message), {"", 0, pointer});
}

Status ObjectWriter::scalar(const ojson& v, FieldKind kind) {
  switch (kind) {
    case FieldKind::string:
      if (!v.is_string()) return error(std::string("expected a string, got ") + type_name(v));
      out_.string(v.get_ref<const std::string&>());
      return {};
    case FieldKind::number:
    case FieldKind::nonzero_number:
      if (!v.is_number()) return error(std::string("expected a number, got ") + type_name(v));
      if (auto s = out_.number(v.get<double>()); !s) return error(s.error().message());
      return {};
    case FieldKind::integer:
      if (!v.is_number()) return error(std::string("expected an integer, got ") + type_name(v));
      // Through a double, as JSON.parse would have read it.
      if (auto s = out_.integer(v.get<double>()); !s) return error(s.error().message());
      return {};
    case FieldKind::boolean:
    case FieldKind::true_only:
      if (!v.is_boolean()) return error(std::string("expected a boolean, got ") + type_name(v));
      out_.boolean(v.get<bool>());
      return {};
    case FieldKind::string_array:
      return string_array(v);
    case FieldKind::nested:
      break;
  }
  return error("internal: nested field without a writer");
}

Status ObjectWriter::object(const ojson& obj, const Layout& layout, const Nested& nested) {
  if (!obj.is_object()) return error(std::string("expected an object, got ") + type_name(obj));
  out_.begin_object();
  for (const Field& f : layout.fields) {
    const ojson* it = common::find_member(obj, f.key);
    const bool present = it != nullptr;
    if (f.kind == FieldKind::true_only && !(present && it->is_boolean() && it->get<bool>())) continue;
    if (f.kind == FieldKind::nonzero_number && (!present || (it->is_number() && it->get<double>() == 0))) continue;
    if (!present) {
      if (f.presence != Presence::required) continue;
      return error("missing required field \"" + std::string(f.key) + "\"", f.key);
    }
    if (f.presence == Presence::optional_batched && !has_batch_) continue;
    Step step(*this, f.key);
    out_.key(f.key);
    if (f.kind == FieldKind::nested) {
      if (!nested) return error("internal: no writer for nested field");
      if (auto s = nested(f.key, *it); !s) return s;
    } else if (auto s = scalar(*it, f.kind); !s) {
      return s;
    }
  }
  out_.end_object();
  return {};
}

Status ObjectWriter::ordered_map(const ojson& map, const ojson& order, const std::function<Status(const ojson&)>& one) {
  if (!map.is_object()) return error(std::string("expected an object, got ") + type_name(map));
  if (!order.is_array()) return error("the declared order is not an array");
  // ordered_json lookups are linear, and parameter maps reach 10^4+ entries: follow the
  // map's own order while it agrees with the declared one (the engine's case), and fall
  // back to a hash index built once when it does not.
  auto cursor = map.begin();
  std::unordered_map<std::string_view, const ojson*> index;
  out_.begin_object();
  for (const ojson& id : order) {
    if (!id.is_string()) return error("the declared order contains " + std::string(type_name(id)) + ", not an id");
    const std::string& key = id.get_ref<const std::string&>();
    const ojson* value = nullptr;
    if (cursor != map.end() && common::same_key(cursor.key(), key)) {
      value = &*cursor;
      ++cursor;
    } else {
      if (index.empty()) {
        index.reserve(map.size());
        for (auto it = map.begin(); it != map.end(); ++it) index.emplace(it.key(), &*it);
      }
      if (auto hit = index.find(key); hit != index.end()) value = hit->second;
    }
    if (value == nullptr) return error("missing \"" + key + "\", which the declared order lists", key);
    Step step(*this, std::string_view(key));
    out_.key(key);
    if (auto s = one(*value); !s) return s;
  }
  out_.end_object();
  return {};
}

Status ObjectWriter::number_map(const ojson& map, const ojson& order) {
  return ordered_map(map, order, [this](const ojson& v) { return scalar(v, FieldKind::number); });
}

Status ObjectWriter::array(const ojson& arr, const std::function<Status(const ojson&)>& one) {
  if (!arr.is_array()) return error(std::string("expected an array, got ") + type_name(arr));
  out_.begin_array();
  for (std::size_t i = 0; i < arr.size(); ++i) {
    Step step(*this, i);
    if (auto s = one(arr[i]); !s) return s;
  }
  out_.end_array();
  return {};
}

Status ObjectWriter::string_array(const ojson& arr) {
  return array(arr, [this](const ojson& v) { return scalar(v, FieldKind::string); });
}

}  // namespace receipt::emit
