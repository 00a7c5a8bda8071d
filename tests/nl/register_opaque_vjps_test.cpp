#include "nl/register_opaque_vjps.hpp"

#include <doctest/doctest.h>

#include <set>

TEST_CASE("register_opaque_vjps: all 20 keys get a function, distinct per key; registering twice fails") {
  tape::opaque::OpaqueRegistry registry;
  REQUIRE(nl::register_opaque_vjps(registry).ok());
  std::set<tape::OpaqueBackwardFn> fns;
  for (tape::opaque::OpaqueKey key : tape::opaque::kAllOpaqueKeys) {
    INFO(tape::opaque::to_string(key));
    const auto fn = registry.find(key);
    REQUIRE(fn.ok());
    fns.insert(*fn);
  }
  CHECK(fns.size() == tape::opaque::kOpaqueKeyCount);
  const common::Status again = nl::register_opaque_vjps(registry);
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().message().find("already registered") != std::string::npos);
}
