#pragma once
// Helpers shared by the optimizer-state, attestation and multi-step rules (9, 10, 14-26): the
// receipt's optimizer_config as the reference reads it, JavaScript truthiness and key order (the
// reference iterates objects with Object.keys), and failure builders.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reconcile/failure.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/tolerance.hpp"

namespace reconcile::rules {

// optimizer_config when it is an object with a string name; numeric members only when they are
// numbers; nesterov / dampening as written (any JSON value, null included) when the key exists.
struct OptimizerConfigView {
  std::string name;
  std::optional<double> learning_rate, beta1, beta2, epsilon, weight_decay, t, momentum;
  const Json* nesterov = nullptr;
  const Json* dampening = nullptr;

  [[nodiscard]] bool is_adam_family() const { return name == "adam" || name == "adamw"; }
  [[nodiscard]] std::optional<double> dampening_number() const { return as_number(dampening); }
  [[nodiscard]] bool nesterov_true() const { return nesterov && nesterov->is_boolean() && nesterov->get<bool>(); }
};
[[nodiscard]] std::optional<OptimizerConfigView> read_optimizer_config(const Json& receipt);

// The coupled-L2 coefficient of the SGD family (sgd, sgd_momentum): weight_decay when finite and
// >= 0, otherwise 0. Adam/AdamW decay is decoupled and never enters the gradient: 0 for them.
[[nodiscard]] double sgd_coupled_weight_decay(const std::optional<OptimizerConfigView>& oc);


// An object's members in Object.keys order after JSON.parse: array-index keys ("0".."4294967294",
// canonical) ascending first, then the others in first-appearance order; a duplicated key keeps
// its first position and its last value. Empty for a non-object.
using KeyedMember = std::pair<std::string_view, const Json*>;
[[nodiscard]] std::vector<KeyedMember> js_members(const Json* obj);

// Object.keys(v) for a JSON value: an object's keys in js_members order, an array's or a string's
// indices, nothing for other values and for absent.
[[nodiscard]] std::vector<std::string> js_object_keys(const Json* v);

// Number(v) as JavaScript arithmetic coerces an operand: null 0, booleans 0/1, numeric strings
// their value, absent/objects NaN.
[[nodiscard]] double js_to_number(const Json* v);
// The value when it is a JSON number, NaN otherwise (Number.isFinite never coerces: a tolerance
// check on a non-number fails as non-finite).
[[nodiscard]] double strict_number(const Json* v) noexcept;

// String(v) as JavaScript prints it (messages, map keys built from ids); "undefined" when absent.
[[nodiscard]] std::string js_string(const Json* v);

// A failure with the zero quartet the reference writes for non-arithmetic findings.
[[nodiscard]] Failure plain_failure(int rule, std::string field_path, std::string message,
                                    std::optional<std::string> parameter_id = std::nullopt);

// A tolerance comparison failure (delta NaN / tolerance 0 when the arithmetic was non-finite).
[[nodiscard]] Failure numeric_failure(int rule, std::string field_path, double stored, double recomputed,
                                      const ToleranceCheck& check, std::string message,
                                      std::optional<std::string> parameter_id = std::nullopt);

// Math.pow as V8 computes it (fdlibm), so bias-correction divisors match the reference bit for bit.
[[nodiscard]] double js_pow(double x, double y) noexcept;

}  // namespace reconcile::rules
