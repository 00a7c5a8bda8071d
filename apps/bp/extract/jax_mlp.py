"""bp live helper for JAX MLPs (jax.example_libraries.stax and optimizers): one tensor receipt per
training step, for `bp verify tensor`.

    import jax
    from jax.example_libraries import stax
    from jax_mlp_receipts import MlpReceiptWriter

    layers = [stax.Dense(256), stax.Relu, stax.Dense(10)]
    init_fun, apply_fun = stax.serial(*layers)
    _, params = init_fun(jax.random.PRNGKey(0), (-1, 784))
    with MlpReceiptWriter(layers, apply_fun, loss="cross_entropy", optimizer=("adam", 1e-3),
                          out="run.jsonl") as writer:
        opt_init, opt_update, get_params = writer.optimizer   # built by jax.example_libraries
        state = opt_init(params)
        for i, (x, y) in enumerate(batches):
            loss, grads = jax.value_and_grad(writer.loss_fn)(get_params(state), x, y)
            new_state = opt_update(i, grads, state)
            writer.record(i, x, y, state, loss, grads, new_state)
            state = new_state

    bp verify tensor run.jsonl

Each line is a `tensor-step` receipt, version 0.2.0, model kind "mlp", trainer "jax" (man bp,
"verify tensor"), the same format as PyTorch's MlpReceiptWriter writes: a Dense layer's W
[in, out] is stored transposed as layers.<l>.weight [out, in] (a transpose moves bits, it changes
none), its b as layers.<l>.bias; the optimizer's state as m./v. (adam) or velocity. (momentum,
nesterov) of each parameter.

This file is an OBSERVER: it copies numbers out of JAX and never judges them. The optimizer
triple is jax.example_libraries.optimizers' own, made here only so that its settings are known;
the loss is one of the formulas written here, in the operation order bp recomputes (torch's).

What it accepts (anything else is refused when the writer is created, before training):
  layers     the list given to stax.serial: stax.Dense(n) layers, each followed, in this order, by
             at most one LayerNorm (this file's: jax_mlp.LayerNorm(eps=1e-5, affine=True); stax has
             none), at most one activation, and at most one stax.Dropout(rate) (mode "train",
             0 < rate < 1). Activations: stax.Relu, stax.LeakyRelu (slope 0.01), stax.Sigmoid,
             stax.Tanh, stax.Gelu (GELU's tanh form, jax.nn.gelu's default), stax.Identity, or
             stax.elementwise(f, **kwargs) of f = jax.nn.relu, jax.nn.leaky_relu (negative_slope=s),
             jax.nn.sigmoid (lax.logistic), jnp.tanh (lax.tanh), jax.nn.gelu (approximate=True: the
             tanh form; approximate=False: exact, through erfc), jax.nn.silu (jax.nn.swish), or a
             functools.partial of one of those. They are recognized by the function
             stax.elementwise was given, not by a name: a lambda or a wrapper of them is refused.
             bp recomputes each in jax.nn's operation order, its backward as jax.grad's, with
             XLA's measured tanh / logistic / exp / erfc errors (man bp, "verify tensor").
  loss       a name, (name, reduction) or (name, reduction, {options}); reduction "mean" (the
             default) or "sum". Names: "cross_entropy" (integer class labels; options
             "label_smoothing" (in [0, 1]) and "weight" (one class weight per output, recorded as
             fp32 values, as torch's receipts record them)), "mse", "half_squared_error"
             (0.5 * mse), "bce_with_logits" (targets in [0, 1]; option "pos_weight", one per
             output, fp32 values). Any other option is refused, by name (ignore_index too).
             Each is written in torch's operation order (libcore/mlp_audit/loss.cpp) and its
             gradient is jax.grad's, within the bounds of torch's backward; bce_with_logits's
             backward is torch's formula, through jax.custom_vjp (_bce_with_logits says why).
  optimizer  ("sgd", lr), ("momentum", lr, mass), ("nesterov", lr, mass),
             ("adam", lr[, b1, b2, eps]); lr a number or one of optimizers' schedules:
             constant, exponential_decay, inverse_time_decay (staircase too), polynomial_decay,
             piecewise_constant (its boundaries and values float32 or int32 arrays). Your own
             schedule function is refused: bp recomputes the schedules it knows, operation for
             operation, whether opt_update ran under jit (fp32) or not (Python floats).
LayerNorm is a function of this file, written so that bp can bound it: per row, mean = jnp.mean(x),
c = x - mean, var = jnp.mean(c * c) (two passes, biased), y = c * lax.rsqrt(var + eps) * gamma +
beta; its gradient is what jax.grad derives from that. Its parameters (gamma, beta) are written
as layers.<l>.norm.weight and .bias, after the Dense layer's. stax.Dropout's `rate` is the KEEP
probability (stax keeps an entry where bernoulli(key, rate) and divides it by rate): the receipt
says dropout_keep. With Dropout, loss_fn takes a PRNG key (writer.loss_fn(params, x, y, key)) and
record() the same key (record(..., key=key)): the writer draws each Dropout's mask again from the
key stax.serial gives that layer (random.split(key, len(layers))) and records it as the batch's
mask.layers.<l> (1 kept, 0 dropped).
Not yet: the other stax layers (Softplus, Elu, Selu, ...).

Gradient clipping: call the writer's clip_grads instead of optimizers.clip_grads, outside jit,
and give record() the gradients before clipping (bp checks them against the backward, then
recomputes the clip and the update from them):
            loss, grads = jax.value_and_grad(writer.loss_fn)(get_params(state), x, y)
            new_state = opt_update(i, writer.clip_grads(grads, 1.0), state)
            writer.record(i, x, y, state, loss, grads, new_state)
optimizers.clip_grads itself is refused where an optimizer is expected; called directly, the
writer cannot see it, and the run does not verify (rule 4 or 5 fails).

Runs split across files chain by digest: MlpReceiptWriter(..., out="part2.jsonl",
resume_from="part1.jsonl") continues the index and previous_sha256 of part1's last line.

before="first" (the default): the state before the step (parameters and optimizer state) is in
the first receipt each writer writes only; a later receipt's is the previous receipt's after, bit
for bit, and bp takes it from there, so a file verifies from its first line (alone, or after the
files before it). before="every": every receipt carries it (each verifiable without the one
before it; about twice the bytes).
"""
import base64
import functools
import hashlib
import inspect
import json

import jax
import jax.numpy as jnp
import numpy as np
from jax.example_libraries import optimizers, stax

SUPPORTED = ("layers: stax.Dense(n) each followed by, in this order, at most one jax_mlp.LayerNorm, at most one of "
             "stax.Relu, stax.LeakyRelu, stax.Sigmoid, stax.Tanh, stax.Gelu (tanh form), stax.Identity, or stax.elementwise "
             "of jax.nn.relu, jax.nn.leaky_relu (negative_slope=), jax.nn.sigmoid, jnp.tanh, jax.nn.gelu (approximate=True "
             "or False), jax.nn.silu, and at most one stax.Dropout(rate) (mode 'train'); "
             "loss: cross_entropy (options label_smoothing, weight), mse, half_squared_error, bce_with_logits (option pos_weight), "
             "mean or sum; optimizer: sgd, momentum, "
             "nesterov, adam (jax.example_libraries.optimizers) with a number or one of optimizers' schedules as the "
             "step size (constant, exponential_decay, inverse_time_decay, polynomial_decay, piecewise_constant); "
             "clipping through the writer's clip_grads")

# The functions stax.elementwise may apply, by identity (stax's own layers are elementwise of these).
_FUNCTIONS = ((jax.nn.relu, "relu"), (jax.nn.leaky_relu, "leaky_relu"), (jax.nn.sigmoid, "sigmoid"),
              (jax.lax.logistic, "sigmoid"), (jnp.tanh, "tanh"), (jax.lax.tanh, "tanh"), (jax.nn.gelu, "gelu"),
              (jax.nn.silu, "silu"))


def _refuse(what):
    raise ValueError(f"MlpReceiptWriter: {what}. Supported: {SUPPORTED}")


def _is_dense(layer):
    return isinstance(layer, tuple) and len(layer) == 2 and getattr(layer[1], "__qualname__", "").startswith("Dense.")


def _elementwise(layer):
    """(fun, kwargs) of a stax.elementwise(fun, **kwargs) layer (a functools.partial's arguments
    merged in), or None for any other layer."""
    if not (isinstance(layer, tuple) and len(layer) == 2):
        return None
    apply = layer[1]
    code = getattr(apply, "__code__", None)
    if code is None or getattr(apply, "__qualname__", "") != "elementwise.<locals>.<lambda>" or \
            code.co_freevars != ("fun", "fun_kwargs"):
        return None
    fun, kwargs = (c.cell_contents for c in apply.__closure__)
    kwargs = dict(kwargs)
    while isinstance(fun, functools.partial) and not fun.args:
        kwargs = {**fun.keywords, **kwargs}
        fun = fun.func
    return fun, kwargs


def _activation(layer):
    """(receipt activation name, negative_slope or None), or None for what bp cannot recompute."""
    if layer is stax.Identity:
        return "identity", None
    found = _elementwise(layer)
    if found is None:
        return None
    fun, kwargs = found
    name = next((n for known, n in _FUNCTIONS if fun is known), None)
    if name == "gelu" and set(kwargs) <= {"approximate"}:
        approximate = kwargs.get("approximate", True)
        if approximate is True or approximate is False:
            return ("gelu_tanh" if approximate else "gelu"), None
        return None
    if name == "leaky_relu" and set(kwargs) <= {"negative_slope"}:
        slope = kwargs.get("negative_slope", 0.01)
        return (name, float(slope)) if isinstance(slope, (int, float)) and not isinstance(slope, bool) else None
    if name is not None and name not in ("gelu", "leaky_relu") and not kwargs:
        return name, None
    return None


def LayerNorm(eps=1e-5, affine=True):  # noqa: N802 (stax's naming)
    """A stax-style layer normalizing each row over its last dimension, in the operations bp
    recomputes (man bp, "verify tensor"): two-pass mean and biased variance, then rsqrt. Its
    parameters are (gamma, beta) of the row's width (ones and zeros), or () without affine."""
    def init_fun(rng, input_shape):
        n = input_shape[-1]
        return input_shape, ((jnp.ones((n,), jnp.float32), jnp.zeros((n,), jnp.float32)) if affine else ())

    def apply_fun(params, inputs, **kwargs):
        mean = jnp.mean(inputs, axis=-1, keepdims=True)
        c = inputs - mean
        var = jnp.mean(c * c, axis=-1, keepdims=True)
        y = c * jax.lax.rsqrt(var + eps)
        return y * params[0] + params[1] if affine else y
    apply_fun.bp_layer_norm = {"eps": float(eps), "elementwise_affine": bool(affine), "variance": "two_pass"}
    return init_fun, apply_fun


def _layer_norm(layer):
    """The receipt's layer_norm object of a jax_mlp.LayerNorm, else None."""
    return getattr(layer[1], "bp_layer_norm", None) if isinstance(layer, tuple) and len(layer) == 2 else None


def _dropout(layer, i):
    """stax.Dropout's keep rate, else None; refused in test mode or at a rate bp cannot recompute."""
    if not (isinstance(layer, tuple) and len(layer) == 2 and getattr(layer[1], "__qualname__", "").startswith("Dropout.")):
        return None
    closure = inspect.getclosurevars(layer[1]).nonlocals
    if closure.get("mode") != "train":
        _refuse(f"layer {i} is stax.Dropout in mode {closure.get('mode')!r} (an identity: leave it out of the training list)")
    rate = closure.get("rate")
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 < rate < 1:
        _refuse(f"layer {i} is stax.Dropout with rate {rate!r} (the keep probability, a number in (0, 1))")
    return float(rate)


def _plan(layers):
    """[(position in the stax list, activation name, negative_slope or None)] for each Dense layer."""
    plan, i = [], 0
    layers = list(layers)
    while i < len(layers):
        if not _is_dense(layers[i]):
            _refuse(f"layer {i} is not stax.Dense where a Dense layer was expected")
        j = i + 1
        j += j < len(layers) and _layer_norm(layers[j]) is not None
        act = _activation(layers[j]) if j < len(layers) else None
        j += act is not None
        j += j < len(layers) and _dropout(layers[j], j) is not None
        if j < len(layers) and not _is_dense(layers[j]):
            _refuse(f"layer {j} is not one of the supported layers after a Dense layer (LayerNorm, an activation, Dropout, "
                    "in this order)")
        plan.append((i,) + (act or ("identity", None)))
        i = j
    if not plan:
        _refuse("there are no layers")
    return plan


def _extras(layers, plan):
    """Per Dense layer: (position of its LayerNorm or None, the layer_norm object or None,
    position of its Dropout or None, its keep rate or None)."""
    layers, out = list(layers), []
    for k, (pos, _, _) in enumerate(plan):
        end = plan[k + 1][0] if k + 1 < len(plan) else len(layers)
        norm = next(((p, _layer_norm(layers[p])) for p in range(pos + 1, end) if _layer_norm(layers[p])), (None, None))
        drop = next(((p, _dropout(layers[p], p)) for p in range(pos + 1, end) if _dropout(layers[p], p)), (None, None))
        out.append(norm + drop)
    return out


_LOSSES = ("cross_entropy", "mse", "half_squared_error", "bce_with_logits")
_OPTIONS = {"cross_entropy": ("label_smoothing", "weight"), "bce_with_logits": ("pos_weight",)}


def _loss(loss):
    """The receipt's loss object (class weights and pos_weight, when given, are checked against
    the output width at the first record())."""
    spec = (loss,) if isinstance(loss, str) else tuple(loss) if isinstance(loss, (tuple, list)) else None
    if spec is None or not 1 <= len(spec) <= 3:
        _refuse(f"the loss {loss!r} (a name, or (name, reduction[, options]))")
    kind, reduction, options = spec + ("mean", {})[len(spec) - 1:]
    if kind not in _LOSSES:
        _refuse(f"the loss is {kind!r}")
    if reduction not in ("mean", "sum"):
        _refuse(f"reduction {reduction!r}")
    if not isinstance(options, dict):
        _refuse(f"the loss options {options!r}, not a dict")
    out = {"kind": kind, "reduction": reduction}
    for key in options:
        if key not in _OPTIONS.get(kind, ()):
            _refuse(f"the loss option {key!r} for {kind}")
    e = options.get("label_smoothing", 0.0)
    if isinstance(e, bool) or not isinstance(e, (int, float)) or not 0 <= e <= 1:
        _refuse(f"the loss option 'label_smoothing' {e!r}, not a number in [0, 1]")
    if e != 0:
        out["label_smoothing"] = float(e)
    for key in ("weight", "pos_weight"):
        if key in options:
            w = np.asarray(options[key])
            if w.ndim != 1 or w.dtype.kind not in "fi" or not np.all(np.isfinite(w)):
                _refuse(f"the loss option {key!r} of {w.dtype} {w.shape}, not a 1-d list of finite numbers (one per output)")
            out[key] = [float(v) for v in w.astype(np.float32)]  # fp32 values, exact, as torch's receipts
    return out


# optimizers' schedules: the closure variables each one's inner `schedule` reads.
_SCHEDULES = {"constant": ("step_size",), "exponential_decay": ("step_size", "decay_steps", "decay_rate"),
              "inverse_time_decay": ("step_size", "decay_steps", "decay_rate"),
              "polynomial_decay": ("step_size", "decay_steps", "final_step_size", "power"),
              "piecewise_constant": ("boundaries", "values")}


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        _refuse(f"the optimizer {name!r} with the setting {value!r}, not a number")
    return float(value)


def _fp32_list(what, value):
    a = np.asarray(value)
    if a.dtype not in (np.float32, np.int32) or a.ndim != 1:
        _refuse(f"piecewise_constant's {what} are {a.dtype} of {a.ndim} dimensions, not a float32 or int32 list")
    return [float(v) for v in a.astype(np.float32)]


def _schedule(name, fn):
    """(lr at step 0, the model's "scheduler" or None) of optimizers' schedule `fn`."""
    qual, code = getattr(fn, "__qualname__", ""), getattr(fn, "__code__", None)
    maker = qual.split(".<locals>.")[0]
    if (getattr(fn, "__module__", "") != optimizers.__name__ or maker not in _SCHEDULES or code is None
            or qual != maker + ".<locals>.schedule"):
        _refuse(f"the optimizer {name!r} with the schedule {qual or type(fn).__name__}: bp recomputes only "
                "optimizers.constant, exponential_decay, inverse_time_decay, polynomial_decay and piecewise_constant")
    cells = dict(zip(code.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
    if maker == "piecewise_constant":
        bounds, values = _fp32_list("boundaries", cells["boundaries"]), _fp32_list("values", cells["values"])
        return values[0], {"kind": "jax_piecewise_constant", "boundaries": bounds, "values": values}
    spec = {key: _number(name, cells[key]) for key in _SCHEDULES[maker]}
    if maker == "constant":
        return spec["step_size"], None
    out = {"kind": "jax_" + maker, **spec}
    if maker == "inverse_time_decay":  # the staircase form is the one that floors
        out["staircase"] = "floor" in code.co_names
    return spec["step_size"], out


def _settings(name, values):
    """The optimizer's numbers (the step size may be a schedule), and the schedule."""
    out, schedule = [], None
    for k, a in enumerate(values):
        if callable(a) and k == 0:
            lr, schedule = _schedule(name, a)
            out.append(lr)
        elif callable(a):
            _refuse(f"the optimizer {name!r} with a callable setting ({getattr(a, '__qualname__', type(a).__name__)})")
        else:
            try:
                out.append(float(a))
            except (TypeError, ValueError):
                _refuse(f"the optimizer {name!r} with the setting {a!r}, not a number")
    return out, schedule


def _optimizer(spec):
    """(the model's optimizer, its "scheduler" or None, the optimizers triple)."""
    if not isinstance(spec, (tuple, list)) or not spec:
        _refuse(f"the optimizer {spec!r} (a tuple: name, settings)")
    if spec[0] is optimizers.clip_grads or spec[0] == "clip_grads":
        _refuse("optimizers.clip_grads as an optimizer: clip through writer.clip_grads(grads, max_norm)")
    name, (args, schedule) = spec[0], _settings(spec[0], spec[1:])
    rate = spec[1] if len(spec) > 1 and callable(spec[1]) else (args[0] if args else None)  # a number, or the schedule
    if name == "sgd" and len(args) == 1:
        return {"kind": "jax_sgd", "lr": args[0]}, schedule, optimizers.sgd(rate)
    if name in ("momentum", "nesterov") and len(args) == 2:
        make = optimizers.momentum if name == "momentum" else optimizers.nesterov
        return {"kind": "jax_" + name, "lr": args[0], "mass": args[1]}, schedule, make(rate, args[1])
    if name == "adam" and 1 <= len(args) <= 4:
        lr, b1, b2, eps = (args + [0.9, 0.999, 1e-8][len(args) - 1:])[:4]
        return ({"kind": "jax_adam", "lr": lr, "beta1": b1, "beta2": b2, "eps": eps}, schedule,
                optimizers.adam(rate, b1, b2, eps))
    _refuse(f"the optimizer {spec!r}")


def _cross_entropy(loss):
    """CrossEntropyLoss(weight=, label_smoothing=) for class indices y, in torch's operation
    order (libcore/mlp_audit/loss.cpp): with log-probabilities p, the weights' total W over the
    batch's targets (the batch size without weights; 1 for sum), e the smoothing over C classes,
        L = (1 - e) * sum_i -(w[y_i] p[i, y_i]) / W + (sum_i -sum_j p[i, j] w_j) / W * (e / C).
    jax.grad's backward of it is torch's: (1 - e) / W and (e / C) / W times the weights, summed
    per entry, then log_softmax's backward."""
    mean, e = loss["reduction"] == "mean", loss.get("label_smoothing", 0.0)
    weight = jnp.asarray(loss["weight"], jnp.float32) if "weight" in loss else None

    def fn(logits, y):
        logp = jax.nn.log_softmax(logits)
        picked = jnp.take_along_axis(logp, y[:, None], axis=1)[:, 0]
        if weight is None:
            nll, denom = -picked, (picked.shape[0] if mean else 1)
        else:
            wt = weight[y]
            nll, denom = -(wt * picked), (jnp.sum(wt) if mean else 1)
        if e == 0:
            return jnp.sum(nll) / denom
        smooth = -jnp.sum(logp if weight is None else logp * weight, axis=1)
        return (1 - e) * (jnp.sum(nll) / denom) + (jnp.sum(smooth) / denom) * (e / logp.shape[1])
    return fn


def _bce_with_logits(loss):
    """BCEWithLogitsLoss(pos_weight=) for targets t in [0, 1], torch 2's formula
    (libcore/mlp_audit/loss.cpp): per entry (1 - t) x - w log_sigmoid(x), w = (p - 1) t + 1 (1
    without pos_weight), log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|)); summed, / numel for mean.
    Its backward is torch's, through jax.custom_vjp: ((p t + 1 - t) sigmoid(x) - p t) g (sigmoid(x) - t
    without pos_weight), sigmoid(x) = 1 / (1 + exp(-x)), / numel for mean. jax.grad of the formula
    itself would compute (1 - t) - w (1 - sigmoid(x)) for x < 0, which cancels: for t = 0 and a
    very negative x it loses every digit of sigmoid(x) that torch's formula keeps."""
    mean = loss["reduction"] == "mean"
    pos = jnp.asarray(loss["pos_weight"], jnp.float32) if "pos_weight" in loss else None

    @jax.custom_vjp
    def fn(x, t):
        log_sigmoid = jnp.minimum(x, 0) - jnp.log1p(jnp.exp(-jnp.abs(x)))
        per = (1 - t) * x - (log_sigmoid if pos is None else ((pos - 1) * t + 1) * log_sigmoid)
        return jnp.sum(per) / x.size if mean else jnp.sum(per)

    def fwd(x, t):
        return fn(x, t), (x, t)

    def bwd(res, g):
        x, t = res
        sigmoid = 1 / (1 + jnp.exp(-x))
        d = ((sigmoid - t) if pos is None else ((pos * t + 1 - t) * sigmoid - pos * t)) * g
        return (d / x.size if mean else d), jnp.zeros_like(t)
    fn.defvjp(fwd, bwd)
    return fn


def _loss_fn(apply_fun, loss):
    if loss["kind"] in ("cross_entropy", "bce_with_logits"):
        of_logits = _cross_entropy(loss) if loss["kind"] == "cross_entropy" else _bce_with_logits(loss)

        def fn(params, x, y, key=None):
            return of_logits(apply_fun(params, x, rng=key), y)
        return fn
    total = jnp.sum if loss["reduction"] == "sum" else jnp.mean
    scale = 0.5 if loss["kind"] == "half_squared_error" else None  # 0.5 * mse, torch's HalfSquaredError

    def fn(params, x, y, key=None):
        d = apply_fun(params, x, rng=key) - y
        return total(d * d) if scale is None else scale * total(d * d)
    return fn


def _tensor(name, a):
    data = np.ascontiguousarray(np.asarray(a, dtype=np.float32)).astype("<f4").tobytes()
    return {"name": name, "dtype": "f32", "shape": list(np.shape(a)), "sha256": hashlib.sha256(data).hexdigest(),
            "data": base64.b64encode(data).decode("ascii")}


class MlpReceiptWriter:
    def __init__(self, layers, apply_fun, loss, optimizer, out, resume_from=None, before="first"):
        if before not in ("first", "every"):
            raise ValueError(f"MlpReceiptWriter: before={before!r}; expected 'first' or 'every'")
        # "first": only the first receipt this writer writes carries the state before its step;
        # each later one continues it (its before is the previous receipt's after, bit for bit), so
        # bp reads it there. "every": each receipt carries it (verifiable alone).
        self.before_every, self.wrote = before == "every", False
        self.plan, self.count = _plan(layers), len(list(layers))
        self.extras = _extras(layers, self.plan)
        self.loss = _loss(loss)
        self.opt_json, self.schedule_json, self.optimizer = _optimizer(optimizer)
        self._step_size = optimizers.make_schedule(optimizer[1] if callable(optimizer[1]) else self.opt_json["lr"])
        self._clip = None  # what clip_grads recorded for the next record()
        self.state_names = {"jax_sgd": [], "jax_momentum": ["velocity"], "jax_nesterov": ["velocity"],
                            "jax_adam": ["m", "v"]}[self.opt_json["kind"]]
        self.loss_fn = _loss_fn(apply_fun, self.loss)
        self.layers_json = None  # widths come from the first step's parameters
        self.index, self.previous, self.n = 0, None, 0
        if resume_from is not None:
            with open(resume_from, "rb") as f:
                last = f.read().splitlines()[-1]
            rec = json.loads(last)
            self.index, self.previous = rec["receipt"]["index"] + 1, hashlib.sha256(last).hexdigest()
            self.n = rec["step"]["n"] + 1
        self.out = open(out, "wb")

    def _dense(self, params):
        """[(W, b)] of the Dense layers, refusing parameters that are not the layers'."""
        if len(params) != self.count:
            _refuse(f"the parameters hold {len(params)} layers; stax.serial was given {self.count}")
        dense = []
        for pos, _, _ in self.plan:
            p = params[pos]
            if not (isinstance(p, (tuple, list)) and len(p) == 2 and np.ndim(p[0]) == 2 and np.ndim(p[1]) == 1):
                _refuse(f"parameters of layer {pos} are not a Dense layer's (W, b)")
            if np.asarray(p[0]).dtype != np.float32:
                _refuse(f"parameters of layer {pos} are {np.asarray(p[0]).dtype}, not float32")
            dense.append(p)
        return dense

    def _layers_json(self, dense):
        layers = []
        for (w, _), (_, act, slope) in zip(dense, self.plan):
            layer = {"in": int(np.shape(w)[0]), "out": int(np.shape(w)[1]), "activation": act}
            if act == "leaky_relu":
                layer["negative_slope"] = slope
            layers.append(layer)
        return layers

    def _section(self, prefix, tree):
        out = []
        for l, (w, b) in enumerate(self._dense(tree)):
            out.append(_tensor(f"{prefix}layers.{l}.weight", np.asarray(w).T))
            out.append(_tensor(f"{prefix}layers.{l}.bias", b))
            out += self._norm_section(prefix, l, tree)
        return out

    def _norm_section(self, prefix, l, tree):
        """A LayerNorm's gamma and beta, after its Dense layer's (receipt order)."""
        pos, norm = self.extras[l][:2]
        if norm is None or not norm["elementwise_affine"]:
            return []
        p = tree[pos]
        if not (isinstance(p, (tuple, list)) and len(p) == 2 and np.ndim(p[0]) == 1 and np.ndim(p[1]) == 1):
            _refuse(f"parameters of layer {pos} are not a LayerNorm's (gamma, beta)")
        return [_tensor(f"{prefix}layers.{l}.norm.weight", p[0]), _tensor(f"{prefix}layers.{l}.norm.bias", p[1])]

    def _masks(self, key, batch):
        """Each stax.Dropout's mask, drawn again as stax.serial and stax.Dropout draw it: the key
        split once per layer of the list, bernoulli(layer's key, rate, [batch, out])."""
        masks = []
        for l, ((_, _, pos, rate), layer) in enumerate(zip(self.extras, self.layers_json)):
            if rate is None:
                continue
            if key is None:
                raise ValueError("MlpReceiptWriter.record: the model has stax.Dropout: pass the PRNG key given to loss_fn (key=)")
            keep = jax.random.bernoulli(jax.random.split(key, self.count)[pos], rate, (batch, layer["out"]))
            masks.append(_tensor(f"mask.layers.{l}", np.asarray(keep, dtype=np.float32)))
        return masks

    def _state(self, opt_state):
        """Parameters, then each state tensor of every parameter (receipt order)."""
        tree = optimizers.unpack_optimizer_state(opt_state)
        # Each leaf is a JoinPoint over the leaf's state: x for sgd, (x, velocity), (x, m, v).
        leaves = jax.tree_util.tree_leaves(tree, is_leaf=lambda t: isinstance(t, optimizers.JoinPoint))
        parts = [jax.tree_util.tree_leaves(j.subtree) for j in leaves]
        treedef = jax.tree_util.tree_structure(tree, is_leaf=lambda t: isinstance(t, optimizers.JoinPoint))
        def part(k):
            return jax.tree_util.tree_unflatten(treedef, [p[k] for p in parts])
        tensors = self._section("", part(0))
        for k, name in enumerate(self.state_names, start=1):
            tensors += self._section(name + ".", part(k))
        return tensors

    def record(self, i, x, y, state_before, loss, grads, state_after, key=None):
        """Step i: opt_update(i, grads, state_before) gave state_after; loss and grads were
        computed by writer.loss_fn at get_params(state_before) on (x, y) (and key, with Dropout)."""
        dense = self._dense(self.optimizer[2](state_before))
        if self.layers_json is None:
            self.layers_json = self._layers_json(dense)
            classes = self.layers_json[-1]["out"]
            for option in ("weight", "pos_weight"):  # not `key`: record()'s PRNG key
                if len(self.loss.get(option, [0] * classes)) != classes:
                    _refuse(f"the loss option {option!r} holds {len(self.loss[option])} values for {classes} outputs")
            for layer, (_, norm, _, rate) in zip(self.layers_json, self.extras):
                if norm is not None:
                    layer["layer_norm"] = dict(norm)
                if rate is not None:
                    layer["dropout_keep"] = rate
        model = {"kind": "mlp", "layers": self.layers_json, "loss": self.loss, "optimizer": self.opt_json}
        if self.schedule_json is not None:
            model["scheduler"] = self.schedule_json
        clip, self._clip = self._clip, None
        target = np.asarray(y, dtype=np.float32)
        rec = {"format": "tensor-step", "version": "0.2.0", "trainer": {"name": "jax", "version": jax.__version__},
               "model": model, "receipt": {"index": self.index, "previous_sha256": self.previous},
               "step": {"n": self.n, "optimizer_step": int(i) + 1, "batch": int(np.shape(x)[0]),
                        "lr": float(self._step_size(int(i))), "loss": float(loss), "clip": clip},
               "batch": {"tensors": [_tensor("input", x), _tensor("target", target)] + self._masks(key, int(np.shape(x)[0]))}}
        if self.before_every or not self.wrote:
            rec["before"] = {"tensors": self._state(state_before)}
        rec.update({"gradients": {"tensors": self._section("", grads)}, "after": {"tensors": self._state(state_after)}})
        line = json.dumps(rec, separators=(",", ":")).encode()
        self.out.write(line + b"\n")
        self.out.flush()
        self.previous, self.index, self.n, self.wrote = hashlib.sha256(line).hexdigest(), self.index + 1, self.n + 1, True

    def clip_grads(self, grads, max_norm):
        """optimizers.clip_grads(grads, max_norm), recorded for the next record() (which takes the
        gradients before clipping). Call it outside jit, once per step."""
        if isinstance(max_norm, bool) or not isinstance(max_norm, (int, float)) or not max_norm > 0:
            _refuse(f"clip_grads with max_norm {max_norm!r}, not a positive number")
        self._clip = {"max_norm": float(max_norm), "total_norm": float(optimizers.l2_norm(grads))}
        return optimizers.clip_grads(grads, max_norm)

    def close(self):
        self.out.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
