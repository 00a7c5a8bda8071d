"""Measures XLA's CPU fp32 tanh, logistic, erf, erfc and exp (each a jitted jnp/lax call, as
JAX's activations reach them) against a binary64 reference, and prints, per function, the
largest error in fp32 ulps of the reference, in units of 2^-24 |reference| (how
common::Tracked's libm allowance kLibmUlps counts: `ulps * u * |r|`), and absolute.

    JAX_PLATFORMS=cpu $VENV/bin/python tests/cli/bp/measure_xla_transcendentals.py [--check] [samples]

The allowances in libcore/mlp_audit/xla_math.hpp come from this script's output. With --check
(the ctest bp_live_xla_allowances) it also reads them from that header and exits 1 when a
measured error exceeds its allowance: a jaxlib whose approximations got worse is caught there. The
reference is numpy's / scipy's binary64 function, itself within a few 2^-53 of the exact
value: 2^-29 of an fp32 ulp, nothing next to what is measured. Inputs: uniform over each
function's range, log-uniform magnitudes with both signs (the small arguments), and the
endpoints; a fixed seed, so the same machine prints the same numbers. A few seconds at
the default 2,000,000 samples per function.
"""
import os
import re
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from scipy import special

U = 2.0 ** -24
SMALLEST_NORMAL = float(np.finfo(np.float32).tiny)


def inputs(lo, hi, n, rng):
    uniform = rng.uniform(lo, hi, n // 2)
    top = max(abs(lo), abs(hi))
    mags = np.exp(rng.uniform(np.log(1e-30), np.log(top), n - n // 2))
    signed = mags * rng.choice([-1.0, 1.0], mags.size)
    signed = signed[(signed >= lo) & (signed <= hi)]
    ends = [lo, hi, 0.0, -0.0, 1e-30, -1e-30, 1e-7, -1e-7, 4e-4, -4e-4, 1.0, -1.0]
    x = np.concatenate([uniform, signed, [e for e in ends if lo <= e <= hi]]).astype(np.float32)
    return np.concatenate([x, np.nextafter(x, np.float32(np.inf)), np.nextafter(x, np.float32(-np.inf))])


def ulp(r):
    """One fp32 ulp at the binary64 value r (a subnormal's below the smallest normal)."""
    a = np.maximum(np.abs(r), SMALLEST_NORMAL)
    return np.ldexp(1.0, (np.floor(np.log2(a)) - 23).astype(np.int64))


FUNCTIONS = {
    # name: (fp32 function under jit, binary64 reference, input range)
    "tanh": (jnp.tanh, np.tanh, (-20.0, 20.0)),
    "logistic": (lax.logistic, lambda x: special.expit(x), (-104.0, 90.0)),
    "erf": (lax.erf, special.erf, (-10.0, 10.0)),
    "erfc": (lax.erfc, special.erfc, (-10.0, 10.0)),
    "exp": (jnp.exp, np.exp, (-104.0, 88.7)),
    "log": (jnp.log, np.log, (1e-30, 1e30)),  # log_softmax's, in a jax receipt's cross-entropy
}


def measure(name, n, rng):
    f32, f64, (lo, hi) = FUNCTIONS[name]
    x = inputs(lo, hi, n, rng)
    got = np.asarray(jax.jit(f32)(jnp.asarray(x)), dtype=np.float64)
    ref = f64(x.astype(np.float64))
    err = np.abs(got - ref)
    normal = np.abs(ref) >= SMALLEST_NORMAL
    ulps = np.where(normal, err / ulp(ref), 0.0)
    rel = np.where(normal, err / (U * np.maximum(np.abs(ref), SMALLEST_NORMAL)), 0.0)
    i, j, k = int(np.argmax(ulps)), int(np.argmax(rel)), int(np.argmax(err))
    below = err[~normal].max() if (~normal).any() else 0.0
    print(f"{name:9s} n={x.size:9d} max ulps {ulps[i]:7.3f} (x={x[i]:.9g})  max err/(2^-24|r|) {rel[j]:7.3f} (x={x[j]:.9g})  "
          f"max abs {err[k]:.3e} (x={x[k]:.9g})  max abs where |r| < 2^-126 {below:.3e}")
    return rel[j], below


def erfc_pieces(n, rng):
    """erfc's error grows with its argument (1 - erf below 1, then a rational approximation of a
    value that underflows): the allowance is per piece of the argument."""
    out = []
    for lo, hi in ((-10.0, 1.0), (1.0, 2.0), (2.0, 4.0), (4.0, 10.0)):
        x = inputs(lo, hi, n // 4, rng)
        got = np.asarray(jax.jit(lax.erfc)(jnp.asarray(x)), dtype=np.float64)
        ref = special.erfc(x.astype(np.float64))
        err = np.abs(got - ref)
        normal = np.abs(ref) >= SMALLEST_NORMAL
        rel = np.where(normal, err / (U * np.maximum(np.abs(ref), SMALLEST_NORMAL)), 0.0)
        print(f"  erfc on [{lo:g}, {hi:g}]: max err/(2^-24|r|) {rel.max():7.3f}  max abs {err.max():.3e} "
              f"= {err.max() / U:.3f} x 2^-24")
        out.append((rel.max(), err.max() / U))
    return out


def allowances():
    """The k... = number constants of libcore/mlp_audit/xla_math.hpp (a 4 * 0x1p-24 as 4)."""
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "libcore", "mlp_audit",
                          "xla_math.hpp")
    with open(header) as f:
        return {k: float(v) for k, v in re.findall(r"\b(k[A-Z]\w+) = ([0-9.]+)\b", f.read())}


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    n = int(args[0]) if args else 2_000_000
    print(f"jax {jax.__version__}, backend {jax.default_backend()}, {n} samples per function")
    got = {name: measure(name, n, np.random.default_rng(29)) for name in FUNCTIONS}
    pieces = erfc_pieces(n, np.random.default_rng(29))
    if not check:
        return
    a = allowances()
    flush = 2.0 ** -126 + 2.0 ** -149  # XLA's flush of a subnormal result, within a subnormal's rounding
    checks = [(f"{name} relative", got[name][0], a[key]) for name, key in
              (("tanh", "kTanhUlps"), ("logistic", "kLogisticUlps"), ("exp", "kExpUlps"))]
    checks += [(f"{name} where |r| < 2^-126", got[name][1], flush) for name in ("tanh", "logistic", "exp", "erfc")]
    checks += [("erfc below 1, absolute / 2^-24", pieces[0][1], a["kErfcBelowOneAbs"]),
               ("erfc on [1, 2]", pieces[1][0], a["kErfcUlpsTo2"]), ("erfc on [2, 4]", pieces[2][0], a["kErfcUlpsTo4"]),
               ("erfc on [4, 10]", pieces[3][0], a["kErfcUlpsBeyond"])]
    bad = [f"{label}: measured {m:.4g} > allowance {lim:.4g}" for label, m, lim in checks if not m <= lim]
    for line in bad:
        print("FAIL: " + line)
    print(f"{len(checks)} allowances checked against libcore/mlp_audit/xla_math.hpp, {len(bad)} exceeded")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
