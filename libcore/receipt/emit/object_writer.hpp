#pragma once
// ObjectWriter: walks a receipt (nlohmann::ordered_json) along Field layouts and
// writes canonical bytes, keeping the JSON Pointer of the value being written so
// every error names where it happened. Sections supply a callback for `nested`
// fields. Internal to receipt::emit.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/canonical_json.hpp"
#include "common/result.hpp"
#include "receipt/emit/field_layout.hpp"

namespace receipt::emit {

using ojson = nlohmann::ordered_json;
using common::Status;

class ObjectWriter {
 public:
  using Nested = std::function<Status(std::string_view key, const ojson& value)>;

  // Writes `obj` as an object with the layout's fields in order.
  [[nodiscard]] Status object(const ojson& obj, const Layout& layout, const Nested& nested = {});
  // Writes {"<id>": value, ...} iterating `order` (an array of ids); each value by `one`.
  [[nodiscard]] Status ordered_map(const ojson& map, const ojson& order,
                                   const std::function<Status(const ojson&)>& one);
  [[nodiscard]] Status number_map(const ojson& map, const ojson& order);
  // Writes an array, each element by `one`.
  [[nodiscard]] Status array(const ojson& arr, const std::function<Status(const ojson&)>& one);
  [[nodiscard]] Status string_array(const ojson& arr);
  [[nodiscard]] Status scalar(const ojson& v, FieldKind kind);

  // An error at the current JSON Pointer (plus `child`, when given).
  [[nodiscard]] common::Error error(std::string message, std::string_view child = {}) const;

  // Scoped descent into a child key or index for error paths. The key is kept as a view (it must
  // outlive the step: a layout's key or the document's) and escaped only when an error is made.
  class Step {
   public:
    Step(ObjectWriter& w, std::string_view key) : w_(w) { w_.tokens_.push_back({key, 0}); }
    Step(ObjectWriter& w, std::size_t index) : w_(w) { w_.tokens_.push_back({{}, index + 1}); }
    ~Step() { w_.tokens_.pop_back(); }
    Step(const Step&) = delete;
    Step& operator=(const Step&) = delete;

   private:
    ObjectWriter& w_;
  };

  common::CompactJsonWriter& out() { return out_; }
  void set_has_batch(bool b) { has_batch_ = b; }

 private:
  common::CompactJsonWriter out_;
  struct Token {
    std::string_view key;
    std::size_t index_plus_one = 0;  // 0: a key
  };
  std::vector<Token> tokens_;
  bool has_batch_ = false;
};

[[nodiscard]] const char* type_name(const ojson& v);

}  // namespace receipt::emit
