#pragma once
// The field readers both halves of the strict receipt reader share (receipt_read.cpp,
// model_read.cpp): typed fields at a JSON path of one line of one file, finite numbers in a
// range, one of a list of names. Internal to mlp_audit.
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "common/js_json_text.hpp"
#include "common/json_input.hpp"
#include "common/json_reader.hpp"
#include "common/result.hpp"

namespace mlp_audit {

// Receipts are read as JsonDocuments (8 bytes a value), never as trees.
using View = common::JsonView;

// The value named by the string at `key`, or an error listing the supported names.
template <class V>
common::Result<V> pick(const common::JsonViewFields& f, const char* key, std::initializer_list<std::pair<const char*, V>> names) {
  auto s = f.string(key);
  if (!s.ok()) return s.error();
  std::string expected;
  for (const auto& [name, value] : names) {
    if (*s == name) return value;
    expected += std::string(expected.empty() ? "" : ", ") + "\"" + name + "\"";
  }
  return f.error(key, "is \"" + common::excerpt(*s) + "\"; supported: " + expected);
}

class FieldReader {
 public:
  FieldReader(std::string file, std::int64_t line) : file_(std::move(file)), line_(line) {}
  [[nodiscard]] common::JsonViewFields fields(const View& obj, const std::string& path) const {
    return common::JsonViewFields(obj, file_, line_, path);
  }
  [[nodiscard]] common::Result<double> finite(const common::JsonViewFields& f, const char* key, double lo, double hi) const {
    auto v = f.number(key);
    if (!v.ok()) return v.error();
    if (!(*v >= lo && *v <= hi)) {
      return f.error(key, "is out of range [" + common::js_string(lo) + ", " + common::js_string(hi) + "]");
    }
    return *v;
  }
  // The numbers of the array at `key` (its size already checked by the caller), each an fp32
  // value written exactly, appended to `out`.
  [[nodiscard]] common::Status fp32_entries(const common::JsonViewFields& f, const char* key, const View& arr, std::vector<float>& out) const {
    const common::JsonReader r(file_, line_, common::JsonReader::Dialect::quoting);
    std::size_t j = 0;
    for (const View e : arr.elements()) {
      const std::string path = common::json_child_path(f.pointer(key), j++);
      auto v = r.finite_number(e, path);
      if (!v.ok()) return v.error();
      if (static_cast<double>(static_cast<float>(*v)) != *v) return r.error(path, "is not an fp32 value (written exactly)");
      out.push_back(static_cast<float>(*v));
    }
    return {};
  }
  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] std::int64_t line() const { return line_; }

 protected:
  std::string file_;
  std::int64_t line_;
};

}  // namespace mlp_audit
