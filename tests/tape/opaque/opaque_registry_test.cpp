#include "tape/opaque/opaque_registry.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

using tape::opaque::ConstBuffers;
using tape::opaque::OpaqueKey;
using tape::opaque::OpaqueRegistry;

namespace {

// d_in[0] = saved[0] * d_out[0] (a frozen read through a diagonal memory).
common::Status diagonal_read_backward(ConstBuffers d_outputs, ConstBuffers saved,
                                      std::span<std::vector<float>> d_inputs) {
  if (saved.size() != 1 || d_outputs.size() != 1 || d_inputs.size() != 1) {
    return common::Error::malformed("expected one output, one saved tensor and one input");
  }
  for (std::size_t i = 0; i < d_inputs[0].size(); ++i) d_inputs[0][i] += saved[0][i] * d_outputs[0][i];
  return {};
}

}  // namespace

TEST_CASE("opaque_key: 19 distinct keys with the seed's names, parse round-trips") {
  std::set<std::string> names;
  for (OpaqueKey k : tape::opaque::kAllOpaqueKeys) {
    const std::string name(tape::opaque::to_string(k));
    names.insert(name);
    CHECK(tape::opaque::parse_opaque_key(name) == k);
  }
  CHECK(names.size() == 19);
  CHECK(names.count("FrozenAtlasOmega") == 1);
  CHECK(names.count("SWA") == 1);
  CHECK(tape::opaque::frozen_variant(OpaqueKey::delta_rule) == OpaqueKey::frozen_delta_rule);
  CHECK(tape::opaque::frozen_variant(OpaqueKey::memora) == OpaqueKey::frozen_memora);
  CHECK_FALSE(tape::opaque::frozen_variant(OpaqueKey::swa).has_value());
  CHECK_FALSE(tape::opaque::parse_opaque_key("Delta").has_value());
}

TEST_CASE("opaque_registry: dispatches to the function registered for the key") {
  OpaqueRegistry reg;
  REQUIRE(reg.register_backward(OpaqueKey::frozen_delta_rule, diagonal_read_backward).ok());
  CHECK(reg.contains(OpaqueKey::frozen_delta_rule));
  CHECK_FALSE(reg.contains(OpaqueKey::delta_rule));

  const std::vector<float> d_out = {1, 2, 3}, m = {0.5f, -1, 4};
  const std::span<const float> outs[] = {d_out};
  const std::span<const float> saved[] = {m};
  std::vector<std::vector<float>> d_in = {{9, 9, 9}};  // stale values must be cleared first
  REQUIRE(reg.run_backward(OpaqueKey::frozen_delta_rule, outs, saved, d_in).ok());
  CHECK(d_in[0] == std::vector<float>{0.5f, -2, 12});
}

TEST_CASE("opaque_registry: a key with no function is a clear error naming the key") {
  OpaqueRegistry reg;
  REQUIRE(reg.register_backward(OpaqueKey::delta_rule, diagonal_read_backward).ok());
  std::vector<std::vector<float>> d_in = {{0}};
  const common::Status st = reg.run_backward(OpaqueKey::frozen_memora, {}, {}, d_in);
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().code() == common::ErrorCode::unsupported);
  CHECK(st.error().message().find("FrozenMEMORA") != std::string::npos);
  CHECK(st.error().message().find("no backward function registered") != std::string::npos);
}

TEST_CASE("opaque_registry: rejects empty and duplicate registrations") {
  OpaqueRegistry reg;
  CHECK_FALSE(reg.register_backward(OpaqueKey::swa, nullptr).ok());
  REQUIRE(reg.register_backward(OpaqueKey::swa, diagonal_read_backward).ok());
  const common::Status again = reg.register_backward(OpaqueKey::swa, diagonal_read_backward);
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().message().find("SWA") != std::string::npos);
}

TEST_CASE("opaque_registry: errors from the function and resized gradients are reported with the key") {
  OpaqueRegistry reg;
  REQUIRE(reg.register_backward(OpaqueKey::trellis, diagonal_read_backward).ok());
  REQUIRE(reg.register_backward(OpaqueKey::yaad, [](ConstBuffers, ConstBuffers, std::span<std::vector<float>> d) {
                   d[0].push_back(1.0f);
                   return common::Status{};
                 }).ok());
  std::vector<std::vector<float>> d_in = {{0, 0}};
  const common::Status bad_arity = reg.run_backward(OpaqueKey::trellis, {}, {}, d_in);
  REQUIRE_FALSE(bad_arity.ok());
  CHECK(bad_arity.error().code() == common::ErrorCode::malformed);
  CHECK(bad_arity.error().message().rfind("opaque VJP Trellis: ", 0) == 0);

  const common::Status resized = reg.run_backward(OpaqueKey::yaad, {}, {}, d_in);
  REQUIRE_FALSE(resized.ok());
  CHECK(resized.error().message().find("gradient of input 0 has 3 values; the input has 2") != std::string::npos);
}

TEST_CASE("opaque_registry: two registries are independent") {
  OpaqueRegistry a, b;
  REQUIRE(a.register_backward(OpaqueKey::moneta, diagonal_read_backward).ok());
  CHECK(a.contains(OpaqueKey::moneta));
  CHECK_FALSE(b.contains(OpaqueKey::moneta));
}
