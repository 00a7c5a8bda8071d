#pragma once
// The reconciler's twin of receipt/engine/contraction_probe.hpp: the rules recompute the engine's
// products and sums and must round them the same way.
namespace reconcile::rules {
[[nodiscard]] double contraction_probe(double a, double b, double c);
}
