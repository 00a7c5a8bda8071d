#pragma once
// Attentional bias psi(e) and psi'(e) of the inner objective (nltrain-math §6.0, §6.6, §6.7, O-15):
// identity for the matrix rules and MEMORA, l_p for Moneta (2e at p = 2), Huber for YAAD.
#include <cmath>

#include "nl/rule_config.hpp"
#include "nl/tracked32.hpp"

namespace nl {

template <typename T>
struct AttentionalBias {
  enum class Kind : unsigned char { identity, lp, huber } kind = Kind::identity;
  T p = 2, a_s = 10, delta = 1;

  [[nodiscard]] static AttentionalBias for_rule(RuleKind rule, const RuleConfig& cfg) {
    AttentionalBias b;
    b.p = static_cast<T>(cfg.p), b.a_s = static_cast<T>(cfg.a_s), b.delta = static_cast<T>(cfg.huber_delta);
    if (rule == RuleKind::moneta) b.kind = Kind::lp;
    if (rule == RuleKind::yaad) b.kind = Kind::huber;
    return b;
  }

  [[nodiscard]] T psi(T e) const {
    switch (kind) {
      case Kind::identity: return e;
      case Kind::huber: return fabs(e) < delta ? e : (e > 0 ? delta : -delta);
      case Kind::lp:
        if (p == T(2)) return T(2) * e;
        if (p == T(1)) return tanh(a_s * e);
        return p * tanh(a_s * e) * pow(e * e + T(kLpEps), (p - T(1)) / T(2));
    }
    return e;
  }

  [[nodiscard]] T dpsi(T e) const {
    switch (kind) {
      case Kind::identity: return T(1);
      case Kind::huber: return fabs(e) < delta ? T(1) : T(0);
      case Kind::lp: {
        if (p == T(2)) return T(2);
        const T th = tanh(a_s * e);
        const T slope = a_s * (T(1) - th * th);
        if (p == T(1)) return slope;
        const T r = e * e + T(kLpEps);
        return p * (slope * pow(r, (p - T(1)) / T(2)) + th * (p - T(1)) * e * pow(r, (p - T(3)) / T(2)));
      }
    }
    return T(1);
  }

  static constexpr double kLpEps = 1e-6;
};

}  // namespace nl
