#include "tape/opaque/opaque_registry.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

using tape::opaque::OpaqueKey;
using tape::opaque::OpaqueRegistry;

namespace {

void first_backward(std::span<const std::span<const float>>, std::span<const std::span<const float>>,
                    std::span<const std::span<float>> d_inputs) {
  d_inputs[0][0] = 1.0f;
}
void second_backward(std::span<const std::span<const float>>, std::span<const std::span<const float>>,
                     std::span<const std::span<float>> d_inputs) {
  d_inputs[0][0] = 2.0f;
}

}  // namespace

TEST_CASE("opaque_key: 20 distinct keys with the seed's names, parse round-trips") {
  std::set<std::string> names;
  for (OpaqueKey k : tape::opaque::kAllOpaqueKeys) {
    const std::string name(tape::opaque::to_string(k));
    names.insert(name);
    CHECK(tape::opaque::parse_opaque_key(name) == k);
  }
  CHECK(names.size() == 20);
  CHECK(names.count("FrozenAtlasOmega") == 1);
  CHECK(names.count("SWA") == 1);
  CHECK(tape::opaque::frozen_variant(OpaqueKey::delta_rule) == OpaqueKey::frozen_delta_rule);
  CHECK(tape::opaque::frozen_variant(OpaqueKey::memora) == OpaqueKey::frozen_memora);
  CHECK_FALSE(tape::opaque::frozen_variant(OpaqueKey::swa).has_value());
  CHECK_FALSE(tape::opaque::frozen_variant(OpaqueKey::frozen_yaad).has_value());
  CHECK(tape::opaque::is_frozen(OpaqueKey::frozen_delta_rule));
  CHECK_FALSE(tape::opaque::is_frozen(OpaqueKey::swa));
  CHECK(names.count("HeadLoss") == 1);
  CHECK_FALSE(tape::opaque::frozen_variant(OpaqueKey::head_loss).has_value());
  CHECK_FALSE(tape::opaque::is_frozen(OpaqueKey::head_loss));
  CHECK(tape::opaque::frozen_variant(OpaqueKey::atlas_omega) == OpaqueKey::frozen_atlas_omega);
  CHECK_FALSE(tape::opaque::parse_opaque_key("Delta").has_value());
}

TEST_CASE("opaque_registry: find returns the function registered for each key") {
  OpaqueRegistry reg;
  REQUIRE(reg.register_backward(OpaqueKey::delta_rule, first_backward).ok());
  REQUIRE(reg.register_backward(OpaqueKey::frozen_delta_rule, second_backward).ok());
  CHECK(reg.contains(OpaqueKey::delta_rule));
  CHECK_FALSE(reg.contains(OpaqueKey::titans_lmm));
  const auto a = reg.find(OpaqueKey::delta_rule);
  const auto b = reg.find(OpaqueKey::frozen_delta_rule);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK((*a == &first_backward));
  CHECK((*b == &second_backward));
}

TEST_CASE("opaque_registry: a key with no function is a clear error naming the key") {
  OpaqueRegistry reg;
  REQUIRE(reg.register_backward(OpaqueKey::memora, first_backward).ok());
  const auto missing = reg.find(OpaqueKey::frozen_memora);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code() == common::ErrorCode::unsupported);
  CHECK(missing.error().message() ==
        "opaque VJP FrozenMEMORA: no backward function registered for this key in the registry");
}

TEST_CASE("opaque_registry: rejects null and duplicate registrations, keeping the first") {
  OpaqueRegistry reg;
  const common::Status null_fn = reg.register_backward(OpaqueKey::swa, nullptr);
  REQUIRE_FALSE(null_fn.ok());
  CHECK(null_fn.error().code() == common::ErrorCode::invalid_argument);
  CHECK_FALSE(reg.contains(OpaqueKey::swa));
  REQUIRE(reg.register_backward(OpaqueKey::swa, first_backward).ok());
  const common::Status again = reg.register_backward(OpaqueKey::swa, second_backward);
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().message().find("SWA") != std::string::npos);
  CHECK((*reg.find(OpaqueKey::swa) == &first_backward));
}

TEST_CASE("opaque_registry: two registries are independent") {
  OpaqueRegistry a, b;
  REQUIRE(a.register_backward(OpaqueKey::moneta, first_backward).ok());
  CHECK(a.contains(OpaqueKey::moneta));
  CHECK_FALSE(b.contains(OpaqueKey::moneta));
  for (OpaqueKey k : tape::opaque::kAllOpaqueKeys) CHECK(b.find(k).ok() == false);
}
