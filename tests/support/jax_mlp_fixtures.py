"""Writes fixtures/mlp/jax-*: a short real JAX run (6-16-8-3: jax_mlp.LayerNorm, ReLU, stax.Dropout(0.5);
Tanh, stax.Dropout(0.8); momentum, under jax.jit) through bp's jax MlpReceiptWriter, and a copy with
step 1's first kept mask entry marked dropped, whose .meta.json says rule 3 (the loss) fails first.
Run by hand with the JAX venv (SUITE_PYTHON_VENV's bin/python tests/support/jax_mlp_fixtures.py);
tests/mlp_audit/fixtures_test.cpp reads the files without JAX."""
import base64
import hashlib
import json
import os
import struct
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax.example_libraries import stax

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "apps", "bp", "extract"))
from jax_mlp import LayerNorm, MlpReceiptWriter  # noqa: E402

OUT = os.path.join(ROOT, "fixtures", "mlp")
NAME = "jax-norm-dropout-momentum"
layers = [stax.Dense(16), LayerNorm(), stax.Relu, stax.Dropout(0.5), stax.Dense(8), stax.Tanh, stax.Dropout(0.8), stax.Dense(3)]
init_fun, apply_fun = stax.serial(*layers)
rng = np.random.default_rng(7)
good = os.path.join(OUT, NAME + ".jsonl")
with MlpReceiptWriter(layers, apply_fun, loss="cross_entropy", optimizer=("momentum", 0.05, 0.9), out=good) as w:
    opt_init, opt_update, get_params = w.optimizer
    grad_fn, opt_update = jax.jit(jax.value_and_grad(w.loss_fn)), jax.jit(opt_update)
    state = opt_init(init_fun(jax.random.PRNGKey(7), (-1, 6))[1])
    for i in range(3):
        x = jnp.asarray(rng.standard_normal((8, 6)), dtype=jnp.float32)
        y = jnp.asarray(rng.integers(0, 3, 8))
        key = jax.random.PRNGKey(100 + i)
        loss, grads = grad_fn(get_params(state), x, y, key)
        new_state = opt_update(i, grads, state)
        w.record(i, x, y, state, loss, grads, new_state, key=key)
        state = new_state

with open(good, "rb") as f:
    recs = [json.loads(l) for l in f.read().splitlines()]
mask = recs[1]["batch"]["tensors"][2]
data = bytearray(base64.b64decode(mask["data"]))
kept = struct.unpack(f"<{len(data) // 4}f", data).index(1.0)
struct.pack_into("<f", data, 4 * kept, 0.0)
mask["data"], mask["sha256"] = base64.b64encode(bytes(data)).decode(), hashlib.sha256(bytes(data)).hexdigest()
with open(os.path.join(OUT, NAME + ".bad-mask.jsonl"), "wb") as f:
    f.write(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in recs))
with open(os.path.join(OUT, NAME + ".bad-mask.meta.json"), "w") as f:
    json.dump({"mutation": "step 1's first kept entry of mask.layers.0 marked dropped", "rule": 3}, f, indent=1)
    f.write("\n")
