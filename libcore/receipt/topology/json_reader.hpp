#pragma once
// Strict typed reads from nlohmann::json with JSON-Pointer paths in every error.
// Used by the topology-input parser and by receipt extraction (reproduce).
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.hpp"

namespace receipt::topology {

class JsonReader {
 public:
  explicit JsonReader(std::string_view file) : file_(file) {}

  [[nodiscard]] common::Error error(const std::string& path, std::string message) const;

  // `node` must be an object whose keys are all in `allowed` and which has every key in `required`.
  [[nodiscard]] common::Status check_object(const nlohmann::json& node, const std::string& path,
                                            std::initializer_list<std::string_view> allowed,
                                            std::initializer_list<std::string_view> required) const;
  [[nodiscard]] common::Result<double> finite_number(const nlohmann::json& node, const std::string& path) const;
  [[nodiscard]] common::Result<std::int64_t> integer(const nlohmann::json& node, const std::string& path,
                                                     std::int64_t min, std::int64_t max) const;
  [[nodiscard]] common::Result<std::string> string(const nlohmann::json& node, const std::string& path,
                                                   std::size_t max_length) const;
  [[nodiscard]] common::Result<bool> boolean(const nlohmann::json& node, const std::string& path) const;
  // An identifier: ^[a-zA-Z][a-zA-Z0-9_]*$, at most kMaxIdLength bytes.
  [[nodiscard]] common::Result<std::string> identifier(const nlohmann::json& node, const std::string& path) const;
  // An array of identifiers with min_items <= size <= max_items (checked before reading items).
  [[nodiscard]] common::Result<std::vector<std::string>> identifier_array(const nlohmann::json& node,
                                                                          const std::string& path,
                                                                          std::size_t min_items,
                                                                          std::size_t max_items) const;
  // One of `choices`, returned as its index.
  [[nodiscard]] common::Result<std::size_t> one_of(const nlohmann::json& node, const std::string& path,
                                                   std::initializer_list<std::string_view> choices) const;

  [[nodiscard]] const std::string& file() const { return file_; }

 private:
  std::string file_;
};

// Appends one reference token to a JSON Pointer, escaping '~' and '/'.
[[nodiscard]] std::string child_path(const std::string& parent, std::string_view key);
[[nodiscard]] std::string child_path(const std::string& parent, std::size_t index);

// A short rendering of a JSON value's type for messages ("string", "number", ...).
[[nodiscard]] const char* json_type_name(const nlohmann::json& node);

}  // namespace receipt::topology
