// The tolerance a stored entry is held to: its own Tracked bound while that is finite, and the
// stated norm-wise tolerance 2^-10 (|ref| + max |ref| of the tensor) where it overflowed, counted.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "mlp_audit/entry_bound.hpp"

namespace entry_bound_test {  // named: the unity build joins the test files

using common::Tracked;
using mlp_audit::first_outside_bound;

Tracked<float> at(double v, double e) {
  Tracked<float> t;
  t.v = v, t.e = e;
  return t;
}

TEST_CASE("mlp_audit/entry_bound: a finite bound holds each entry to its own e") {
  const std::vector<Tracked<float>> ref{at(1.0, 0x1p-20), at(2.0, 0x1p-20)};
  const std::vector<float> inside{1.0f + 0x1p-21f, 2.0f};
  auto scan = first_outside_bound(inside, ref);
  CHECK_FALSE(scan.outside);
  CHECK(scan.normwise == 0);
  const std::vector<float> outside{1.0f, 2.0f + 0x1p-19f};
  scan = first_outside_bound(outside, ref);
  REQUIRE(scan.outside);
  CHECK(*scan.outside == 1);
  CHECK(scan.bound == 0x1p-20 * (1 + 0x1p-30) + 0x1p-149);
}

TEST_CASE("mlp_audit/entry_bound: an overflowed bound falls back to the norm-wise tolerance, counted") {
  const double inf = std::numeric_limits<double>::infinity();
  // Tensor max |ref| is 1024: the overflowed entries are held to 2^-10 (|ref| + 1024).
  const std::vector<Tracked<float>> ref{at(1024.0, 0x1p-20), at(0.0, inf), at(3.0, std::nan(""))};
  const double tol0 = 0x1p-10 * (0.0 + 1024.0), tol1 = 0x1p-10 * (3.0 + 1024.0);
  const std::vector<float> inside{1024.0f, static_cast<float>(tol0 * 0.99), static_cast<float>(3.0 + tol1 * 0.99)};
  auto scan = first_outside_bound(inside, ref);
  CHECK_FALSE(scan.outside);
  CHECK(scan.normwise == 2);  // the infinite and the NaN bound
  const std::vector<float> outside{1024.0f, static_cast<float>(tol0 * 1.01), 3.0f};
  scan = first_outside_bound(outside, ref);
  REQUIRE(scan.outside);
  CHECK(*scan.outside == 1);
  CHECK(scan.bound == tol0);
  CHECK(scan.normwise == 1);  // counted up to the first entry outside
  // Without the fallback an infinite bound would accept anything finite.
  const std::vector<float> huge{1024.0f, 1e30f, 3.0f};
  CHECK(first_outside_bound(huge, ref).outside == std::optional<std::size_t>{1});
}

}  // namespace entry_bound_test
