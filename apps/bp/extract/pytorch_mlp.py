"""bp live helper for PyTorch MLPs: one tensor receipt per training step, for `bp verify tensor`.

    from pytorch_mlp_receipts import MlpReceiptWriter

    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)   # optional
    with MlpReceiptWriter(model, optimizer, loss_fn, out="run.jsonl", scheduler=scheduler) as writer:
        for epoch in range(epochs):
            for x, y in loader:
                with writer.step(x, y):
                    optimizer.zero_grad()
                    loss = loss_fn(model(x), y)
                    loss.backward()
                    writer.clip_grad_norm_(1.0)   # optional: torch.nn.utils.clip_grad_norm_, recorded
                    optimizer.step()
            scheduler.step()                      # per epoch here; per step works as well

    bp verify tensor run.jsonl

Each line is a `tensor-step` receipt, version 0.2.0, model kind "mlp" (man bp, "verify tensor"):
the model, the batch, every parameter and optimizer-state tensor before and after the step and
the gradients optimizer.step() saw, each as little-endian fp32 bytes (base64) with its SHA-256.
bp recomputes the step in fp64 and requires every value within its error bound.

This file is an OBSERVER: it copies numbers out of PyTorch and never judges them.

What it accepts (anything else is refused when the writer is created, before training):
  model      torch.nn.Sequential of Linear layers (with bias), each followed by, in this order,
             optionally a LayerNorm over its outputs (eps, elementwise_affine on or off), and at
             most one of ReLU, LeakyReLU, Sigmoid, Tanh, SiLU, GELU (approximate "none" or
             "tanh"), Identity, and optionally a Dropout (not inplace; its mask, read back from
             torch's generator and checked against the module's output, is recorded per step);
             fp32 parameters
  loss       CrossEntropyLoss (class weights, label_smoothing, ignore_index), MSELoss, BCEWithLogitsLoss
             (pos_weight: a 1-d float32 tensor, one weight per output; no weight; targets in [0, 1]),
             HalfSquaredError (below); mean or sum
  optimizer  SGD (momentum, dampening, nesterov, weight_decay), Adam and AdamW (amsgrad,
             weight_decay); one parameter group holding the model's parameters in order;
             no maximize, foreach, fused, capturable or differentiable
  scheduler  none (a constant learning rate), or one of torch.optim.lr_scheduler's StepLR, MultiStepLR,
             ExponentialLR, CosineAnnealingLR, LinearLR on that optimizer (step_size, milestones, T_max,
             total_iters ints), built with last_epoch=-1 and
             given as MlpReceiptWriter(..., scheduler=s): the model records it (its settings; the
             optimizer's lr is its base lr), each receipt the scheduler's last_epoch when
             optimizer.step() ran. Step it with scheduler.step() (scheduler.step(epoch), deprecated, switches
             torch to another formula: refused when called) at most once between two optimizer steps, per
             epoch or per step. bp recomputes torch's chainable get_lr() (rule 6). LambdaLR,
             MultiplicativeLR, ChainedScheduler, SequentialLR, ReduceLROnPlateau, OneCycleLR,
             CyclicLR and the others are refused. A scheduler the writer is not given changes the
             lr bp expects to be constant: rule 6 fails.
  clipping  writer.clip_grad_norm_(max_norm) (torch.nn.utils.clip_grad_norm_, norm type 2, on the
             model's parameters), called between backward() and step(): the receipt keeps the
             gradients before it and the norm it returned (calling torch's directly would leave
             bp the clipped gradients without saying so: the gradient rule fails)

HalfSquaredError(reduction) is the half squared error of bp's own engine as a torch loss:
0.5 * torch.nn.functional.mse_loss(y, t, reduction), i.e. 1/2 sum (y - t)^2 with "sum" and
1/2 sum (y - t)^2 / (batch * outputs) with "mean".

Runs split across files chain by digest: MlpReceiptWriter(..., out="part2.jsonl",
resume_from="part1.jsonl") continues the index and previous_sha256 of part1's last line.

before="first" (the default): the state before the step (parameters and optimizer state) is in
the first receipt each writer writes only; a later receipt's is the previous receipt's after, bit
for bit, and bp takes it from there, so a file verifies from its first line (alone, or after the
files before it). before="every": every receipt carries it (each verifiable without the one
before it; about twice the bytes).
"""
import base64
import hashlib
import json
import sys

import torch
from torch import nn

SUPPORTED = ("model: nn.Sequential of Linear (bias=True) each followed by an optional LayerNorm(out), at most one of ReLU, LeakyReLU, "
             "Sigmoid, Tanh, SiLU, GELU (approximate 'none' or 'tanh'), Identity, and an optional Dropout; loss: CrossEntropyLoss (weight, "
             "label_smoothing, ignore_index), MSELoss, BCEWithLogitsLoss (pos_weight per output; no weight), HalfSquaredError; "
             "reduction mean or sum; optimizer: SGD, Adam, AdamW with one parameter group; scheduler: none, StepLR, MultiStepLR, "
             "ExponentialLR, CosineAnnealingLR, LinearLR")

_ACTIVATIONS = {nn.ReLU: "relu", nn.LeakyReLU: "leaky_relu", nn.Sigmoid: "sigmoid", nn.Tanh: "tanh",
                nn.SiLU: "silu", nn.GELU: "gelu", nn.Identity: "identity"}


class HalfSquaredError(nn.Module):
    """The half squared error: 0.5 * mse_loss(input, target, reduction) (sum: 1/2 sum (y - t)^2;
    mean: that over batch * outputs). torch has no module for it; bp audits this one."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        return 0.5 * nn.functional.mse_loss(input, target, reduction=self.reduction)


def _refuse(what):
    raise ValueError(f"MlpReceiptWriter: {what}. Supported: {SUPPORTED}")


def _layers(model):
    """Each layer: a Linear, then optionally a LayerNorm over its outputs, then at most one
    activation, then optionally a Dropout. Returns (linear, layer json, parameters in torch's order,
    their receipt names, the Dropout module or None)."""
    if not isinstance(model, nn.Sequential):
        _refuse(f"the model is a {type(model).__name__}, not nn.Sequential")
    layers, modules = [], list(model)
    i = 0
    while i < len(modules):
        m = modules[i]
        if type(m) is not nn.Linear:
            _refuse(f"module {i} is a {type(m).__name__} where a Linear layer was expected")
        if m.bias is None:
            _refuse(f"module {i}: Linear without bias")
        if m.weight.dtype != torch.float32:
            _refuse(f"module {i}: parameters are {m.weight.dtype}, not torch.float32")
        layer = {"in": m.in_features, "out": m.out_features, "activation": "identity"}
        l = len(layers)
        params, names = [m.weight, m.bias], [f"layers.{l}.weight", f"layers.{l}.bias"]
        i += 1
        if i < len(modules) and type(modules[i]) is nn.LayerNorm:
            norm = modules[i]
            if tuple(norm.normalized_shape) != (m.out_features,):
                _refuse(f"module {i}: LayerNorm over {tuple(norm.normalized_shape)}, not the Linear's ({m.out_features},)")
            if norm.elementwise_affine and getattr(norm, "bias", True) is None:
                _refuse(f"module {i}: LayerNorm without bias")
            layer["layer_norm"] = {"eps": float(norm.eps), "elementwise_affine": bool(norm.elementwise_affine)}
            if norm.elementwise_affine:
                params += [norm.weight, norm.bias]
                names += [f"layers.{l}.norm.weight", f"layers.{l}.norm.bias"]
            i += 1
        if i < len(modules) and type(modules[i]) in _ACTIVATIONS:
            act = modules[i]
            name = _ACTIVATIONS[type(act)]
            layer["activation"] = name
            if name == "leaky_relu":
                layer["negative_slope"] = float(act.negative_slope)
            if name == "gelu":
                if act.approximate not in ("none", "tanh"):
                    _refuse(f"module {i}: GELU approximate='{act.approximate}'")
                layer["activation"] = "gelu" if act.approximate == "none" else "gelu_tanh"
            i += 1
        if "layer_norm" in layer:  # the schema's key order: layer_norm after the activation's keys
            layer["layer_norm"] = layer.pop("layer_norm")
        dropout = None
        if i < len(modules) and type(modules[i]) is nn.Dropout:
            dropout = modules[i]
            if dropout.inplace:
                _refuse(f"module {i}: Dropout(inplace=True) (its input is gone when the mask is read)")
            if not 0 <= dropout.p < 1:
                _refuse(f"module {i}: Dropout(p={dropout.p})")
            if dropout.p == 0:
                dropout = None  # the identity: torch draws no mask
            else:
                layer["dropout"] = float(dropout.p)
            i += 1
        if i < len(modules) and type(modules[i]) is not nn.Linear:
            _refuse(f"module {i} is a {type(modules[i]).__name__} where a Linear layer was expected")
        layers.append((m, layer, params, names, dropout))
    if not layers:
        _refuse("the model has no layers")
    return layers


def _loss(loss_fn, outputs):
    extra = {}
    if type(loss_fn) is nn.CrossEntropyLoss:
        if getattr(loss_fn, "label_smoothing", 0.0) != 0.0:
            extra["label_smoothing"] = float(loss_fn.label_smoothing)
        if loss_fn.weight is not None:
            if loss_fn.weight.dtype != torch.float32 or loss_fn.weight.dim() != 1:
                _refuse("CrossEntropyLoss weight that is not a 1-d torch.float32 tensor")
            extra["weight"] = [float(v) for v in loss_fn.weight.detach().cpu().tolist()]  # fp32 values, exact
        if not -(1 << 24) < loss_fn.ignore_index < (1 << 24):
            _refuse(f"CrossEntropyLoss ignore_index={loss_fn.ignore_index} (targets are recorded as float32 values)")
        extra["ignore_index"] = int(loss_fn.ignore_index)  # torch's default -100 too: targets may use it
        kind = "cross_entropy"
    elif type(loss_fn) is nn.MSELoss:
        kind = "mse"
    elif type(loss_fn) is HalfSquaredError:
        kind = "half_squared_error"
    elif type(loss_fn) is nn.BCEWithLogitsLoss:
        if loss_fn.weight is not None:
            _refuse("BCEWithLogitsLoss with weight")
        if loss_fn.pos_weight is not None:
            pw = loss_fn.pos_weight
            if pw.dtype != torch.float32 or tuple(pw.shape) != (outputs,):
                _refuse(f"BCEWithLogitsLoss pos_weight of {pw.dtype} {tuple(pw.shape)}, not a float32 tensor of one weight "
                        f"per output ({outputs},)")
            extra["pos_weight"] = [float(v) for v in pw.detach().cpu().tolist()]  # fp32 values, exact
        kind = "bce_with_logits"
    else:
        _refuse(f"the loss is a {type(loss_fn).__name__}")
    if loss_fn.reduction not in ("mean", "sum"):
        _refuse(f"reduction '{loss_fn.reduction}'")
    return {"kind": kind, "reduction": loss_fn.reduction, **extra}


def _optimizer(opt, params):
    if len(opt.param_groups) != 1:
        _refuse("the optimizer has more than one parameter group")
    g = opt.param_groups[0]
    if [id(p) for p in g["params"]] != [id(p) for p in params]:
        _refuse("the optimizer's parameters are not the model's, in the model's order")
    for flag in ("maximize", "foreach", "fused", "capturable", "differentiable"):
        if g.get(flag):
            _refuse(f"optimizer option {flag}=True")
    if type(opt) is torch.optim.SGD:
        return {"kind": "sgd", "lr": float(g["lr"]), "weight_decay": float(g["weight_decay"]),
                "momentum": float(g["momentum"]), "dampening": float(g["dampening"]), "nesterov": bool(g["nesterov"])}
    if type(opt) in (torch.optim.Adam, torch.optim.AdamW):
        return {"kind": "adam" if type(opt) is torch.optim.Adam else "adamw", "lr": float(g["lr"]),
                "weight_decay": float(g["weight_decay"]), "beta1": float(g["betas"][0]), "beta2": float(g["betas"][1]),
                "eps": float(g["eps"]), "amsgrad": bool(g["amsgrad"])}
    _refuse(f"the optimizer is a {type(opt).__name__}")


def _count(sched, name, value):
    """An epoch count torch uses in integer arithmetic (%, comparisons): a float would change it."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        _refuse(f"{type(sched).__name__} with {name}={value!r} (a non-negative int is supported)")
    return value


def _scheduler(sched, opt, fresh=True):
    """The scheduler's settings, as torch's chainable get_lr() uses them."""
    sch = torch.optim.lr_scheduler
    if type(sched) is sch.StepLR:
        out = {"kind": "step", "step_size": _count(sched, "step_size", sched.step_size), "gamma": float(sched.gamma)}
    elif type(sched) is sch.MultiStepLR:
        out = {"kind": "multi_step", "milestones": sorted(_count(sched, "milestones", m) for m in sched.milestones.elements()),
               "gamma": float(sched.gamma)}
    elif type(sched) is sch.ExponentialLR:
        out = {"kind": "exponential", "gamma": float(sched.gamma)}
    elif type(sched) is sch.CosineAnnealingLR:
        out = {"kind": "cosine_annealing", "t_max": _count(sched, "T_max", sched.T_max), "eta_min": float(sched.eta_min)}
    elif type(sched) is sch.LinearLR:
        out = {"kind": "linear", "start_factor": float(sched.start_factor), "end_factor": float(sched.end_factor),
               "total_iters": _count(sched, "total_iters", sched.total_iters)}
    else:
        _refuse(f"the scheduler is a {type(sched).__name__}")
    if getattr(sched, "optimizer", None) is not opt:
        _refuse(f"the scheduler ({type(sched).__name__}) is not on the writer's optimizer")
    if fresh and (sched._step_count != 1 or sched.last_epoch != 0):
        # bp replays the schedule from its construction: built with last_epoch=-1, not yet stepped.
        _refuse(f"the scheduler has stepped already or was built with last_epoch (last_epoch {sched.last_epoch}); "
                "give it to the writer before training")
    return out


def _tensor(name, t):
    """One tensor's JSON text, as json.dumps(..., separators=(",", ":")) writes it, in pieces
    (bytes) that are written and hashed one after the other, never joined: a receipt's tensors run
    to megabytes. The fp32 bytes are hashed and encoded where torch holds them (no copy on a
    little-endian CPU), and the base64 text goes in as it is: its alphabet needs no JSON escaping."""
    a = t.detach().to(torch.float32).contiguous().cpu().numpy()
    if a.dtype.byteorder == ">" or (a.dtype.byteorder == "=" and sys.byteorder == "big"):
        a = a.astype("<f4")
    data = memoryview(a).cast("B") if a.size else b""
    head = json.dumps({"name": name, "dtype": "f32", "shape": list(t.shape), "sha256": hashlib.sha256(data).hexdigest()},
                      separators=(",", ":"))
    return [head[:-1].encode() + b',"data":"', base64.b64encode(data), b'"}']


def _section(tensors):
    """{"tensors":[...]} of _tensor's pieces, as pieces."""
    parts = [b'{"tensors":[']
    for i, pieces in enumerate(tensors):
        if i:
            parts.append(b",")
        parts += pieces
    parts.append(b"]}")
    return parts


def _chainable_only(original):
    """scheduler.step() as it was; scheduler.step(epoch) refused before the scheduler moves:
    torch then switches to its closed form, which rounds otherwise than the chainable get_lr()
    bp recomputes, so an honest run would fail rule 6. The receipts written so far stay valid."""
    def step(*args, **kwargs):
        if args or kwargs:
            _refuse("scheduler.step(epoch) (deprecated by torch; it switches to the closed form): call scheduler.step()")
        return original()
    return step


class MlpReceiptWriter:
    def __init__(self, model, optimizer, loss_fn, out, resume_from=None, scheduler=None, before="first"):
        if before not in ("first", "every"):
            raise ValueError(f"MlpReceiptWriter: before={before!r}; expected 'first' or 'every'")
        # "first": only the first receipt this writer writes carries the state before its step;
        # each later one continues it (its before is the previous receipt's after, bit for bit), so
        # bp reads it there: half the bytes. "every": each receipt carries it (verifiable alone).
        self.before_every = before == "every"
        self.layers = _layers(model)
        self.params = [p for _, _, params, _, _ in self.layers for p in params]
        self.names = [n for _, _, _, names, _ in self.layers for n in names]
        self.model_json = {"kind": "mlp", "layers": [layer for _, layer, _, _, _ in self.layers],
                           "loss": _loss(loss_fn, self.layers[-1][1]["out"]),
                           "optimizer": _optimizer(optimizer, self.params)}
        self.scheduler = scheduler
        if scheduler is not None:
            self.model_json["scheduler"] = _scheduler(scheduler, optimizer, fresh=resume_from is None)
            self.model_json["optimizer"]["lr"] = float(scheduler.base_lrs[0])  # what get_lr() starts from
            scheduler.step = _chainable_only(scheduler.step)
        o = self.model_json["optimizer"]
        self.state_names = (["momentum_buffer"] if o["momentum"] != 0 else []) if o["kind"] == "sgd" else (
            ["exp_avg", "exp_avg_sq"] + (["max_exp_avg_sq"] if o["amsgrad"] else []))
        self.model, self.optimizer, self.loss_fn = model, optimizer, loss_fn
        self.index, self.previous, self.n, self.opt_step = 0, None, 0, 0
        if resume_from is not None:
            with open(resume_from, "rb") as f:
                last = f.read().splitlines()[-1]
            rec = json.loads(last)
            self.index, self.previous = rec["receipt"]["index"] + 1, hashlib.sha256(last).hexdigest()
            self.n, self.opt_step = rec["step"]["n"] + 1, rec["step"]["optimizer_step"]
            if ("scheduler" in rec["model"]) != (scheduler is not None):
                _refuse("resume_from's run " + ("has" if "scheduler" in rec["model"] else "has no") + " scheduler; give the same one")
            if scheduler is not None and rec["model"]["scheduler"] != self.model_json["scheduler"]:
                _refuse("the scheduler's settings differ from resume_from's run")
        self.out = open(out, "wb")
        self.wrote = False  # a receipt in this file yet
        self._loss_value = None
        loss_fn.register_forward_hook(self._on_loss)
        self.masks = {}  # layer -> the mask its Dropout drew in this step's forward
        for l, (_, _, _, _, dropout) in enumerate(self.layers):
            if dropout is not None:
                dropout.register_forward_pre_hook(self._before_dropout)
                dropout.register_forward_hook(lambda mod, inputs, output, l=l: self._after_dropout(l, mod, inputs, output))

    def _before_dropout(self, module, inputs):
        self._rng = torch.get_rng_state()

    def _after_dropout(self, l, module, inputs, output):
        """The mask torch drew: ATen's CPU dropout is input * bernoulli_(1 - p) / (1 - p) from the
        default generator, so the same draw from the state before it is the same mask. Checked
        bit for bit against the module's output; the generator is left where torch left it."""
        if not module.training:
            raise RuntimeError("MlpReceiptWriter: a Dropout ran in eval mode inside a recorded step")
        after = torch.get_rng_state()
        torch.set_rng_state(self._rng)
        with torch.no_grad():
            noise = torch.empty_like(inputs[0]).bernoulli_(1 - module.p)
        torch.set_rng_state(after)
        with torch.no_grad():
            same = torch.equal(inputs[0] * noise.div(1 - module.p), output)
        if not same:
            raise RuntimeError(f"MlpReceiptWriter: layer {l}'s Dropout mask could not be reconstructed (torch {torch.__version__})")
        self.masks[l] = (noise != 0).to(torch.float32)

    def _on_loss(self, module, inputs, output):
        self._loss_value = float(output.detach().item())

    def _state(self):
        tensors = [_tensor(n, p) for n, p in zip(self.names, self.params)]
        for s in self.state_names:
            for n, p in zip(self.names, self.params):
                st = self.optimizer.state.get(p, {})
                tensors.append(_tensor(f"{s}.{n}", st[s] if s in st and st[s] is not None else torch.zeros_like(p)))
        return tensors

    def step(self, x, y):
        self._current = _Step(self, x, y)
        return self._current

    def clip_grad_norm_(self, max_norm):
        step = getattr(self, "_current", None)
        if step is None or step.done:
            raise RuntimeError("MlpReceiptWriter.clip_grad_norm_: call it inside `with writer.step(x, y):`")
        step.grads = [_tensor(n, p.grad) for n, p in zip(self.names, self.params)]
        norm = torch.nn.utils.clip_grad_norm_(self.params, max_norm)
        step.clip = {"max_norm": float(max_norm), "total_norm": float(norm.item())}
        return norm

    def close(self):
        self.out.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class _Step:
    def __init__(self, writer, x, y):
        self.w, self.x, self.y = writer, x, y
        self.clip, self.done = None, False

    def __enter__(self):
        w = self.w
        self.before = w._state() if w.before_every or not w.wrote else None
        w.masks = {}
        self.grads = None
        self.original_step = w.optimizer.step

        def step(*args, **kwargs):  # the gradients optimizer.step() sees (before clipping, if it ran)
            if self.clip is None:
                self.grads = [_tensor(n, p.grad) for n, p in zip(w.names, w.params)]
            self.lr = float(w.optimizer.param_groups[0]["lr"])
            self.last_epoch = None if w.scheduler is None else int(w.scheduler.last_epoch)
            return self.original_step(*args, **kwargs)
        if hasattr(self.original_step, "_with_counter"):  # a scheduler's counting wrapper stays inside ours
            step._with_counter = self.original_step._with_counter
        w.optimizer.step = step
        return self

    def __exit__(self, exc_type, exc, tb):
        w = self.w
        w.optimizer.step = self.original_step
        self.done = True
        if exc_type is not None:
            return False
        if self.grads is None or w._loss_value is None:
            raise RuntimeError("MlpReceiptWriter: the step ran no loss_fn call or no optimizer.step()")
        w.opt_step += 1
        st = w.optimizer.state.get(w.params[0], {})
        if "step" in st:  # Adam(W) counts its own steps: record torch's count, not ours
            w.opt_step = int(st["step"].item() if torch.is_tensor(st["step"]) else st["step"])
        target = self.y.to(torch.float32)
        masks = []
        for l, (_, layer, _, _, _) in enumerate(w.layers):
            if "dropout" in layer:
                if l not in w.masks:
                    raise RuntimeError(f"MlpReceiptWriter: layer {l}'s Dropout did not run in the step")
                masks.append(_tensor(f"mask.layers.{l}", w.masks[l]))
        w.masks = {}
        step = {"n": w.n, "optimizer_step": w.opt_step, "batch": int(self.x.shape[0]), "lr": self.lr}
        if self.last_epoch is not None:
            step["last_epoch"] = self.last_epoch
        step.update({"loss": w._loss_value, "clip": self.clip})
        head = {"format": "tensor-step", "version": "0.2.0", "trainer": {"name": "pytorch", "version": torch.__version__},
                "model": w.model_json, "receipt": {"index": w.index, "previous_sha256": w.previous}, "step": step}
        parts = [json.dumps(head, separators=(",", ":"))[:-1].encode(), b',"batch":']
        parts += _section([_tensor("input", self.x), _tensor("target", target)] + masks)
        if self.before is not None:
            parts += [b',"before":'] + _section(self.before)
        parts += [b',"gradients":'] + _section(self.grads) + [b',"after":'] + _section(w._state()) + [b"}"]
        line_hash = hashlib.sha256()
        for p in parts:
            line_hash.update(p)
        w.out.writelines(parts)
        w.out.write(b"\n")
        w.out.flush()
        w.previous, w.index, w.n, w.wrote = line_hash.hexdigest(), w.index + 1, w.n + 1, True
        w._loss_value = None
        return False
