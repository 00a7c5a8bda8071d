// read_jax_schedule (model_read.hpp): a "scheduler" object of a jax_ kind in an `mlp` receipt's model.
#include <cmath>
#include <string>

#include "mlp_audit/model_read.hpp"

namespace mlp_audit {
namespace jax_schedule_read_detail {  // named: the unity build shares one anonymous namespace

using JsonFields = common::JsonViewFields;

// Boundaries and values as numbers that are fp32 values (JAX holds them in fp32 arrays).
common::Status fp32_array(const FieldReader& at, const JsonFields& f, const char* key, std::size_t lo, std::vector<float>& out) {
  auto arr = f.array(key);
  if (!arr.ok()) return arr.error();
  if (arr->size() < lo || arr->size() > 4096) return f.error(key, "must hold " + std::to_string(lo) + " to 4096 numbers");
  return at.fp32_entries(f, key, *arr, out);
}

}  // namespace jax_schedule_read_detail

common::Status read_jax_schedule(const FieldReader& at, const View& obj, const Optimizer& o, JaxSchedule& s) {
  using namespace jax_schedule_read_detail;
  JsonFields f = at.fields(obj, "/model/scheduler");
  auto kind = pick<JaxScheduleKind>(f, "kind", {{"jax_exponential_decay", JaxScheduleKind::exponential_decay},
                                                {"jax_inverse_time_decay", JaxScheduleKind::inverse_time_decay},
                                                {"jax_polynomial_decay", JaxScheduleKind::polynomial_decay},
                                                {"jax_piecewise_constant", JaxScheduleKind::piecewise_constant}});
  if (!kind.ok()) return kind.error();
  s.kind = *kind;
  common::Status keys;
  switch (s.kind) {
    case JaxScheduleKind::exponential_decay: keys = f.only({"kind", "step_size", "decay_steps", "decay_rate"}); break;
    case JaxScheduleKind::inverse_time_decay: keys = f.only({"kind", "step_size", "decay_steps", "decay_rate", "staircase"}); break;
    case JaxScheduleKind::polynomial_decay: keys = f.only({"kind", "step_size", "decay_steps", "final_step_size", "power"}); break;
    case JaxScheduleKind::piecewise_constant: keys = f.only({"kind", "boundaries", "values"}); break;
  }
  if (!keys.ok()) return keys.error();
  if (s.kind == JaxScheduleKind::piecewise_constant) {
    if (auto b = fp32_array(at, f, "boundaries", 0, s.boundaries); !b.ok()) return b.error();
    if (auto v = fp32_array(at, f, "values", 1, s.values); !v.ok()) return v.error();
    if (s.values.size() != s.boundaries.size() + 1) return f.error("values", "must hold one more value than boundaries");
    for (float v : s.values)
      if (!(v >= 0)) return f.error("values", "must be step sizes (at least 0)");
    if (o.lr != s.values[0]) return f.error("values", "must start with the optimizer's lr (the step size at step 0)");
    return {};
  }
  // Ranges where every evaluation stays finite and positive: a step size and rates up to 10^6,
  // decay_steps of at least 2^-10 (i / decay_steps below 2^34), powers up to 64.
  auto number = [&](const char* key, double lo, double hi, double& out) -> common::Status {
    auto v = at.finite(f, key, lo, hi);
    if (!v.ok()) return v.error();
    out = *v;
    return {};
  };
  if (auto v = number("step_size", 0, 1e6, s.step_size); !v.ok()) return v.error();
  if (auto v = number("decay_steps", 0x1p-10, 1e12, s.decay_steps); !v.ok()) return v.error();
  switch (s.kind) {
    case JaxScheduleKind::exponential_decay:
      if (auto v = number("decay_rate", 0, 1e6, s.decay_rate); !v.ok()) return v.error();
      if (!(s.decay_rate >= 0x1p-126)) return f.error("decay_rate", "must be at least 2^-126 (a normal fp32 base for pow)");
      break;
    case JaxScheduleKind::inverse_time_decay: {
      if (auto v = number("decay_rate", 0, 1e6, s.decay_rate); !v.ok()) return v.error();
      auto st = f.boolean("staircase");
      if (!st.ok()) return st.error();
      s.staircase = *st;
      break;
    }
    case JaxScheduleKind::polynomial_decay:
      if (auto v = number("final_step_size", 0, 1e6, s.final_step_size); !v.ok()) return v.error();
      if (auto v = number("power", 0, 64, s.power); !v.ok()) return v.error();
      break;
    case JaxScheduleKind::piecewise_constant: break;
  }
  if (o.lr != s.step_size) return f.error("step_size", "must be the optimizer's lr");
  return {};
}

}  // namespace mlp_audit
