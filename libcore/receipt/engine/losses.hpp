#pragma once
// Per-output losses in the reference's operation order.
namespace receipt::engine {

// 0.5 * d * d with d = target - out, evaluated (0.5 * d) * d.
[[nodiscard]] double half_squared_error(double target, double out);

// -target * log(p), 0 when target is exactly 0 (so p = 0 never yields 0 * -inf).
[[nodiscard]] double cross_entropy(double target, double p);

}  // namespace receipt::engine
