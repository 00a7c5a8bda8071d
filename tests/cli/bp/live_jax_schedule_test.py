"""bp verify tensor against real JAX runs with jax.example_libraries.optimizers' step-size
schedules and the writer's clip_grads: every schedule optimizers offers verifies over steps that
cross its decay points, eagerly (Python floats) and under jax.jit (fp32, lax.pow); a learning
rate moved in its 5th significant digit fails rule 6 and a schedule setting changed in the model
fails rule 6 too; a schedule of the user's own is refused by the writer; clipped runs (always,
never, and around the norm) verify, a moved total_norm fails rule 7, and clipped gradients given
to record() fail rule 4."""
import json
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax.example_libraries import optimizers, stax

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_common import check_schema, check, fetch_helper, finish, first_failure, mutate_line, verify_tensor  # noqa: E402

BP, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
fetch_helper(BP, "jax_mlp", WORK)
from jax_mlp_trace_helper import MlpReceiptWriter  # noqa: E402


def train(path, optimizer, steps=10, jit=False, clip=None, record_clipped=False, seed=0, hidden=10):
    layers = [stax.Dense(hidden), stax.Tanh, stax.Dense(3)]
    init_fun, apply_fun = stax.serial(*layers)
    rng = np.random.default_rng(seed)
    with MlpReceiptWriter(layers, apply_fun, loss="cross_entropy", optimizer=optimizer, out=path) as w:
        opt_init, opt_update, get_params = w.optimizer
        grad_fn = jax.value_and_grad(w.loss_fn)
        if jit:
            opt_update, grad_fn = jax.jit(opt_update), jax.jit(grad_fn)
        _, params = init_fun(jax.random.PRNGKey(seed), (-1, 5))
        state = opt_init(params)
        for i in range(steps):
            x = jnp.asarray(rng.standard_normal((8, 5)), dtype=jnp.float32)
            y = jnp.asarray(rng.integers(0, 3, 8))
            value, grads = grad_fn(get_params(state), x, y)
            used = grads if clip is None else w.clip_grads(grads, clip)
            new_state = opt_update(i, used, state)
            w.record(i, x, y, state, value, used if record_clipped else grads, new_state)
            state = new_state


def verify(path_or_bytes, label, want=0):
    return verify_tensor(BP, path_or_bytes, label, want)


schedules = {
    "exponential": ("adam", optimizers.exponential_decay(0.05, 3, 0.5)),
    "inverse_time": ("sgd", optimizers.inverse_time_decay(0.1, 3, 0.7)),
    "inverse_time_staircase": ("momentum", optimizers.inverse_time_decay(0.1, 3, 0.7, staircase=True), 0.9),
    "polynomial": ("nesterov", optimizers.polynomial_decay(0.1, 6, 0.01), 0.9),
    "polynomial_int_power": ("adam", optimizers.polynomial_decay(0.05, 7.5, 0.001, power=2)),
    "piecewise": ("sgd", optimizers.piecewise_constant([2, 5.5], [0.1, 0.03, 0.01])),
    "piecewise_int": ("adam", optimizers.piecewise_constant(np.array([3, 6], dtype=np.int32), [0.02, 0.01, 0.005])),
    "constant": ("sgd", optimizers.constant(0.1)),
}
for name, opt in schedules.items():
    for jit in (False, True):
        label = f"{name}{' (jit)' if jit else ''}"
        path = os.path.join(WORK, f"{name}{'_jit' if jit else ''}.jsonl")
        train(path, opt, jit=jit)
        rep = verify(path, label)
        check(rep.get("receipts") == 10, f"{label}: ten receipts verified: {rep.get('receipts')}")

# Long enough for pow's sensitivity and the schedules' fp32 quotients to matter (i / decay_steps up
# to 120), under jit, on a small network: every step's lr and update within their bounds. (The
# short polynomial run above crosses decay_steps = 6, where jit's 1 - i * (1/6), fused, is
# -2.98e-8, not 0: XLA divides by a constant through its reciprocal. With a fractional power that
# is NaN, JAX's own, which bp refuses as a non-finite tensor; hence power 0.7 only before 1000.)
for name, opt in [("long_exponential", ("sgd", optimizers.exponential_decay(0.2, 1, 0.999))),
                  ("long_inverse_time", ("sgd", optimizers.inverse_time_decay(0.2, 7, 0.37))),
                  ("long_polynomial", ("sgd", optimizers.polynomial_decay(0.2, 1000, 0.002, power=0.7)))]:
    path = os.path.join(WORK, f"{name}.jsonl")
    train(path, opt, steps=120, jit=True, hidden=2)
    rep = verify(path, name)
    check(rep.get("receipts") == 120, f"{name}: 120 receipts verified: {rep.get('receipts')}")

with open(os.path.join(WORK, "exponential.jsonl"), "rb") as f:
    lines = f.read().splitlines()
first = json.loads(lines[0])
check(first["model"].get("scheduler") == {"kind": "jax_exponential_decay", "step_size": 0.05, "decay_steps": 3.0, "decay_rate": 0.5},
      f"the schedule is recorded in the model: {first['model'].get('scheduler')}")
lr5 = json.loads(lines[5])["step"]["lr"]
check(abs(lr5 - 0.05 * 0.5 ** (5 / 3)) < 1e-9, f"step 5's lr is the schedule's: {lr5}")
rep = verify(mutate_line(lines, 5, lambda r: r["step"].__setitem__("lr", lr5 * (1 + 1e-5))), "lr moved", want=1)
f = first_failure(rep)
check(f.get("rule") == 6 and f.get("step") == 5 and "exponential_decay" in f.get("message", ""),
      f"lr moved: rule 6 names step 5 and the schedule: {f}")
recs = [json.loads(line) for line in lines]
for r in recs:
    r["model"]["scheduler"]["decay_rate"] = 0.6
changed = b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in recs)
rep = verify(changed, "decay_rate changed in every receipt", want=1)
check(first_failure(rep).get("rule") in (6, 1), f"decay_rate changed: caught: {first_failure(rep)}")
check(any(x.get("rule") == 6 for x in rep.get("failures", [])), f"decay_rate changed: rule 6 among the failures: {rep.get('failures')}")

# The writer refuses a schedule it cannot recompute, naming it, before training.
try:
    MlpReceiptWriter([stax.Dense(2)], stax.serial(stax.Dense(2))[1], loss="mse", optimizer=("sgd", lambda i: 0.1 / (1 + i)),
                     out=os.path.join(WORK, "own.jsonl"))
    check(False, "the writer refuses a schedule of the user's own")
except ValueError as e:
    check("<lambda>" in str(e) and "Supported:" in str(e), f"the writer refuses a schedule of the user's own, naming it: {e}")

# Clipping through the writer: always (0.05, eager and jit), around the gradient norm (0.9, jit)
# and never (1e3, eager).
for max_norm, modes in ((0.05, (False, True)), (0.9, (True,)), (1e3, (False,))):
    for jit in modes:
        label = f"clip {max_norm}{' (jit)' if jit else ''}"
        path = os.path.join(WORK, f"clip_{max_norm}_{jit}.jsonl")
        train(path, ("adam", 0.05), jit=jit, clip=max_norm)
        rep = verify(path, label)
        check(rep.get("receipts") == 10, f"{label}: ten receipts verified: {rep.get('receipts')}")
with open(os.path.join(WORK, "clip_0.05_False.jsonl"), "rb") as f:
    clipped = f.read().splitlines()
norm3 = json.loads(clipped[3])["step"]["clip"]["total_norm"]
check(norm3 > 0.05, f"the clip acted: total_norm {norm3} above max_norm 0.05")
rep = verify(mutate_line(clipped, 3, lambda r: r["step"]["clip"].__setitem__("total_norm", norm3 * (1 + 1e-4))), "total_norm moved", want=1)
check(first_failure(rep).get("rule") == 7 and first_failure(rep).get("step") == 3, f"total_norm moved: rule 7 at step 3: {first_failure(rep)}")
path = os.path.join(WORK, "clip_recorded_after.jsonl")
train(path, ("sgd", 0.1), clip=0.05, record_clipped=True)
rep = verify(path, "clipped gradients given to record()", want=1)
check(first_failure(rep).get("rule") == 4, f"clipped gradients given to record(): rule 4 first: {first_failure(rep)}")

# The receipts against schemas/tensor-step.v0.2.0.json with Debian's jsonschema.
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas", "tensor-step.v0.2.0.json")
files = [os.path.join(WORK, f"{n}.jsonl") for n in schedules] + [os.path.join(WORK, "clip_0.05_False.jsonl")]
check_schema(SCHEMA, files, "tensor-step.v0.2.0.json accepts the receipts")
finish("live_jax_schedule_test")
