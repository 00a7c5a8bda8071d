#pragma once
// Builds an ordered_json object whose keys are known to be distinct: capacity reserved once and
// entries appended without the ordered map's linear key search. Receipts hold tens of thousands of
// small objects, so this keeps their construction linear and light on allocations.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace receipt::engine {

class JsonObjectBuilder {
 public:
  explicit JsonObjectBuilder(std::size_t capacity) : json_(nlohmann::ordered_json::object()) {
    entries().reserve(capacity);
  }
  JsonObjectBuilder& add(std::string key, nlohmann::ordered_json value) {
    entries().emplace_back(std::move(key), std::move(value));
    return *this;
  }
  [[nodiscard]] nlohmann::ordered_json done() { return std::move(json_); }

 private:
  using Entries = std::vector<std::pair<const std::string, nlohmann::ordered_json>>;
  Entries& entries() { return static_cast<Entries&>(json_.get_ref<nlohmann::ordered_json::object_t&>()); }
  nlohmann::ordered_json json_;
};

}  // namespace receipt::engine
