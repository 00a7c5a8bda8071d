"""Writes fixtures/mlp/jax-activations.txt: XLA's own fp32 values of JAX's activations and of their
jax.grad backward, for tests/mlp_audit/jax_activation_test.cpp (which needs no JAX). Each line is
`activation x g f(x) dL/dx` with the floats in hex (exact): jax.nn.sigmoid, jnp.tanh, jax.nn.silu,
jax.nn.gelu(approximate=False) and jax.nn.gelu (approximate=True), jitted, over a grid of [-12, 12],
the points where tests/cli/bp/measure_xla_transcendentals.py found XLA's largest errors, and the
far tails where XLA flushes subnormal results to zero. Run by hand:

    JAX_PLATFORMS=cpu $VENV/bin/python tests/support/jax_activation_fixtures.py
"""
import functools
import os

import jax
import jax.numpy as jnp
import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FUNCTIONS = {"sigmoid": jax.nn.sigmoid, "tanh": jnp.tanh, "silu": jax.nn.silu,
             "gelu": functools.partial(jax.nn.gelu, approximate=False), "gelu_tanh": jax.nn.gelu}
# The measured worst points (tanh, logistic, erfc's argument times -sqrt 2) and the tails.
SPECIAL = [0.00396295125, -7.08271885, -16.6362438, 8.11454678, -12.9186, -12.126, -3.0, -4.0, -90.0, -100.0,
           -87.5, 30.0, 1e-30, -1e-7, 0.0]


def main():
    x = np.concatenate([np.linspace(-12, 12, 481), SPECIAL]).astype(np.float32)
    g = np.float32(0.75) + np.float32(0.5) * np.sin(np.arange(x.size, dtype=np.float32))
    lines = []
    for name, f in FUNCTIONS.items():
        def both(x, g, f=f):
            y, back = jax.vjp(f, x)
            return y, back(g)[0]
        y, d = jax.jit(both)(jnp.asarray(x), jnp.asarray(g))
        for row in zip(x, g, np.asarray(y), np.asarray(d)):
            lines.append(name + " " + " ".join(float(v).hex() for v in row))
    with open(os.path.join(ROOT, "fixtures", "mlp", "jax-activations.txt"), "w") as out:
        out.write(f"# jax {jax.__version__}: activation x g f(x) dL/dx (tests/support/jax_activation_fixtures.py)\n")
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
