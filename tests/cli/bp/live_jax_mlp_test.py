"""bp verify tensor against real JAX runs (jax.example_libraries.stax and optimizers) written by
the shipped MlpReceiptWriter (`bp examples jax_mlp --print`): a short run per activation, loss and
optimizer verifies, eagerly and with the update and the gradient under jax.jit (a traced step
index: b^k by lax.pow instead of repeated squaring); tampered gradients, optimizer state, learning
rates, parameters between steps and step order are each caught by their rule; a torch optimizer,
scheduler, LayerNorm or Dropout in a jax receipt is refused as malformed; the writer refuses what
bp cannot recompute (optimizers.clip_grads as an optimizer, by name, other stax layers and wrapped
activations, layers out of order, Dropout in test mode); a 784-256-10 batch-64 Adam run split
across two files verifies as one stream. GELU (stax.Gelu, and jax.nn.gelu exact and tanh through
stax.elementwise) and SiLU verify, with a gradient entry moved in its 7th digit caught;
before="first" (the default) receipts verify and are smaller than "every"; jax_mlp.LayerNorm and
stax.Dropout (its mask recorded) verify, a 7th-digit gradient change and a flipped mask entry are
caught. The losses half_squared_error, cross_entropy with label smoothing and class weights, and
bce_with_logits with pos_weight verify (eager and under jit; about 6 s), a 7th-digit gradient change
is caught, bce's backward stays exact at very negative logits, and the writer refuses options it
does not support by name. Schedules and clipping: live_jax_schedule_test.py."""
import base64
import functools
import json
import math
import os
import struct
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.example_libraries import optimizers, stax

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_common import check_schema, bp, check, fetch_helper, finish, first_failure, largest_entry, mutate_line, retensor, verify_tensor  # noqa: E402

BP, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
fetch_helper(BP, "jax_mlp", WORK)
from jax_mlp_trace_helper import LayerNorm, MlpReceiptWriter  # noqa: E402


def train(path, widths, acts, loss, optimizer, steps=3, batch=8, seed=0, jit=False, resume_from=None, start=None,
          before="first"):
    layers = []
    for i in range(len(widths) - 1):
        layers.append(stax.Dense(widths[i + 1]))
        if acts[i] is not None:  # a layer, or a list of them (LayerNorm, activation, Dropout)
            layers += acts[i] if isinstance(acts[i], list) else [acts[i]]
    init_fun, apply_fun = stax.serial(*layers)
    rng = np.random.default_rng(seed)
    with MlpReceiptWriter(layers, apply_fun, loss=loss, optimizer=optimizer, out=path, resume_from=resume_from,
                          before=before) as w:
        opt_init, opt_update, get_params = w.optimizer
        grad_fn = jax.value_and_grad(w.loss_fn)
        if jit:
            opt_update, grad_fn = jax.jit(opt_update), jax.jit(grad_fn)
        if start is None:
            _, params = init_fun(jax.random.PRNGKey(seed), (-1, widths[0]))
            state, first = opt_init(params), 0
        else:
            state, first = start
        for i in range(first, first + steps):
            x = jnp.asarray(rng.standard_normal((batch, widths[0])), dtype=jnp.float32)
            kind = loss if isinstance(loss, str) else loss[0]
            y = jnp.asarray(rng.integers(0, widths[-1], batch)) if kind == "cross_entropy" else jnp.asarray(
                (rng.uniform if kind == "bce_with_logits" else rng.standard_normal)(size=(batch, widths[-1])), dtype=jnp.float32)
            key = jax.random.PRNGKey(1000 * seed + i)  # stax.Dropout's draws (unused without one)
            value, grads = grad_fn(get_params(state), x, y, key)
            new_state = opt_update(i, grads, state)
            w.record(i, x, y, state, value, grads, new_state, key=key)
            state = new_state
    return state, first + steps


def verify(path_or_bytes, label, want=0):
    return verify_tensor(BP, path_or_bytes, label, want)


ADAM = ("adam", 1e-2)
runs = {
    "relu": ([6, 12, 3], [stax.Relu, None], "cross_entropy", ADAM),
    "leaky_relu": ([6, 12, 3], [stax.LeakyRelu, None], "cross_entropy", ADAM),
    "sigmoid": ([6, 12, 3], [stax.Sigmoid, None], "cross_entropy", ADAM),
    "tanh": ([6, 12, 3], [stax.Tanh, None], "cross_entropy", ADAM),
    "identity": ([6, 12, 3], [stax.Identity, None], "cross_entropy", ADAM),
    "gelu_tanh": ([6, 12, 3], [stax.Gelu, None], "cross_entropy", ADAM),
    "gelu": ([6, 12, 3], [stax.elementwise(jax.nn.gelu, approximate=False), None], "cross_entropy", ADAM),
    "silu": ([6, 12, 3], [stax.elementwise(jax.nn.silu), None], "cross_entropy", ADAM),
    "jax_nn_forms": ([5, 9, 7, 11, 4], [stax.elementwise(jax.nn.gelu, approximate=True),
                                        stax.elementwise(functools.partial(jax.nn.gelu, approximate=False)),
                                        stax.elementwise(jax.nn.leaky_relu, negative_slope=0.2), None], "cross_entropy", ADAM),
    "deep": ([5, 9, 7, 11, 4], [stax.Tanh, stax.Relu, stax.Sigmoid, None], "cross_entropy", ADAM),
    "ce_sum": ([6, 12, 3], [stax.Relu, None], ("cross_entropy", "sum"), ADAM),
    "mse_mean": ([6, 12, 3], [stax.Tanh, None], "mse", ADAM),
    "mse_sum": ([6, 12, 3], [stax.Tanh, None], ("mse", "sum"), ADAM),
    "sgd": ([6, 12, 3], [stax.Relu, None], "cross_entropy", ("sgd", 0.1)),
    "momentum": ([6, 12, 3], [stax.Relu, None], "cross_entropy", ("momentum", 0.1, 0.9)),
    "nesterov": ([6, 12, 3], [stax.Tanh, None], "cross_entropy", ("nesterov", 0.1, 0.9)),
    "adam_settings": ([6, 12, 3], [stax.Relu, None], "mse", ("adam", 3e-3, 0.8, 0.99, 1e-6)),
}
for name, (widths, acts, loss, opt) in runs.items():
    path = os.path.join(WORK, f"{name}.jsonl")
    train(path, widths, acts, loss, opt, before="every" if name == "relu" else "first")
    rep = verify(path, name)
    check(rep.get("receipts") == 3, f"{name}: three receipts verified: {rep.get('receipts')}")

# Under jax.jit, and for long enough that Adam's bias correction b^k matters at many k.
for name, opt in [("jit_adam", ADAM), ("jit_nesterov", ("nesterov", 0.05, 0.9))]:
    path = os.path.join(WORK, f"{name}.jsonl")
    train(path, [6, 12, 3], [stax.Tanh if name == "jit_adam" else stax.Gelu, None], "cross_entropy", opt, steps=40, jit=True)
    rep = verify(path, name)
    check(rep.get("receipts") == 40, f"{name}: forty receipts verified: {rep.get('receipts')}")

# Tampering, on the relu run: each is caught by its own rule.
with open(os.path.join(WORK, "relu.jsonl"), "rb") as f:
    lines = f.read().splitlines()


def mutated(line_no, fn):
    return mutate_line(lines, line_no, fn)


g = json.loads(lines[1])["gradients"]["tensors"][2]
at = largest_entry(g)
rep = verify(mutated(1, lambda r: retensor(r["gradients"]["tensors"][2], at, 1 + 1e-4)), "gradient moved", want=1)
f = first_failure(rep)
check(f.get("rule") == 4 and f.get("tensor") == "grad.layers.1.weight" and f.get("index") == at and f.get("step") == 1,
      f"gradient moved: rule 4 names step 1, grad.layers.1.weight[{at}]: {f}")
m = json.loads(lines[2])["after"]["tensors"][4]  # m.layers.0.weight
rep = verify(mutated(2, lambda r: retensor(r["after"]["tensors"][4], largest_entry(m), 1 + 1e-4)), "m moved", want=1)
check(first_failure(rep).get("rule") == 5 and first_failure(rep).get("tensor") == "m.layers.0.weight",
      f"m moved: rule 5 names m.layers.0.weight: {first_failure(rep)}")
rep = verify(mutated(1, lambda r: retensor(r["before"]["tensors"][0], 0, 1.5)), "parameter changed between steps", want=1)
check(first_failure(rep).get("rule") == 2, f"parameter changed between steps: rule 2 first: {first_failure(rep)}")
rep = verify(mutated(2, lambda r: r["step"].__setitem__("lr", 0.02)), "learning rate changed", want=1)
check(first_failure(rep).get("rule") == 6, f"learning rate changed: rule 6 first: {first_failure(rep)}")
rep = verify(b"\n".join([lines[0], lines[2], lines[1]]) + b"\n", "two steps swapped", want=1)
check(first_failure(rep).get("rule") == 1, f"two steps swapped: rule 1 first: {first_failure(rep)}")

# A gradient entry moved by 5 units of its 7th significant digit, in layer 0 (its gradient passes
# through each new activation's backward), is caught at that entry: by rule 4 where the backward's
# bound is that tight, else by rule 5, whose update starts from the stored gradient.
for name in ("gelu_tanh", "gelu", "silu"):
    with open(os.path.join(WORK, f"{name}.jsonl"), "rb") as f:
        act_lines = f.read().splitlines()
    g = json.loads(act_lines[1])["gradients"]["tensors"][0]  # grad.layers.0.weight
    at = largest_entry(g)
    (v,) = struct.unpack_from("<f", base64.b64decode(g["data"]), 4 * at)
    factor = 1 + 5 * 10.0 ** (math.floor(math.log10(abs(v))) - 6) / abs(v)
    rep = verify(mutate_line(act_lines, 1, lambda r: retensor(r["gradients"]["tensors"][0], at, factor)), f"{name}: 7th digit moved", want=1)
    f = first_failure(rep)
    check(f.get("rule") in (4, 5) and f.get("tensor", "").endswith("layers.0.weight") and f.get("index") == at and f.get("step") == 1,
          f"{name}: grad.layers.0.weight[{at}] moved in its 7th digit is caught there: {f}")

# before="first" (the default): only the first receipt carries the state before its step; the same
# run written with before="every" verifies too and is larger.
every = os.path.join(WORK, "silu_every.jsonl")
train(every, [6, 12, 3], [stax.elementwise(jax.nn.silu), None], "cross_entropy", ADAM, before="every")
with open(os.path.join(WORK, "silu.jsonl"), "rb") as a, open(every, "rb") as b:
    first_lines, every_lines = a.read().splitlines(), b.read().splitlines()
check(["before" in json.loads(x) for x in first_lines] == [True, False, False], "before=\"first\": only line 1 has before")
check(all("before" in json.loads(x) for x in every_lines), "before=\"every\": each line has before")
check(verify(every, "silu before=every").get("receipts") == 3, "silu before=every verifies")
size_first, size_every = sum(map(len, first_lines)), sum(map(len, every_lines))
check(size_first < 0.8 * size_every, f"before=\"first\" is smaller: {size_first} vs {size_every} bytes")
try:
    MlpReceiptWriter([stax.Dense(2)], stax.serial(stax.Dense(2))[1], loss="mse", optimizer=("sgd", 1.0),
                     out=os.path.join(WORK, "x.jsonl"), before="none")
    check(False, "writer refuses before=\"none\"")
except ValueError as e:
    check("before=" in str(e), f"writer refuses before=\"none\": {e}")

# LayerNorm (jax_mlp.LayerNorm: two-pass moments, rsqrt) and stax.Dropout (rate = the keep
# probability, its mask drawn again from the layer's key and recorded): eagerly and under jit.
t_norm = time.perf_counter()
norm_runs = {
    "layer_norm": ([6, 12, 3], [[LayerNorm(), stax.Relu], None], "cross_entropy", ADAM, False),
    "dropout": ([6, 12, 3], [[LayerNorm(1e-3, affine=False), stax.Tanh, stax.Dropout(0.7)], None], "mse", ADAM, False),
    "dropout_ln": ([6, 16, 8, 3], [[LayerNorm(), stax.Relu, stax.Dropout(0.5)], [stax.Tanh, stax.Dropout(0.8)], None],
                   "cross_entropy", ("momentum", 0.05, 0.9), True),
}
for name, (widths, acts, loss, opt, jit) in norm_runs.items():
    path = os.path.join(WORK, f"{name}.jsonl")
    train(path, widths, acts, loss, opt, jit=jit)
    rep = verify(path, name)
    check(rep.get("receipts") == 3, f"{name}: three receipts verified: {rep.get('receipts')}")


def seventh_digit_caught(name, tensor):
    """The largest entry of a gradient moved by 5 units of its 7th significant digit (step 1) is
    caught at that entry: by rule 4, or by rule 5 where the update from the stored gradient is
    tighter than the backward's bound."""
    with open(os.path.join(WORK, f"{name}.jsonl"), "rb") as f:
        recs = [json.loads(l) for l in f.read().splitlines()]
    t = recs[1]["gradients"]["tensors"][tensor]
    at = largest_entry(t)
    (v,) = struct.unpack_from("<f", base64.b64decode(t["data"]), 4 * at)
    retensor(t, at, 1 + 5 * 10.0 ** (math.floor(math.log10(abs(v))) - 6) / abs(v))
    rep = verify(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in recs), f"{name}: 7th digit moved", want=1)
    f = first_failure(rep)
    check(f.get("rule") in (4, 5) and f.get("tensor", "").endswith(t["name"]) and f.get("index") == at and f.get("step") == 1,
          f"{name}: {t['name']}[{at}] moved in its 7th digit caught: {f}")
    print(f"{name}: step 1 {t['name']}[{at}] moved in its 7th digit: rule {f.get('rule')}, bound {f.get('bound')}")


seventh_digit_caught("layer_norm", 4)  # layers.1.weight: layer 0 has weight, bias, norm.weight, norm.bias
seventh_digit_caught("layer_norm", 2)  # layers.0.norm.weight
seventh_digit_caught("dropout", 2)
seventh_digit_caught("dropout_ln", 4)

# A kept entry of a recorded mask marked dropped: the recomputed forward changes, the loss (rule 3) fails.
with open(os.path.join(WORK, "dropout.jsonl"), "rb") as f:
    drop_lines = f.read().splitlines()
mask0 = json.loads(drop_lines[1])["batch"]["tensors"][2]
mask_vals = struct.unpack("<96f", base64.b64decode(mask0["data"]))
check(mask0["name"] == "mask.layers.0" and set(mask_vals) == {0.0, 1.0} and 0 < mask_vals.count(0.0) < 96,
      f"dropout: the mask is recorded, 0s and 1s: {mask0['name']} {mask_vals.count(0.0)} dropped")
kept = mask_vals.index(1.0)
rep = verify(mutate_line(drop_lines, 1, lambda r: retensor(r["batch"]["tensors"][2], kept, 0.0)), "dropout mask entry flipped", want=1)
f = first_failure(rep)
check(f.get("rule") == 3 and f.get("step") == 1, f"dropout mask entry {kept} flipped: rule 3 (loss) at step 1: {f}")
# torch's convention is not stax's: the same receipt read as nn.Dropout(p = 0.7) fails the loss.
as_torch = mutate_line(drop_lines, 0, lambda r: r["model"]["layers"][0].__setitem__("dropout_keep", 0.3))
check(first_failure(verify(as_torch, "keep rate 0.3 for 0.7", want=1)).get("rule") == 3, "dropout: a changed keep rate fails the loss")
print(f"layer_norm and dropout runs: {time.perf_counter() - t_norm:.1f} s")

# The losses beyond cross_entropy and mse: half_squared_error (0.5 * mse) and cross_entropy with
# label smoothing and class weights (recorded as fp32 values), eagerly and under jit; jax.grad's
# backward of each stays within the bounds of torch's formulas. A 7th-digit change of an output
# layer's gradient entry (the loss gradient's first product) is caught.
t_loss = time.perf_counter()
WEIGHT = [0.5, 1.25, 2.1]  # 2.1 is not an fp32 value: the receipt holds float32(2.1)
loss_runs = {
    "half_mean": ("half_squared_error", False),
    "half_sum_jit": (("half_squared_error", "sum"), True),
    "ce_smooth_weight": (("cross_entropy", "mean", {"label_smoothing": 0.1, "weight": WEIGHT}), False),
    "ce_smooth_weight_sum_jit": (("cross_entropy", "sum", {"label_smoothing": 0.2, "weight": WEIGHT}), True),
    "ce_smooth_jit": (("cross_entropy", "mean", {"label_smoothing": 0.15}), True),
    "ce_weight": (("cross_entropy", "mean", {"weight": np.asarray(WEIGHT, np.float32)}), False),
    "bce": ("bce_with_logits", False),
    "bce_pos_weight_jit": (("bce_with_logits", "mean", {"pos_weight": WEIGHT}), True),
    "bce_pos_weight_sum": (("bce_with_logits", "sum", {"pos_weight": WEIGHT}), False),
}
for name, (loss, jit) in loss_runs.items():
    path = os.path.join(WORK, f"{name}.jsonl")
    train(path, [6, 12, 3], [stax.Tanh, None], loss, ADAM, jit=jit)
    rep = verify(path, name)
    check(rep.get("receipts") == 3, f"{name}: three receipts verified: {rep.get('receipts')}")
with open(os.path.join(WORK, "ce_smooth_weight.jsonl"), "rb") as f:
    ce_lines = f.read().splitlines()
recorded = json.loads(ce_lines[0])["model"]["loss"]
check(recorded == {"kind": "cross_entropy", "reduction": "mean", "label_smoothing": 0.1,
                   "weight": [float(np.float32(v)) for v in WEIGHT]}, f"label smoothing and fp32 class weights recorded: {recorded}")
check(json.loads(open(os.path.join(WORK, "half_mean.jsonl"), "rb").readline())["model"]["loss"]
      == {"kind": "half_squared_error", "reduction": "mean"}, "half_squared_error recorded")
for name in ("half_mean", "ce_smooth_weight", "ce_smooth_weight_sum_jit", "bce_pos_weight_jit"):
    seventh_digit_caught(name, 2)  # grad.layers.1.weight
# BCEWithLogitsLoss's backward is torch's (a custom_vjp): at logits near -12 with targets 0 the
# gradient is sigmoid(x) / n to fp32 precision; jax.grad of the forward formula would compute it as
# 1 - (1 - sigmoid(x)) and keep about 3 digits. The step verifies.
bce_init, bce_apply = stax.serial(stax.Dense(3))
with MlpReceiptWriter([stax.Dense(3)], bce_apply, loss="bce_with_logits", optimizer=("sgd", 0.1),
                      out=os.path.join(WORK, "bce_negative.jsonl")) as w:
    w0, b0 = bce_init(jax.random.PRNGKey(0), (-1, 4))[1][0]
    state = w.optimizer[0]([(w0 * 0.01, jnp.full((3,), -12.0, jnp.float32))])
    x, y = jnp.asarray(np.random.default_rng(5).standard_normal((8, 4)), jnp.float32), jnp.zeros((8, 3), jnp.float32)
    value, grads = jax.value_and_grad(w.loss_fn)(w.optimizer[2](state), x, y)
    logits = np.asarray(x, np.float64) @ np.asarray(w0 * 0.01, np.float64) - 12.0
    want = (1 / (1 + np.exp(-logits))).sum(axis=0) / 24
    got = np.asarray(grads[0][1], np.float64)
    check(np.max(np.abs(got / want - 1)) < 1e-5, f"bce at logits near -12: bias gradient to fp32 precision: {got} vs {want}")
    w.record(0, x, y, state, value, grads, w.optimizer[1](0, grads, state))
check(verify(os.path.join(WORK, "bce_negative.jsonl"), "bce at logits near -12").get("receipts") == 1, "bce at logits near -12 verifies")
# A class weight changed in the receipt: the recomputed loss differs (rule 3).
rep = verify(mutate_line(ce_lines, 0, lambda r: r["model"]["loss"]["weight"].__setitem__(2, 2.0)), "class weight changed", want=1)
check(first_failure(rep).get("rule") == 3, f"a changed class weight fails the loss: {first_failure(rep)}")
print(f"loss runs: {time.perf_counter() - t_loss:.1f} s")

# torch's formulas are not JAX's: a jax receipt relabelled as torch's Adam or given a torch
# scheduler, LayerNorm or Dropout is refused as malformed (the trainer says jax).
for label, fn, where in [
    ("torch optimizer", lambda r: r["model"].__setitem__("optimizer", {"kind": "adam", "lr": 0.01, "weight_decay": 0.0, "beta1": 0.9,
                                                                       "beta2": 0.999, "eps": 1e-08, "amsgrad": False}), "/model/optimizer/kind"),
    ("mass", lambda r: r["model"]["optimizer"].__setitem__("mass", 0.9), "/model/optimizer"),
    ("scheduler", lambda r: r["model"].__setitem__("scheduler", {"kind": "exponential", "gamma": 0.9}), "/model/scheduler"),
    ("torch LayerNorm", lambda r: r["model"]["layers"][0].__setitem__("layer_norm", {"eps": 1e-5, "elementwise_affine": False}),
     "/model/layers/0/layer_norm"),
    ("torch Dropout", lambda r: r["model"]["layers"][0].__setitem__("dropout", 0.3), "/model/layers/0/dropout"),
    ("ignore_index", lambda r: r["model"]["loss"].__setitem__("ignore_index", -100), "/model/loss/ignore_index"),
]:
    r = bp(BP, "verify", "tensor", "-", stdin=mutated(0, fn))
    check(r.returncode == 2 and where.encode() in r.stderr, f"malformed {label}: exit {r.returncode}, names {where}: {r.stderr.decode()[-300:]}")

# The writer refuses what bp cannot recompute, before training, saying what it supports.
for label, args, needle in [
    ("a lambda of gelu", ([stax.Dense(2), stax.elementwise(lambda x: jax.nn.gelu(x))], "mse", ("sgd", 1.0)), "layer 1"),
    ("gelu(approximate=1)", ([stax.Dense(2), stax.elementwise(jax.nn.gelu, approximate=1)], "mse", ("sgd", 1.0)), "layer 1"),
    ("silu with a keyword", ([stax.Dense(2), stax.elementwise(jax.nn.silu, beta=2.0)], "mse", ("sgd", 1.0)), "layer 1"),
    ("Elu", ([stax.Dense(2), stax.Elu], "mse", ("sgd", 1.0)), "layer 1"),
    ("Softplus", ([stax.Dense(2), stax.Softplus], "mse", ("sgd", 1.0)), "layer 1"),
    ("rmsprop", ([stax.Dense(2)], "mse", ("rmsprop", 1.0)), "rmsprop"),
    ("bce", ([stax.Dense(2)], "bce", ("sgd", 1.0)), "bce"),
    ("bce with weight", ([stax.Dense(2)], ("bce_with_logits", "mean", {"weight": [1.0, 2.0]}), ("sgd", 1.0)), "'weight' for bce_with_logits"),
    ("ignore_index", ([stax.Dense(2)], ("cross_entropy", "mean", {"ignore_index": -100}), ("sgd", 1.0)), "'ignore_index'"),
    ("label_smoothing for mse", ([stax.Dense(2)], ("mse", "mean", {"label_smoothing": 0.1}), ("sgd", 1.0)), "'label_smoothing' for mse"),
    ("label_smoothing 1.5", ([stax.Dense(2)], ("cross_entropy", "mean", {"label_smoothing": 1.5}), ("sgd", 1.0)), "1.5"),
    ("a 2-d weight", ([stax.Dense(2)], ("cross_entropy", "mean", {"weight": [[1.0, 2.0]]}), ("sgd", 1.0)), "'weight'"),
    ("activation first", ([stax.Relu, stax.Dense(2)], "mse", ("sgd", 1.0)), "layer 0"),
    ("clip_grads", ([stax.Dense(2)], "mse", (optimizers.clip_grads, 1.0)), "clip_grads"),
    ("clip_grads by name", ([stax.Dense(2)], "mse", ("clip_grads", 1.0)), "clip_grads"),
    ("Dropout before the activation", ([stax.Dense(2), stax.Dropout(0.5), stax.Relu], "mse", ("sgd", 1.0)), "layer 2"),
    ("LayerNorm after the activation", ([stax.Dense(2), stax.Relu, LayerNorm()], "mse", ("sgd", 1.0)), "layer 2"),
    ("LayerNorm first", ([LayerNorm(), stax.Dense(2)], "mse", ("sgd", 1.0)), "layer 0"),
    ("Dropout in test mode", ([stax.Dense(2), stax.Dropout(0.5, mode="test")], "mse", ("sgd", 1.0)), "mode 'test'"),
    ("Dropout keeping all", ([stax.Dense(2), stax.Dropout(1.0)], "mse", ("sgd", 1.0)), "rate 1.0"),
]:
    layers, loss, opt = args
    try:
        MlpReceiptWriter(layers, stax.serial(*layers)[1], loss=loss, optimizer=opt, out=os.path.join(WORK, "x.jsonl"))
        check(False, f"writer refuses {label}")
    except ValueError as e:
        check(needle in str(e) and "Supported:" in str(e), f"writer refuses {label}, naming it and listing what it supports: {e}")

# With Dropout, record() needs the key loss_fn was given: without it the mask cannot be drawn again.
drop_layers = [stax.Dense(3), stax.Dropout(0.5)]
with MlpReceiptWriter(drop_layers, stax.serial(*drop_layers)[1], loss="mse", optimizer=("sgd", 0.1), out=os.path.join(WORK, "x.jsonl")) as w:
    init_fun = stax.serial(*drop_layers)[0]
    state = w.optimizer[0](init_fun(jax.random.PRNGKey(0), (-1, 2))[1])
    x, y = jnp.ones((4, 2), jnp.float32), jnp.zeros((4, 3), jnp.float32)
    value, grads = jax.value_and_grad(w.loss_fn)(w.optimizer[2](state), x, y, jax.random.PRNGKey(1))
    try:
        w.record(0, x, y, state, value, grads, w.optimizer[1](0, grads, state))
        check(False, "record without the key refused")
    except ValueError as e:
        check("key" in str(e), f"record without the key refused, naming it: {e}")

# Class weights are checked against the output width at the first record(), before anything is written.
one_init, one_apply = stax.serial(stax.Dense(3))
with MlpReceiptWriter([stax.Dense(3)], one_apply, loss=("cross_entropy", "mean", {"weight": [1.0, 2.0]}),
                      optimizer=("sgd", 0.1), out=os.path.join(WORK, "x.jsonl")) as w:
    state = w.optimizer[0](one_init(jax.random.PRNGKey(0), (-1, 2))[1])
    x, y = jnp.ones((4, 2), jnp.float32), jnp.zeros((4,), jnp.int32)
    value, grads = jax.value_and_grad(w.loss_fn)(w.optimizer[2](state), x, y)
    try:
        w.record(0, x, y, state, value, grads, w.optimizer[1](0, grads, state))
        check(False, "two class weights for three classes refused")
    except ValueError as e:
        check("'weight' holds 2 values for 3 outputs" in str(e), f"two class weights for three classes refused, naming it: {e}")
check(os.path.getsize(os.path.join(WORK, "x.jsonl")) == 0, "nothing written for the refused weights")

# MNIST-sized: 784-256-10, batch 64, Adam, generated data, split across two files that chain by
# digest and verify as one stream.
part1, part2 = os.path.join(WORK, "mnist1.jsonl"), os.path.join(WORK, "mnist2.jsonl")
t0 = time.perf_counter()
state = train(part1, [784, 256, 10], [stax.Relu, None], "cross_entropy", ("adam", 1e-3), steps=2, batch=64)
train(part2, [784, 256, 10], [stax.Relu, None], "cross_entropy", ("adam", 1e-3), steps=1, batch=64, seed=1,
      resume_from=part1, start=state)
with open(part1, "rb") as a, open(part2, "rb") as b:
    stream = a.read() + b.read()
t1 = time.perf_counter()
rep = verify(stream, "784-256-10 in two files")
t2 = time.perf_counter()
check(rep.get("receipts") == 3 and rep.get("first_index") == 0, f"784-256-10: three receipts from index 0: {rep.get('receipts')}")
print(f"784-256-10 batch 64 Adam (JAX): 3 steps written in {t1 - t0:.2f} s, verified in {t2 - t1:.2f} s")
# The receipts against schemas/tensor-step.v0.2.0.json with Debian's jsonschema (an independent
# validator; this venv's Python has JAX but not jsonschema).
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas", "tensor-step.v0.2.0.json")
files = [os.path.join(WORK, f"{n}.jsonl") for n in ("relu", "momentum", "sgd", "adam_settings", "jit_adam", "mse_sum",
                                                   "gelu", "gelu_tanh", "silu", "jax_nn_forms", "jit_nesterov", "layer_norm",
                                                   "dropout", "dropout_ln", *loss_runs)]
check_schema(SCHEMA, files, "tensor-step.v0.2.0.json accepts the jax receipts")
finish("live_jax_mlp_test")
