#pragma once
// The engine receipt's id-keyed maps in the order the reference's verifier iterates them
// (Object.keys of the engine's JSON receipt): array-index keys ascending first, then the others in
// the order receipt/engine/receipt_json.cpp writes them. Rule 14 reads the engine's struct, so it
// visits ids in this order to report what the JSON form reported, in the same order.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "receipt/engine/general_receipt.hpp"

namespace reconcile::rules::rule14 {

// One key of an engine object and which of the values written under it is the one read.
struct Key {
  std::string_view name;
  std::size_t at;  // index into the list the object was written from
};

// The keys of an object written from `keys` in order, as Object.keys lists them; a repeated key
// keeps its first place and its last value (post_update_forward's "status" and a unit named so).
[[nodiscard]] std::vector<Key> js_key_order(const std::vector<std::string_view>& keys);

struct EngineKeys {
  explicit EngineKeys(const receipt::engine::GeneralReceipt& engine);
  // Every key but sample's, viewing these ids.
  EngineKeys(const receipt::topology::UnitOrder& order, const std::vector<std::string>& parameter_order);
  // Units of forward maps, `at` indexing hidden ++ output; post_forward's list starts with the
  // "status" key (at 0), so its units' `at` is one more.
  std::vector<Key> forward, post_forward;
  std::vector<Key> input, output, hidden, parameter;
  std::vector<Key> sample;  // batched: per_sample's ids, `at` indexing engine.samples
};

// The keys of `engine`. An unbatched receipt's keys depend on its topology alone, and a stream's
// records share one: the last topology's keys are kept per thread (with copies of the ids they
// view) and returned while the next receipt's unit and parameter orders equal them. A batched
// receipt's are built into `scratch` (its sample ids change). The reference is valid until the
// thread's next call.
[[nodiscard]] const EngineKeys& engine_keys(const receipt::engine::GeneralReceipt& engine,
                                            std::optional<EngineKeys>& scratch);

// A forward map's unit by its index in hidden ++ output (EngineKeys::forward's `at`).
[[nodiscard]] inline double unit_net(const receipt::engine::ForwardValues& f, std::size_t n_hidden, std::size_t at) {
  return at < n_hidden ? f.net_h[at] : f.net_o[at - n_hidden];
}
[[nodiscard]] inline double unit_out(const receipt::engine::ForwardValues& f, std::size_t n_hidden, std::size_t at) {
  return at < n_hidden ? f.out_h[at] : f.out_o[at - n_hidden];
}

}  // namespace reconcile::rules::rule14
