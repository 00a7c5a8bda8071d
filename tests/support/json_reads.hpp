#pragma once
// Every typed read of common::JsonReader on one value, each as its value or its error line: a tree
// and a document of the same text must give the same list (json_reader_test, the json_document
// fuzz target).
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "common/json_reader.hpp"

namespace suite_test {

template <class T>
std::string read_outcome(const common::Result<T>& r) {
  if (!r.ok()) return "error: " + r.error().to_string();
  if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    std::string all;
    for (const auto& s : *r) all += s + ";";
    return all;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return *r;
  } else {
    return std::to_string(*r);
  }
}
inline std::string read_outcome(const common::Status& s) { return s.ok() ? "ok" : "error: " + s.error().to_string(); }

template <class Node>
std::vector<std::string> every_read(const common::JsonReader& r, const Node& v) {
  return {read_outcome(r.finite_number(v, "/v")),
          read_outcome(r.unit_interval(v, "/v")),
          read_outcome(r.integer(v, "/v", -5, 1000)),
          read_outcome(r.integer(v, "/v", 0, INT64_MAX)),
          read_outcome(r.unsigned_integer(v, "/v")),
          read_outcome(r.signed_integer(v, "/v")),
          read_outcome(r.string(v, "/v", 4)),
          read_outcome(r.string(v, "/v")),
          read_outcome(r.boolean(v, "/v")),
          read_outcome(r.identifier(v, "/v", 8)),
          read_outcome(r.identifier_array(v, "/v", 1, 3, 8)),
          read_outcome(r.one_of(v, "/v", {"fixed", "learned"})),
          read_outcome(r.array(v, "/v")),
          read_outcome(r.object(v, "/v")),
          read_outcome(r.check_object(v, "/v", {"a", "b"}, {"a"}))};
}

}  // namespace suite_test
