#pragma once
// The natural logarithm exactly as the reference computes it: V8's Math.log is fdlibm's
// __ieee754_log, whose result can differ from the C library's correctly rounded log in the last
// bit. Rule 12's cross-entropy uses this one so recomputed losses are bit-identical.
namespace reconcile::rules::core {

[[nodiscard]] double js_log(double x) noexcept;

}  // namespace reconcile::rules::core
