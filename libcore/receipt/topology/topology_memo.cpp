#include "receipt/topology/topology_memo.hpp"

#include <bit>
#include <cstdint>
#include <optional>
#include <string>

namespace receipt::topology {
namespace {

using nlohmann::ordered_json;

// A receipt's topology of at most this many parameters is remembered. A larger one is parsed
// at a small fraction of its record's cost, and a copy of it would stay held.
constexpr std::size_t kMaxRememberedParameters = 1024;

struct Remembered {
  ordered_json block;
  std::optional<std::string> source;  // its input bytes, when they were given
  std::string path;
  ParseOptions options;
  std::optional<common::Result<Topology>> result;
};

bool small_enough(const ordered_json& block) {
  if (!block.is_object()) return true;
  const auto it = block.find("parameter_order");
  return it == block.end() || !it->is_array() || it->size() <= kMaxRememberedParameters;
}

}  // namespace

bool same_json_exactly(const ordered_json& a, const ordered_json& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case ordered_json::value_t::number_float:
      return std::bit_cast<std::uint64_t>(a.get<double>()) == std::bit_cast<std::uint64_t>(b.get<double>());
    case ordered_json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!same_json_exactly(a[i], b[i])) return false;
      }
      return true;
    }
    case ordered_json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j) {
        if (i.key() != j.key() || !same_json_exactly(i.value(), j.value())) return false;
      }
      return true;
    }
    default:
      return a == b;  // null, boolean, integers of one signedness, string, binary: exact
  }
}

common::Result<Topology> parse_topology_remembered(const ordered_json& block, std::string_view path,
                                                   ParseOptions options, std::optional<std::string_view> source) {
  if (!small_enough(block)) return parse_topology(block, path, options);
  thread_local Remembered last;
  const auto remember_source = [&] { last.source = source ? std::optional<std::string>(*source) : std::nullopt; };
  if (last.result && last.path == path && last.options.allow_softmax == options.allow_softmax &&
      last.options.max_layer_units == options.max_layer_units) {
    if (source && last.source && *last.source == *source) return *last.result;
    if (same_json_exactly(last.block, block)) {
      remember_source();  // the same block: these bytes are it too
      return *last.result;
    }
  }
  auto result = parse_topology(block, path, options);
  remember_source();
  last.block = block;
  last.path = std::string(path);
  last.options = options;
  last.result = result;
  return result;
}

}  // namespace receipt::topology
