#include "nl_audit/fp64_checks.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <tuple>
#include <type_traits>

#include "nl/cms_backward.hpp"
#include "nl/cms_forward.hpp"
#include "nl/named_tensors.hpp"
#include "nl_audit/tensor_compare.hpp"

namespace nl_audit {
namespace {

constexpr double kU32 = 0x1p-24;  // unit roundoff of fp32, round to nearest
constexpr double kU64 = 0x1p-53;
// Below 2^-126 fp32 is subnormal and its rounding error stops being relative: at most half the
// smallest step, 2^-150. Every fp32 rounding's bound carries it (one step, for margin).
constexpr double kTiny32 = 0x1p-149;
// The same for the stored values' type T: an fp64 run's receipts (binary64 roundings, and
// binary64's smallest subnormal step).
template <typename T>
constexpr double kUnitOf = std::is_same_v<T, double> ? kU64 : kU32;
template <typename T>
constexpr double kTinyOf = std::is_same_v<T, double> ? 0x1p-1074 : kTiny32;

// Where each named parameter sits in MagParams::to_flat() (the named_tensors order), and the
// CMS level whose optimizer group it belongs to (nullopt: the attention group, every step).
struct Segment {
  std::string name;
  std::size_t offset = 0, size = 0;
  std::optional<std::size_t> level;
};

std::vector<Segment> segments(const nl::MagConfig& cfg) {
  nl::MagParams<float> z = nl::MagParams<float>::zeros(cfg);
  std::vector<Segment> out;
  std::size_t at = 0;
  for (const nl::NamedTensor& t : nl::named_tensors(cfg, z)) {
    std::optional<std::size_t> level;
    if (t.name.starts_with("levels/")) level = std::stoul(t.name.substr(7));
    out.push_back({t.name, at, t.data.size(), level});
    at += t.data.size();
  }
  return out;
}

double largest(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

class Bounds {
 public:
  Bounds(std::uint64_t step, const std::function<void(Failure)>& fail) : step_(step), fail_(fail) {}

  // The first of n entries outside its tolerance fails `rule`; `at(i)` gives entry i's stored
  // value, fp64 reference and tolerance (a std::tuple<float, double, double>), one at a time.
  template <class At>
  void each(unsigned rule, const std::string& name, std::size_t n, At at) const {
    for (std::size_t i = 0; i < n; ++i) {
      const auto [stored, ref, t] = at(i);
      if (std::abs(static_cast<double>(stored) - ref) <= t) continue;
      Failure f;
      f.rule = rule, f.step = step_, f.tensor = name, f.index = i;
      f.stored = exact_text(stored), f.recomputed = exact_text(ref), f.tolerance = exact_text(t);
      f.message = name + " is outside the fp64 bound";
      fail_(std::move(f));
      return;
    }
  }
  template <class S, class Tol>
  void entries(unsigned rule, const std::string& name, std::span<const S> stored, std::span<const double> ref, Tol tol) const {
    each(rule, name, stored.size(), [&](std::size_t i) { return std::tuple<S, double, double>{stored[i], ref[i], tol(i)}; });
  }
  // A forward/backward quantity: kForwardSlack roundoffs (of the stored type S) of the entry and
  // of `scale`, the largest magnitude of its kind (every gradient, every context): an entry that
  // cancels to nearly nothing keeps the error of the terms it summed, bounded by that scale.
  template <class S>
  void forward(unsigned rule, const std::string& name, std::span<const S> stored, std::span<const double> ref,
               double scale) const {
    entries<S>(rule, name, stored, ref,
               [&](std::size_t i) { return kForwardSlack * kUnitOf<S> * (std::abs(ref[i]) + scale) + kTinyOf<S>; });
  }
  void scalar(unsigned rule, const std::string& name, double stored, double ref, double tol) const {
    if (std::abs(stored - ref) <= tol) return;
    Failure f;
    f.rule = rule, f.step = step_, f.tensor = name;
    f.stored = exact_text(stored), f.recomputed = exact_text(ref), f.tolerance = exact_text(tol);
    f.message = name + " is outside the fp64 bound";
    fail_(std::move(f));
  }

 private:
  std::uint64_t step_;
  const std::function<void(Failure)>& fail_;
};

// §10's schedule: linear warm-up to the peak, then half a cosine to 0 at total_steps.
double schedule(const nl::AdamWConfig& o, std::uint64_t n) {
  if (n < o.warmup) return o.lr * static_cast<double>(n) / static_cast<double>(o.warmup);
  const double steps = o.total_steps > o.warmup ? static_cast<double>(o.total_steps - o.warmup) : 1.0;
  const double t = std::min(1.0, static_cast<double>(n - o.warmup) / steps);
  return std::max(0.0, 0.5 * o.lr * (1.0 + std::cos(std::numbers::pi * t)));
}

template <class A>
std::vector<double> values(const std::vector<common::Tracked<A>>& v) {
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i].v;
  return out;
}

// The step's numbers judged norm-wise: kForwardSlack roundoffs of the stored type T of the entry
// and of the largest entry of its kind (every gradient, every context), the bound used where a
// branch made the per-entry bounds unproven.
template <typename T>
void check_normwise(const BasicFp64Case<T>& c, const Bounds& b, const std::vector<Segment>& segs, const std::vector<T>& stored,
                    double loss, const std::vector<double>& ref, const std::vector<std::vector<common::Tracked<T>>>& error,
                    const nl::ContextMemory<common::Tracked<T>>& context_after) {
  const nl::MagConfig& cfg = c.r.cfg;
  b.scalar(4, "loss", c.r.loss, loss, kForwardSlack * kUnitOf<T> * std::max(1.0, std::abs(loss)));
  double grad_scale = largest(ref), context_scale = 0;
  for (const auto& e : error) grad_scale = std::max(grad_scale, largest(values(e)));
  for (const auto& l : context_after.levels) context_scale = std::max(context_scale, largest(values(l)));
  for (const Segment& s : segs) {
    b.forward<T>(5, "grad/" + s.name, std::span(stored).subspan(s.offset, s.size), std::span(ref).subspan(s.offset, s.size),
                 grad_scale);
  }
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    if (c.r.pulse[l]) continue;
    b.forward<T>(5, "error/levels/" + std::to_string(l), c.stored.error[l].to_flat(), values(error[l]), grad_scale);
  }
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    b.forward<T>(9, "context/" + std::to_string(l), c.after.context.levels[l], values(context_after.levels[l]), context_scale);
  }
}

// Every bound finite: a recurrence can make the running bound overflow (a divisor or a log's
// argument within its own bound), which proves nothing about the entries.
template <class X>
bool bounded(const X& loss, const std::vector<X>& grad, const std::vector<std::vector<X>>& error,
             const nl::ContextMemory<X>& context_after) {
  auto finite = [](const std::vector<X>& v) { return std::ranges::all_of(v, [](const X& x) { return std::isfinite(x.e); }); };
  return std::isfinite(loss.e) && finite(grad) && std::ranges::all_of(error, finite) &&
         std::ranges::all_of(context_after.levels, finite);
}

// The loss, the gradients, the frozen levels' error contributions and the contexts after: the
// forward and the hand-written backward at Tracked<T> (Tracked32 for an fp32 run, Tracked64 for
// an fp64 one), so each entry comes with its own bound on any evaluation of the same formulas in
// the receipt's precision (common/tracked.hpp). A branch that the receipt's evaluation could have
// taken the other way (a comparison inside its operands' bounds) or a bound that overflowed
// leaves them unproven: the step is then judged norm-wise (kForwardSlack units of T), and the
// report says how often.
template <typename T>
void check_forward(const BasicFp64Case<T>& c, const Bounds& b, const std::vector<Segment>& segs, const std::vector<T>& stored,
                   std::uint64_t& unproven) {
  using X = common::Tracked<T>;
  const nl::MagConfig& cfg = c.r.cfg;
  const nl::MagParams<X> p = c.before.params.template cast<X>();
  nl::ContextMemory<X> ctx;
  for (const auto& l : c.before.context.levels) ctx.levels.emplace_back(l.begin(), l.end());
  const nl::Pulse pulse{c.r.pulse};
  const std::uint64_t ambiguous_before = common::ambiguous_comparisons();
  auto f = nl::cms_forward<X>(cfg, p, c.ids, c.targets, pulse, ctx);
  if (!f.ok() || f->pulse.active != c.r.pulse) return;  // a learned gate at its threshold in fp64: (a) decides
  nl::MagGradients<X> g = nl::cms_backward_consuming<X>(cfg, p, *f);
  // Active levels' gradients have the buffered error of their frozen steps summed in (O-9).
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    if (!pulse.is_active(l)) continue;
    const std::vector<T> buf = c.before.buffer_sums[l].to_flat();
    std::vector<X> lv = g.params.levels[l].to_flat();
    for (std::size_t i = 0; i < lv.size(); ++i) lv[i] += X(buf[i]);
    g.params.levels[l] = nl::LevelParams<X>::from_flat(lv, cfg.d, nl::has_omega(cfg.rule)).value();
  }
  const std::vector<X> grad = g.params.to_flat();
  const std::vector<double> ref = values(grad);
  std::vector<std::vector<X>> error(cfg.levels());
  for (std::size_t l = 0; l < cfg.levels(); ++l) error[l] = g.error[l].to_flat();
  if (common::ambiguous_comparisons() != ambiguous_before || !bounded(f->loss, grad, error, f->context_after)) {
    ++unproven;
    check_normwise(c, b, segs, stored, f->loss.v, ref, error, f->context_after);
    return;
  }
  constexpr double tiny = kTinyOf<T>;
  auto own = [](const std::vector<X>& v) { return [&v](std::size_t i) { return v[i].e * (1 + kBoundSlack) + tiny; }; };
  b.scalar(4, "loss", c.r.loss, f->loss.v, f->loss.e * (1 + kBoundSlack) + tiny);
  for (const Segment& s : segs) {
    const std::vector<X> part(grad.begin() + static_cast<std::ptrdiff_t>(s.offset),
                              grad.begin() + static_cast<std::ptrdiff_t>(s.offset + s.size));
    b.entries<T>(5, "grad/" + s.name, std::span(stored).subspan(s.offset, s.size), values(part), own(part));
  }
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    if (pulse.is_active(l)) continue;
    b.entries<T>(5, "error/levels/" + std::to_string(l), c.stored.error[l].to_flat(), values(error[l]), own(error[l]));
  }
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    const std::vector<X>& after = f->context_after.levels[l];
    b.entries<T>(9, "context/" + std::to_string(l), c.after.context.levels[l], values(after), own(after));
  }
}

template <typename T>
void check_clip(const BasicFp64Case<T>& c, const Bounds& b, const std::vector<T>& g) {
  long double sq = 0;
  for (T x : g) sq += static_cast<long double>(x) * x;
  const double norm = static_cast<double>(std::sqrt(sq));
  // The trainer sums the squares in double: at most n roundings of the running sum.
  const double tol = static_cast<double>(g.size() + 2) * kU64 * norm;
  b.scalar(6, "grad_norm", c.r.grad_norm, norm, tol);
  const double clip = c.r.opt.clip;
  if (std::abs(norm - clip) <= tol) return;  // at the threshold either choice is sound
  if (norm > clip) {
    if (!c.r.clip_scale) {  // stored as not clipped: the factor it would need, against 1
      b.scalar(6, "clip_scale", 1.0, clip / norm, 0);
      return;
    }
    // One rounding of clip / N, and what N's own error (tol) does to the quotient: negligible
    // beside an fp32 rounding, the larger term for an fp64 run's factor.
    const double from_norm = std::is_same_v<T, double> ? tol / (norm - tol) : 0.0;
    b.scalar(6, "clip_scale", *c.r.clip_scale, clip / norm, (2 * kUnitOf<T> + from_norm) * (clip / norm));
  } else if (c.r.clip_scale) {
    b.scalar(6, "clip_scale", *c.r.clip_scale, 1.0, 0);
  }
}

template <typename T>
void check_adamw(const BasicFp64Case<T>& c, const Bounds& b, const std::vector<Segment>& segs, const std::vector<T>& g) {
  constexpr double u = kUnitOf<T>, tiny = kTinyOf<T>;
  const nl::AdamWConfig& o = c.r.opt;
  const nl::BasicTrainerState<T>& in = c.before;
  const nl::BasicTrainerState<T>& out = c.after;
  const double lr = c.r.lr;  // rule 7 checks it against the schedule
  const double scale = c.r.clip_scale ? static_cast<double>(*c.r.clip_scale) : 1.0;
  const std::vector<T> th0 = in.params.to_flat(), m0 = in.adam.m.to_flat(), v0 = in.adam.v.to_flat();
  const std::vector<T> th1 = out.params.to_flat(), m1 = out.adam.m.to_flat(), v1 = out.adam.v.to_flat();
  const double b1 = o.beta1, b2 = o.beta2;
  using Entry = std::tuple<T, double, double>;  // stored, fp64 reference, tolerance
  for (const Segment& s : segs) {
    const std::size_t at = s.offset;
    if (s.level && !c.r.pulse[*s.level]) {  // a frozen level's group does not move
      b.each(8, "adam_m/" + s.name, s.size, [&](std::size_t k) { return Entry{m1[at + k], m0[at + k], 0.0}; });
      b.each(8, "adam_v/" + s.name, s.size, [&](std::size_t k) { return Entry{v1[at + k], v0[at + k], 0.0}; });
      b.each(8, "params/" + s.name, s.size, [&](std::size_t k) { return Entry{th1[at + k], th0[at + k], 0.0}; });
      continue;
    }
    const std::uint64_t tau = s.level ? out.adam.tau_level[*s.level] : out.adam.tau;
    const double c1 = 1 - std::pow(b1, static_cast<double>(tau)), c2 = 1 - std::pow(b2, static_cast<double>(tau));
    // The moments from the stored, clipped gradient (its fp32 rounding is in the bound).
    b.each(8, "adam_m/" + s.name, s.size, [&](std::size_t k) {
      const double gi = static_cast<double>(g[at + k]) * scale;
      const double m = b1 * m0[at + k] + (1 - b1) * gi;
      return Entry{m1[at + k], m, 3 * u * (std::abs(b1 * m0[at + k]) + std::abs((1 - b1) * gi)) + 2 * tiny};
    });
    b.each(8, "adam_v/" + s.name, s.size, [&](std::size_t k) {
      const double gi = static_cast<double>(g[at + k]) * scale;
      const double v = b2 * v0[at + k] + (1 - b2) * gi * gi;
      return Entry{v1[at + k], v, 3 * u * (std::abs(b2 * v0[at + k]) + std::abs((1 - b2) * gi * gi)) + 2 * tiny};
    });
    // The update from the stored moments (each checked above), then one fp32 rounding.
    b.each(8, "params/" + s.name, s.size, [&](std::size_t k) {
      const std::size_t i = at + k;
      const double step = (m1[i] / c1) / (std::sqrt(v1[i] / c2) + o.eps) + o.weight_decay * th0[i];
      const double th = th0[i] - lr * step;
      return Entry{th1[i], th, u * std::abs(th) + 16 * kU64 * (std::abs(th0[i]) + lr * std::abs(step)) + tiny};
    });
  }
}

template <typename T>
void check_buffers(const BasicFp64Case<T>& c, const Bounds& b) {
  const nl::MagConfig& cfg = c.r.cfg;
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    const std::vector<T> before = c.before.buffer_sums[l].to_flat(), after = c.after.buffer_sums[l].to_flat();
    const std::vector<T> add = c.stored.error[l].to_flat();
    std::vector<double> want(before.size());
    std::vector<double> tol(before.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
      // An active level's buffer was summed into its gradient and emptied; a frozen one adds the
      // step's contribution (one fp32 rounding).
      want[i] = c.r.pulse[l] ? 0.0 : static_cast<double>(before[i]) + add[i];
      tol[i] = c.r.pulse[l] ? 0.0 : kUnitOf<T> * std::abs(want[i]) + kTinyOf<T>;
    }
    b.entries<T>(9, "error_buffer/levels/" + std::to_string(l), after, want, [&](std::size_t i) { return tol[i]; });
  }
}

// Every rule (b) holds, in the receipt's precision T.
template <typename T>
bool check_all(const BasicFp64Case<T>& c, const std::function<void(Failure)>& fail) {
  const Bounds b(c.r.step, fail);
  const std::vector<Segment> segs = segments(c.r.cfg);
  const double lr = schedule(c.r.opt, c.r.step);
  b.scalar(7, "lr", c.r.lr, lr, 8 * kU64 * std::abs(lr));
  const std::vector<T> g = c.stored.gradients.to_flat();  // once for the checks below
  std::uint64_t unproven = 0;
  check_forward(c, b, segs, g, unproven);
  check_clip(c, b, g);
  check_adamw(c, b, segs, g);
  check_buffers(c, b);
  return unproven == 0;
}

}  // namespace

bool check_fp64(const Fp64Case& c, const std::function<void(Failure)>& fail) { return check_all(c, fail); }
bool check_fp64(const BasicFp64Case<double>& c, const std::function<void(Failure)>& fail) { return check_all(c, fail); }

}  // namespace nl_audit
