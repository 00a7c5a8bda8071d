// The receipt engine and the reconciler must match V8, which rounds every product and every sum:
// both libraries compile with -ffp-contract=off. Their probes compute a*b + c where the target
// has an FMA (forced for the probe on x86-64) and at -O2 whatever the build type, so a library
// that contracts returns the fused value and this test fails.
#include <doctest/doctest.h>

#include "receipt/engine/contraction_probe.hpp"
#include "reconcile/rules/contraction_probe.hpp"

namespace {

bool cpu_has_fma() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("fma");
#else
  return true;
#endif
}

}  // namespace

TEST_CASE("fp contraction: the receipt engine and the reconciler round a*b before adding c") {
  if (!cpu_has_fma()) {
    MESSAGE("this CPU has no FMA: nothing could be fused");
    return;
  }
  // a*b = 1 + 2^-26 + 2^-54 exactly; rounded it is 1 + 2^-26, so a*b + c is 0 unfused, 2^-54 fused.
  volatile double a = 1.0 + 0x1p-27, b = 1.0 + 0x1p-27, c = -(1.0 + 0x1p-26);
  CHECK(receipt::engine::contraction_probe(a, b, c) == 0.0);
  CHECK(reconcile::rules::contraction_probe(a, b, c) == 0.0);
}
