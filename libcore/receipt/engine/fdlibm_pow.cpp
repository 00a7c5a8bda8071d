// fdlibm pow: x^y = 2^(y*log2(x)), with log2(x) carried in extra precision (t1 + t2) and y split
// into a 21-bit head and a tail so y*log2(x) is exact enough; then 2^z by the exp kernel.
#include <cmath>
#include <limits>

#include "receipt/engine/fdlibm.hpp"

namespace receipt::engine::fdlibm {
namespace {
constexpr double kBp[2] = {1.0, 1.5};
constexpr double kDpH[2] = {0.0, 5.84962487220764160156e-01};  // log2(1.5) high
constexpr double kDpL[2] = {0.0, 1.35003920212974897128e-08};  // log2(1.5) low
constexpr double kTwo53 = 9007199254740992.0;
constexpr double kHuge = 1.0e300;
constexpr double kTiny = 1.0e-300;
constexpr double kL1 = 5.99999999999994648725e-01;
constexpr double kL2 = 4.28571428578550184252e-01;
constexpr double kL3 = 3.33333329818377432918e-01;
constexpr double kL4 = 2.72728123808534006489e-01;
constexpr double kL5 = 2.30660745775561754067e-01;
constexpr double kL6 = 2.06975017800338417784e-01;
constexpr double kP1 = 1.66666666666666019037e-01;
constexpr double kP2 = -2.77777777770155933842e-03;
constexpr double kP3 = 6.61375632143793436117e-05;
constexpr double kP4 = -1.65339022054652515390e-06;
constexpr double kP5 = 4.13813679705723846039e-08;
constexpr double kLg2 = 6.93147180559945286227e-01;
constexpr double kLg2H = 6.93147182464599609375e-01;
constexpr double kLg2L = -1.90465429995776804525e-09;
constexpr double kOvt = 8.0085662595372944372e-17;  // -(1024-log2(ovfl+.5ulp))
constexpr double kCp = 9.61796693925975554329e-01;   // 2/(3 ln2)
constexpr double kCpH = 9.61796700954437255859e-01;
constexpr double kCpL = -7.02846165095275826516e-09;
constexpr double kIvLn2 = 1.44269504088896338700e+00;
constexpr double kIvLn2H = 1.44269502162933349609e+00;
constexpr double kIvLn2L = 1.92596299112661746887e-08;

double nan_value() { return std::numeric_limits<double>::quiet_NaN(); }
}  // namespace

double pow(double x, double y) {
  const std::int32_t hx = high_word(x);
  const std::uint32_t lx = low_word(x);
  const std::int32_t hy = high_word(y);
  const std::uint32_t ly = low_word(y);
  std::int32_t ix = hx & 0x7fffffff;
  const std::int32_t iy = hy & 0x7fffffff;

  if ((static_cast<std::uint32_t>(iy) | ly) == 0) return 1.0;  // x^0
  if (ix > 0x7ff00000 || (ix == 0x7ff00000 && lx != 0) || iy > 0x7ff00000 || (iy == 0x7ff00000 && ly != 0)) {
    return x + y;  // NaN
  }

  // yisint: 0 y not an integer, 1 odd integer, 2 even integer (only needed when x < 0).
  int yisint = 0;
  if (hx < 0) {
    if (iy >= 0x43400000) {
      yisint = 2;
    } else if (iy >= 0x3ff00000) {
      const int k = (iy >> 20) - 0x3ff;
      if (k > 20) {
        const std::uint32_t j = ly >> (52 - k);
        if ((j << (52 - k)) == ly) yisint = 2 - static_cast<int>(j & 1);
      } else if (ly == 0) {
        const std::int32_t j = iy >> (20 - k);
        if ((j << (20 - k)) == iy) yisint = 2 - (j & 1);
      }
    }
  }

  if (ly == 0) {
    if (iy == 0x7ff00000) {  // y = +-inf
      if (((ix - 0x3ff00000) | static_cast<std::int32_t>(lx)) == 0) return nan_value();  // (+-1)^inf: NaN in JS
      if (ix >= 0x3ff00000) return hy >= 0 ? y : 0.0;
      return hy < 0 ? -y : 0.0;
    }
    if (iy == 0x3ff00000) return hy < 0 ? 1.0 / x : x;  // y = +-1
    if (hy == 0x40000000) return x * x;                   // y = 2
    if (hy == 0x3fe00000 && hx >= 0) return std::sqrt(x);  // y = 0.5, correctly rounded
  }

  double ax = std::fabs(x);
  if (lx == 0 && (ix == 0x7ff00000 || ix == 0 || ix == 0x3ff00000)) {  // x = +-0, +-inf, +-1
    double z = ax;
    if (hy < 0) z = 1.0 / z;
    if (hx < 0) {
      if (((ix - 0x3ff00000) | yisint) == 0) {
        z = nan_value();  // (-1)^non-integer
      } else if (yisint == 1) {
        z = -z;
      }
    }
    return z;
  }

  const int xneg = static_cast<int>(static_cast<std::uint32_t>(hx) >> 31);
  if (xneg == 1 && yisint == 0) return nan_value();  // negative ^ non-integer
  const double s = (xneg == 1 && yisint == 1) ? -1.0 : 1.0;

  double t1 = 0;
  double t2 = 0;
  if (iy > 0x41e00000) {    // |y| > 2^31
    if (iy > 0x43f00000) {  // |y| > 2^64: over/underflow for sure
      if (ix <= 0x3fefffff) return hy < 0 ? kHuge * kHuge : kTiny * kTiny;
      if (ix >= 0x3ff00000) return hy > 0 ? kHuge * kHuge : kTiny * kTiny;
    }
    if (ix < 0x3fefffff) return hy < 0 ? s * kHuge * kHuge : s * kTiny * kTiny;
    if (ix > 0x3ff00000) return hy > 0 ? s * kHuge * kHuge : s * kTiny * kTiny;
    // |1-x| <= 2^-20: log(x) by its Taylor series.
    const double t = ax - 1.0;
    const double w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
    const double u = kIvLn2H * t;
    const double v = t * kIvLn2L - w * kIvLn2;
    t1 = with_low_word(u + v, 0);
    t2 = v - (t1 - u);
  } else {
    int n = 0;
    if (ix < 0x00100000) {  // subnormal x
      ax *= kTwo53;
      n -= 53;
      ix = high_word(ax);
    }
    n += (ix >> 20) - 0x3ff;
    const std::int32_t j = ix & 0x000fffff;
    ix = j | 0x3ff00000;
    int k = 0;
    if (j <= 0x3988E) {
      k = 0;  // |x| < sqrt(3/2)
    } else if (j < 0xBB67A) {
      k = 1;  // |x| < sqrt(3)
    } else {
      k = 0;
      n += 1;
      ix -= 0x00100000;
    }
    ax = with_high_word(ax, ix);

    // ss = s_h + s_l = (x - bp) / (x + bp)
    double u = ax - kBp[k];
    double v = 1.0 / (ax + kBp[k]);
    const double ss = u * v;
    const double s_h = with_low_word(ss, 0);
    double t_h = from_words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0);
    double t_l = ax - (t_h - kBp[k]);
    const double s_l = v * ((u - s_h * t_h) - s_h * t_l);
    // log(ax)
    double s2 = ss * ss;
    double r = s2 * s2 * (kL1 + s2 * (kL2 + s2 * (kL3 + s2 * (kL4 + s2 * (kL5 + s2 * kL6)))));
    r += s_l * (s_h + ss);
    s2 = s_h * s_h;
    t_h = with_low_word(3.0 + s2 + r, 0);
    t_l = r - ((t_h - 3.0) - s2);
    u = s_h * t_h;
    v = s_l * t_h + t_l * ss;
    const double p_h = with_low_word(u + v, 0);
    const double p_l = v - (p_h - u);
    const double z_h = kCpH * p_h;
    const double z_l = kCpL * p_h + p_l * kCp + kDpL[k];
    const double t = n;
    t1 = with_low_word(((z_h + z_l) + kDpH[k]) + t, 0);
    t2 = z_l - (((t1 - t) - kDpH[k]) - z_h);
  }

  // (y1 + y2) * (t1 + t2)
  const double y1 = with_low_word(y, 0);
  const double p_l = (y - y1) * t1 + y * t2;
  double p_h = y1 * t1;
  double z = p_l + p_h;
  std::int32_t j = high_word(z);
  const std::uint32_t i_lo = low_word(z);
  if (j >= 0x40900000) {  // z >= 1024
    if (((j - 0x40900000) | static_cast<std::int32_t>(i_lo)) != 0) return s * kHuge * kHuge;
    if (p_l + kOvt > z - p_h) return s * kHuge * kHuge;
  } else if ((j & 0x7fffffff) >= 0x4090cc00) {  // z <= -1075
    if ((static_cast<std::uint32_t>(j - static_cast<std::int32_t>(0xc090cc00)) | i_lo) != 0) return s * kTiny * kTiny;
    if (p_l <= z - p_h) return s * kTiny * kTiny;
  }

  // 2^(p_h + p_l)
  const std::int32_t i = j & 0x7fffffff;
  int k = (i >> 20) - 0x3ff;
  std::int32_t n = 0;
  if (i > 0x3fe00000) {  // |z| > 0.5: n = nearest integer
    n = j + (0x00100000 >> (k + 1));
    k = ((n & 0x7fffffff) >> 20) - 0x3ff;
    const double t = from_words(n & ~(0x000fffff >> k), 0);
    n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
    if (j < 0) n = -n;
    p_h -= t;
  }
  double t = with_low_word(p_l + p_h, 0);
  const double u = t * kLg2H;
  const double v = (p_l - (t - p_h)) * kLg2 + t * kLg2L;
  z = u + v;
  const double w = v - (z - u);
  t = z * z;
  t1 = z - t * (kP1 + t * (kP2 + t * (kP3 + t * (kP4 + t * kP5))));
  // V8's port groups this as z*t1 / ((t1 - 2) - (w + z*w)), unlike fdlibm's z*t1/(t1 - 2) - (w + z*w);
  // Node's Math.pow results follow V8's grouping, so this does too.
  const double r = (z * t1) / ((t1 - 2.0) - (w + z * w));
  z = 1.0 - (r - z);
  j = high_word(z);
  j += static_cast<std::int32_t>(static_cast<std::uint32_t>(n) << 20);
  if ((j >> 20) <= 0) return s * std::scalbn(z, n);  // subnormal result
  return s * with_high_word(z, j);
}

}  // namespace receipt::engine::fdlibm
