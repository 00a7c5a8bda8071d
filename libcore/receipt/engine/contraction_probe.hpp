#pragma once
// a * b + c compiled under this library's floating-point options, where the target allows an FMA:
// a fused result means the library contracts products into sums, which the reference's V8 never
// does (tests/reconcile/fp_contraction_test.cpp).
namespace receipt::engine {
[[nodiscard]] double contraction_probe(double a, double b, double c);
}
