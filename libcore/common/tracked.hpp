#pragma once
// A binary64 value carried with a bound on how far the same computation done in a lower
// precision `A` (float: an fp32 trainer) can be from it: a running error analysis of the
// computation, evaluated alongside it. Instantiating a numeric template at Tracked<float>
// yields, for every entry it computes, the fp64 value and a per-entry tolerance that covers
// any fp32 evaluation in the same operation order (BLAS sums in any order: see the gemm bound).
//
// The bound follows the standard model fl(x op y) = (x op y)(1 + d) + t, |d| <= u, |t| <= tiny,
// applied to the fp32 and the fp64 evaluation at once: if |x32 - x64| <= ex and |y32 - y64| <=
// ey, then |fl32(x32 op y32) - fl64(x64 op y64)| <= P + (u32 + u64)(|x64 op y64| + P) + tiny,
// where P is what the operands' errors can do to the exact result (|x|ey + |y|ex + ex ey for a
// product). It is first-order sharp and never ignores a term: it is a bound, not an estimate.
// Library functions (exp, log, tanh, erf, pow, sqrt) are bounded by the function's change over the
// operands' intervals plus kLibmUlps units of the result for each precision's libm.
//
// A comparison whose operands' intervals overlap could go the other way in fp32; it is decided
// by the fp64 values and counted (ambiguous_comparisons()), so a caller can refuse to use
// bounds derived after a branch that fp32 may not have taken.
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>

namespace common {

template <class A>
struct Tracked;

namespace tracked_detail {
inline thread_local std::uint64_t ambiguous = 0;
// Unit roundoff of A plus binary64's (both evaluations round), and A's absolute underflow error.
template <class A>
inline constexpr double kUnit = std::numeric_limits<A>::epsilon() / 2 + 0x1p-53;
template <class A>
inline constexpr double kTiny = static_cast<double>(std::numeric_limits<A>::denorm_min()) + 0x1p-1074;
// glibc's expf/logf/tanhf/powf and their binary64 versions are within a few ulps; assume 4.
inline constexpr double kLibmUlps = 4;
}  // namespace tracked_detail

// How many comparisons on this thread were decided by values whose error intervals overlapped.
[[nodiscard]] inline std::uint64_t ambiguous_comparisons() { return tracked_detail::ambiguous; }

template <class A>
struct Tracked {
  static constexpr double u = tracked_detail::kUnit<A>;
  static constexpr double tiny = tracked_detail::kTiny<A>;

  double v = 0;  // the binary64 evaluation
  double e = 0;  // bound on |A evaluation - v|

  constexpr Tracked() = default;
  // A constant: the A evaluation holds its rounding to A (exact for integers and fp32 inputs).
  template <class S>
    requires std::is_arithmetic_v<S>
  constexpr Tracked(S c)  // NOLINT(google-explicit-constructor): numeric templates write T(0), T x = 1
      : v(static_cast<double>(c)), e(std::abs(static_cast<double>(c) - static_cast<double>(static_cast<A>(c)))) {}
  // The same value held in another precision: narrowing to A adds A's rounding.
  template <class B>
    requires(!std::same_as<A, B>)
  explicit constexpr Tracked(const Tracked<B>& o) : v(o.v), e(o.e) {
    if constexpr (sizeof(A) < sizeof(B)) e += u * (std::abs(v) + e) + tiny;
  }
  [[nodiscard]] static constexpr Tracked exact(double value, double err) {
    Tracked t;
    t.v = value, t.e = err;
    return t;
  }
  // A result of value r whose operands' errors propagate to at most p before its own rounding.
  [[nodiscard]] static Tracked rounded(double r, double p) { return exact(r, p + u * (std::abs(r) + p) + tiny); }

  Tracked& operator+=(const Tracked& o) { return *this = *this + o; }
  Tracked& operator-=(const Tracked& o) { return *this = *this - o; }
  Tracked& operator*=(const Tracked& o) { return *this = *this * o; }
  Tracked& operator/=(const Tracked& o) { return *this = *this / o; }

  friend Tracked operator+(const Tracked& a, const Tracked& b) { return rounded(a.v + b.v, a.e + b.e); }
  friend Tracked operator-(const Tracked& a, const Tracked& b) { return rounded(a.v - b.v, a.e + b.e); }
  friend Tracked operator-(const Tracked& a) { return exact(-a.v, a.e); }
  friend Tracked operator+(const Tracked& a) { return a; }
  friend Tracked operator*(const Tracked& a, const Tracked& b) {
    return rounded(a.v * b.v, std::abs(a.v) * b.e + std::abs(b.v) * a.e + a.e * b.e);
  }
  friend Tracked operator/(const Tracked& a, const Tracked& b) {
    const double q = a.v / b.v;
    const double room = std::abs(b.v) - b.e;  // the smallest |divisor| either evaluation can see
    if (!(room > 0)) return exact(q, std::numeric_limits<double>::infinity());
    return rounded(q, (a.e + std::abs(q) * b.e) / room);
  }

  // Comparisons decide by the binary64 values; overlapping intervals are counted.
  static bool close(const Tracked& a, const Tracked& b) {
    const bool near = (a.e > 0 || b.e > 0) && std::abs(a.v - b.v) <= a.e + b.e;
    if (near) ++tracked_detail::ambiguous;
    return near;
  }
  friend bool operator<(const Tracked& a, const Tracked& b) { return (void)close(a, b), a.v < b.v; }
  friend bool operator>(const Tracked& a, const Tracked& b) { return (void)close(a, b), a.v > b.v; }
  friend bool operator<=(const Tracked& a, const Tracked& b) { return (void)close(a, b), a.v <= b.v; }
  friend bool operator>=(const Tracked& a, const Tracked& b) { return (void)close(a, b), a.v >= b.v; }
  friend bool operator==(const Tracked& a, const Tracked& b) { return (void)close(a, b), a.v == b.v; }
  friend bool operator!=(const Tracked& a, const Tracked& b) { return !(a == b); }
};

namespace tracked_detail {
// f is monotone on [x - e, x + e] (callers clamp to its domain): its change there, plus the
// libraries' own error for both precisions, bounds the result.
// `ulps`: the formula's own roundings in each precision, in units of its result.
template <class A, class F>
Tracked<A> monotone(const Tracked<A>& x, double lo, double hi, F f, double ulps = kLibmUlps) {
  const double r = f(x.v);
  const double spread = std::max(std::abs(f(hi) - r), std::abs(f(lo) - r));
  const double own = ulps * Tracked<A>::u * std::abs(r);
  return Tracked<A>::exact(r, spread + own + Tracked<A>::tiny);
}
}  // namespace tracked_detail

template <class A>
[[nodiscard]] Tracked<A> abs(const Tracked<A>& x) {
  return Tracked<A>::exact(std::abs(x.v), x.e);
}
template <class A>
[[nodiscard]] Tracked<A> fabs(const Tracked<A>& x) {
  return abs(x);
}
template <class A>
[[nodiscard]] Tracked<A> max(const Tracked<A>& a, const Tracked<A>& b) {
  return Tracked<A>::exact(std::max(a.v, b.v), std::max(a.e, b.e));  // 1-Lipschitz in each: no branch error
}
template <class A>
[[nodiscard]] Tracked<A> min(const Tracked<A>& a, const Tracked<A>& b) {
  return Tracked<A>::exact(std::min(a.v, b.v), std::max(a.e, b.e));
}
template <class A>
[[nodiscard]] bool isfinite(const Tracked<A>& x) {
  return std::isfinite(x.v);
}
template <class A>
[[nodiscard]] Tracked<A> exp(const Tracked<A>& x) {
  return tracked_detail::monotone(x, x.v - x.e, x.v + x.e, [](double t) { return std::exp(t); });
}
template <class A>
[[nodiscard]] Tracked<A> tanh(const Tracked<A>& x) {
  return tracked_detail::monotone(x, x.v - x.e, x.v + x.e, [](double t) { return std::tanh(t); });
}
// erf is increasing everywhere: its change over the operand's interval plus the libm allowance
// (glibc's erff and erf). An approximation with a larger error of its own (ATen's vectorized
// erf) adds that as an absolute term at the call site.
template <class A>
[[nodiscard]] Tracked<A> erf(const Tracked<A>& x) {
  return tracked_detail::monotone(x, x.v - x.e, x.v + x.e, [](double t) { return std::erf(t); });
}
template <class A>
[[nodiscard]] Tracked<A> log1p(const Tracked<A>& x) {
  if (!(x.v - x.e > -1)) return Tracked<A>::exact(std::log1p(x.v), std::numeric_limits<double>::infinity());
  return tracked_detail::monotone(x, x.v - x.e, x.v + x.e, [](double t) { return std::log1p(t); });
}
template <class A>
[[nodiscard]] Tracked<A> log(const Tracked<A>& x) {
  if (!(x.v - x.e > 0)) return Tracked<A>::exact(std::log(x.v), std::numeric_limits<double>::infinity());
  return tracked_detail::monotone(x, x.v - x.e, x.v + x.e, [](double t) { return std::log(t); });
}
// sqrt is correctly rounded in both precisions: one rounding, no libm allowance.
template <class A>
[[nodiscard]] Tracked<A> sqrt(const Tracked<A>& x) {
  const double r = std::sqrt(x.v);
  const double lo = std::sqrt(std::max(0.0, x.v - x.e)), hi = std::sqrt(x.v + x.e);
  return Tracked<A>::rounded(r, std::max(hi - r, r - lo));
}
// x^y for x > 0: monotone in x and in y separately, so the extremes are at the corners.
template <class A>
[[nodiscard]] Tracked<A> pow(const Tracked<A>& x, const Tracked<A>& y) {
  const double r = std::pow(x.v, y.v);
  const double xl = x.v - x.e, xh = x.v + x.e;
  if (!(xl > 0)) return Tracked<A>::exact(r, std::numeric_limits<double>::infinity());
  double spread = 0;
  for (double a : {xl, xh})
    for (double b : {y.v - y.e, y.v + y.e}) spread = std::max(spread, std::abs(std::pow(a, b) - r));
  return Tracked<A>::exact(r, spread + tracked_detail::kLibmUlps * Tracked<A>::u * std::abs(r) + Tracked<A>::tiny);
}

template <class T>
inline constexpr bool is_tracked = false;
template <class A>
inline constexpr bool is_tracked<Tracked<A>> = true;

// A function of one variable that is monotone on the operand's interval (a clamp included: it
// changes the value by at most `jump` where the interval holds a clamp point), evaluated with
// `ulps` roundings of its own in each precision: no branch for the comparisons to doubt.
template <class A, class F>
[[nodiscard]] Tracked<A> monotone_map(const Tracked<A>& x, F f, double ulps, double jump = 0) {
  Tracked<A> r = tracked_detail::monotone(x, x.v - x.e, x.v + x.e, f, ulps);
  r.e += jump;
  return r;
}

// The binary64 value of a scalar of any of the numeric templates' types.
[[nodiscard]] inline double value_of(double x) { return x; }
template <class A>
[[nodiscard]] double value_of(const Tracked<A>& x) {
  return x.v;
}

}  // namespace common
