// fdlibm exp: x = k*ln2 + r with |r| <= ln2/2, exp(r) from a degree-5 rational remez fit, scaled by 2^k.
#include <limits>

#include "receipt/engine/fdlibm.hpp"

namespace receipt::engine::fdlibm {
namespace {
constexpr double kOverflow = 7.09782712893383973096e+02;
constexpr double kUnderflow = -7.45133219101941108420e+02;
constexpr double kLn2Hi[2] = {6.93147180369123816490e-01, -6.93147180369123816490e-01};
constexpr double kLn2Lo[2] = {1.90821492927058770002e-10, -1.90821492927058770002e-10};
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kHalf[2] = {0.5, -0.5};
constexpr double kP1 = 1.66666666666666019037e-01;
constexpr double kP2 = -2.77777777770155933842e-03;
constexpr double kP3 = 6.61375632143793436117e-05;
constexpr double kP4 = -1.65339022054652515390e-06;
constexpr double kP5 = 4.13813679705723846039e-08;
constexpr double kHuge = 1.0e+300;
constexpr double kTwoM1000 = 9.33263618503218878990e-302;  // 2^-1000
}  // namespace

double exp(double x) {
  std::int32_t hx = high_word(x);
  const int xsb = (hx >> 31) & 1;
  hx &= 0x7fffffff;
  double hi = 0;
  double lo = 0;
  int k = 0;

  if (hx >= 0x40862E42) {  // |x| >= 709.78...
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | low_word(x)) != 0) return x + x;  // NaN
      return xsb == 0 ? x : 0.0;                              // exp(+-inf) = inf, 0
    }
    if (x > kOverflow) return std::numeric_limits<double>::infinity();
    if (x < kUnderflow) return 0.0;
  }

  if (hx > 0x3fd62e42) {    // |x| > 0.5 ln2
    if (hx < 0x3FF0A2B2) {  // and < 1.5 ln2
      hi = x - kLn2Hi[xsb];
      lo = kLn2Lo[xsb];
      k = 1 - xsb - xsb;
    } else {
      k = static_cast<int>(kInvLn2 * x + kHalf[xsb]);
      const double t = k;
      hi = x - t * kLn2Hi[0];
      lo = t * kLn2Lo[0];
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) {  // |x| < 2^-28
    if (kHuge + x > 1.0) return 1.0 + x;
  } else {
    k = 0;
  }

  const double t = x * x;
  const double c = x - t * (kP1 + t * (kP2 + t * (kP3 + t * (kP4 + t * kP5))));
  if (k == 0) return 1.0 - ((x * c) / (c - 2.0) - x);
  const double y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k >= -1021) {
    if (k == 1024) return y * 2.0 * from_words(0x7fe00000, 0);
    return y * from_words(0x3ff00000 + (k << 20), 0);
  }
  return y * from_words(0x3ff00000 + ((k + 1000) << 20), 0) * kTwoM1000;
}

}  // namespace receipt::engine::fdlibm
