"""Real JAX steps through bp's live helper (apps/bp/extract/jax.py, fetched with
`bp examples jax --print`), imported and verified by the built bp.

Each optimizer JAX itself offers among bp's (jax.example_libraries.optimizers: sgd, momentum,
nesterov, adam) trains a small network several steps; the sidecars are imported multi-step,
line by line and (sgd) batched, and must agree with bp's engine and pass bp verify multi. Then
one gradient, one momentum buffer and one learning rate are tampered with in turn and each must
be caught (exit 1). The helper must refuse x64 off and what it cannot describe.
Usage: live_jax_test.py BP WORKDIR   (run by the SUITE_PYTHON_VENV interpreter)
"""
import hashlib
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import live_common as lc  # noqa: E402

BP, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
os.environ.setdefault("JAX_PLATFORMS", "cpu")
lc.fetch_helper(BP, "jax", WORK)

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import jax_trace_helper as helper  # noqa: E402
import numpy as np  # noqa: E402

TRACE = "0c9a8b7d6e5f40312a1b0c9d8e7f6a5b"


def make_loss(kind, act_h):
    hidden = {"sigmoid": jax.nn.sigmoid, "relu": jax.nn.relu}[act_h]

    def loss_fn(params, x, y):
        (w1, b1), (w2, b2) = params
        net = hidden(x @ w1 + b1) @ w2 + b2
        if kind == "ce":
            return -(y * jax.nn.log_softmax(net, axis=-1)).sum(-1).mean()
        return 0.5 * ((jax.nn.sigmoid(net) - y) ** 2).sum(-1).mean()
    return loss_fn


def train(path, opt_name, steps=4, batch=1, kind="half", act_h="sigmoid", trace_id=TRACE, **hyper):
    n_out = 3 if kind == "ce" else 2
    loss_fn = make_loss(kind, act_h)
    rng = np.random.default_rng(11)  # data and initial values from NumPy: no per-primitive JAX compiles
    params = [(jnp.asarray(rng.normal(size=(2, 3)) * 0.7), jnp.full((3,), 0.1)),
              (jnp.asarray(rng.normal(size=(3, n_out)) * 0.7), jnp.full((n_out,), -0.1))]
    dumper = helper.TraceDumper(loss_fn, activation_hidden=act_h,
                                activation_output="softmax" if kind == "ce" else "sigmoid",
                                loss="cross_entropy_softmax" if kind == "ce" else "half_squared_error",
                                out=path, trace_id=trace_id)
    opt_init, opt_update, get_params = dumper.optimizer(opt_name, **hyper)
    state = opt_init(params)
    grad_fn, opt_update = jax.jit(jax.grad(loss_fn)), jax.jit(opt_update)
    for i in range(steps):
        x = jnp.asarray(rng.uniform(size=(batch, 2)) * 2 + 0.5)
        if kind == "ce":
            y = jnp.asarray(np.eye(n_out)[rng.integers(0, n_out, size=batch)])
        else:
            y = jnp.asarray(rng.uniform(size=(batch, n_out)))
        grads = grad_fn(get_params(state), x, y)
        new_state = opt_update(i, grads, state)
        dumper.record(i, x, y, state, grads, new_state)
        state = new_state
    dumper.close()
    return lc.read_lines(path)


OPTIMIZERS = {
    "sgd": ("sgd", {"step_size": 0.5}),
    "momentum": ("momentum", {"step_size": 0.3, "mass": 0.9}),
    "nesterov": ("nesterov", {"step_size": 0.3, "mass": 0.8}),
    "adam": ("adam", {"step_size": 0.01}),
}
records = {}
for label, (name, hyper) in OPTIMIZERS.items():
    path = os.path.join(WORK, f"{label}.jsonl")
    recs = train(path, name, **hyper)
    lc.check([r["step_index"] for r in recs] == [0, 1, 2, 3], f"{label}: 4 dense steps")
    lc.expect_agreement(BP, "jax", path, label)
    records[label] = recs

adam = records["adam"]
lc.check(adam[3]["optimizer"]["t"] == 4, "adam: t is JAX's step number + 1")
uri = adam[0]["helper"]["source_uri"]
lc.check("#jaxpr_sha256=" in uri and len(uri.split("=")[-1]) == 64, "helper block carries the gradient jaxpr digest")
with open(os.path.join(WORK, "jax_trace_helper.py"), "rb") as f:
    lc.check(adam[0]["helper"]["source_hash"] == "sha256:" + hashlib.sha256(f.read()).hexdigest(),
             "helper block carries the helper's own sha256")

for label, kwargs in {"ce-relu": {"kind": "ce", "act_h": "relu"}, "ce-batch6": {"kind": "ce", "batch": 6},
                      "half-batch5": {"batch": 5}}.items():
    path = os.path.join(WORK, f"{label}.jsonl")
    recs = train(path, "sgd", steps=3, step_size=0.4, **kwargs)
    lc.check(("batch" in recs[0]) == ("batch" in kwargs), f"{label}: batched sidecar iff batch > 1")
    lc.expect_agreement(BP, "jax", path, label)

single = os.path.join(WORK, "single.json")
recs = train(single, "adam", steps=1, trace_id=None, step_size=0.02)
r = lc.bp(BP, "import", "jax", single)
lc.check(r.returncode == 0 and r.stdout.count(b"\n") == 1, f"single: bp import jax F exit {r.returncode}")

# The same sidecar named as another framework is refused (exit 2), never silently relabelled.
r = lc.bp(BP, "import", "pytorch", single)
lc.check(r.returncode == 2, f"jax sidecar imported as pytorch: exit {r.returncode} (want 2)")


def bump_gradient(recs):
    recs[1]["updates"][2]["gradient"] += 1e-3


def bump_buffer_after(recs):
    recs[2]["updates"][5]["optimizer"]["state_after"]["buffer"] *= 1.5


def bump_learning_rate(recs):
    recs[3]["learning_rate"] *= 1.1
    recs[3]["optimizer"]["learning_rate"] = recs[3]["learning_rate"]
    for u in recs[3]["updates"]:
        u["optimizer"]["learning_rate"] = recs[3]["learning_rate"]


def swap_pytree_order(recs):  # a helper that named w1's leaves in the wrong order
    a, b = recs[0]["parameters_before"]["w_i1_h1"], recs[0]["parameters_before"]["w_i1_h2"]
    recs[0]["parameters_before"]["w_i1_h1"], recs[0]["parameters_before"]["w_i1_h2"] = b, a


mom = records["momentum"]
lc.expect_caught(BP, "jax", mom, bump_gradient, "tampered gradient", ".gradient")
lc.expect_caught(BP, "jax", mom, bump_buffer_after, "tampered momentum buffer", "state_after.buffer")
lc.expect_caught(BP, "jax", mom, bump_learning_rate, "tampered learning rate", "updates[")
lc.expect_caught(BP, "jax", mom, swap_pytree_order, "swapped pytree order", "forward.h")
lc.expect_caught(BP, "jax", adam, bump_gradient, "adam: tampered gradient", ".gradient")

# Refusals at the boundary.
loss_fn = make_loss("half", "sigmoid")
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(loss_fn, activation_hidden="tanh"), "tanh",
                  "tanh activation")
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(loss_fn).optimizer("adamw", 0.1), "adamw",
                  "optimizer JAX does not offer")
lc.expect_refusal(helper.HelperRefusal, lambda: train(os.path.join(WORK, "r.jsonl"), "adam", batch=3, step_size=0.1),
                  "plain SGD only", "batched adam")
lc.check(not os.path.exists(os.path.join(WORK, "r.jsonl")), "a refused trace leaves no output file")
jax.config.update("jax_enable_x64", False)
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(loss_fn), "jax_enable_x64", "x64 disabled")
jax.config.update("jax_enable_x64", True)

lc.finish("live_jax_test")
