#pragma once
// The scalar of way (b)'s audit (bp verify nltrain): a binary64 value and a bound on how far an
// fp32 evaluation of the same formula can be (common/tracked.hpp). Every numeric template of nl
// that runs at float and double is also instantiated at Tracked32; the unqualified math calls
// (exp, sqrt, ...) resolve through the using-declarations below for float and double, and by
// argument-dependent lookup for Tracked32.
#include <algorithm>
#include <cmath>

#include "common/tracked.hpp"

namespace nl {

using Tracked32 = common::Tracked<float>;

using std::abs;
using std::exp;
using std::fabs;
using std::isfinite;
using std::log;
using std::log1p;
using std::max;
using std::min;
using std::pow;
using std::sqrt;
using std::tanh;

}  // namespace nl
