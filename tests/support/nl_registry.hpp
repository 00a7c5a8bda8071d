#pragma once
// libcore/nl's opaque VJPs (the memory rules' blocks, SWA) registered once per test binary, for
// tests that build steps on the tape.
#include <doctest/doctest.h>

#include "nl/register_opaque_vjps.hpp"

namespace testsupport {

inline const tape::opaque::OpaqueRegistry& nl_registry() {
  static const tape::opaque::OpaqueRegistry registry = [] {
    tape::opaque::OpaqueRegistry r;
    REQUIRE(nl::register_opaque_vjps(r).ok());
    return r;
  }();
  return registry;
}

}  // namespace testsupport
