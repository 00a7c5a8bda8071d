"""bp live helper for PyTorch: records what your own training loop did, for `bp import pytorch`.

    from pytorch_trace_helper import TraceDumper

    with TraceDumper(model, optimizer, loss_fn, out="trace.jsonl", trace_id="0123...") as dumper:
        for x, y in loader:
            with dumper.step(x, y):
                optimizer.zero_grad()
                loss = loss_fn(model(x), y)
                loss.backward()
                optimizer.step()

    bp import pytorch multi trace.jsonl | bp verify multi -

This file is an OBSERVER. It copies numbers out of PyTorch into framework-trace sidecars
(v0.7.0; v0.8.0 for SGD with weight decay). It never judges them: it has no field, message or
exit status that says whether the step was right. bp's engine recomputes the step from the
sidecar's inputs and is the only authority (Rule 14). The `helper` block (this file's own
sha256, versions, time) is forensic attribution, not a credential.

What it records, and from where:
  * parameters before and after optimizer.step(): copies of their memory taken at that moment
    (a bytes snapshot, what `.detach().clone()` would give; a bare `.detach()` shares storage,
    so step() would overwrite the "before" copy);
  * the parameter order: walked from optimizer.param_groups, never by iterating
    optimizer.state (keyed by object identity; its order is not the model's);
  * gradients: `param.grad` as PyTorch left it, negated once into bp's descent convention;
  * optimizer state: looked up as optimizer.state[p] for p in that walk. PyTorch's
    momentum buffer lives in ascent space (step() subtracts lr * buf); bp's lives in descent
    space, so the buffer's sign is flipped exactly once, here. Adam's exp_avg likewise;
    exp_avg_sq (a square) is not flipped;
  * forward values, losses and error signals: a replay of the model's layers on the "before"
    snapshot, in the model's own dtype, with torch operations and torch.autograd.grad; the
    steps of one flush are replayed together (batched matrix products), so a replayed value
    may differ in its last bits from what the step's own nn.Linear computed.

Supported: nn.Sequential(Linear, act, Linear[, act]) with act in Sigmoid / ReLU / Identity
(output activation absent = identity), Linear layers with bias, CPU, float32 or float64;
loss nn.CrossEntropyLoss (softmax output, class indices or one-hot targets) or this file's
half_squared_error (0.5 * sum over outputs of (out - target)^2, mean over the batch);
optimizers torch.optim.SGD (plain, momentum, dampening, Nesterov, weight decay), Adam and
AdamW. A batch of one makes an ordinary step; a larger batch makes a batched step (plain SGD
only: bp's batched engine carries no optimizer state). Anything else is refused with
HelperRefusal before a number is written.

Serialization is deferred: a step only takes snapshots; the sidecar lines are built and written
every `flush_every` steps and at close(), each from a text layout made once per batch size and
filled with the step's numbers (Python's repr of each float, as json writes it). With
capture=True the helper writes a binary capture instead, which bp import expands to the same
bytes (see expand_capture below and `man bp`, LIVE HELPERS): the training process then never
spells a number. Set SOURCE_DATE_EPOCH to pin the extraction timestamp.
Requires only torch and the Python standard library.
"""

import ctypes
import datetime
import hashlib
import json
import math
import operator
import os
import platform
import re
import stat
import struct
import sys
import tempfile

import torch
import torch.nn.functional as F

HELPER_NAME = "bp-pytorch-helper"
HELPER_VERSION = "1.0.0"
FORMAT_V7 = "framework-trace.v0.7.0"
FORMAT_V8 = "framework-trace.v0.8.0"


class HelperRefusal(ValueError):
    """The helper cannot describe this model, optimizer or step in a framework-trace sidecar."""


def half_squared_error(output, target):
    """0.5 * sum over outputs of (output - target)^2, averaged over the batch (bp's half_squared_error)."""
    return 0.5 * ((output - target) ** 2).sum(dim=-1).mean()


_BATCHED_REFUSAL = ("batched step: bp's batched engine audits plain SGD only (no momentum, Adam or weight decay); "
                    "record batches of one sample, or use plain SGD")

_ACTIVATIONS = {torch.nn.Sigmoid: "sigmoid", torch.nn.ReLU: "relu", torch.nn.Identity: "identity"}


def _activation_name(module, where):
    for cls, name in _ACTIVATIONS.items():
        if type(module) is cls:
            if cls is torch.nn.ReLU and module.inplace:
                raise HelperRefusal(f"{where}: ReLU(inplace=True) overwrites the pre-activation; use ReLU()")
            return name
    raise HelperRefusal(f"{where}: {type(module).__name__} is not an activation bp's engine knows "
                        "(Sigmoid, ReLU, Identity; softmax comes with nn.CrossEntropyLoss)")


def _apply_activation(name, net):
    if name == "sigmoid":
        return torch.sigmoid(net)
    if name == "relu":
        return torch.relu(net)
    return net


def _describe_model(model):
    if not isinstance(model, torch.nn.Sequential):
        raise HelperRefusal(f"model: {type(model).__name__} is not nn.Sequential(Linear, activation, Linear"
                            "[, activation]), the only shape this helper can describe")
    layers = list(model)
    if len(layers) not in (3, 4) or type(layers[0]) is not torch.nn.Linear or type(layers[2]) is not torch.nn.Linear:
        raise HelperRefusal("model: expected nn.Sequential(Linear, activation, Linear[, activation]) "
                            f"(one hidden layer); got {[type(m).__name__ for m in layers]}")
    first, second = layers[0], layers[2]
    for i, lin in ((0, first), (2, second)):
        if lin.bias is None:
            raise HelperRefusal(f"model[{i}]: Linear(bias=False) is not supported (bp's topology has per-neuron biases)")
    if second.in_features != first.out_features:
        raise HelperRefusal("model: the second Linear's in_features differs from the first's out_features")
    hidden = _activation_name(layers[1], "model[1]")
    output = _activation_name(layers[3], "model[3]") if len(layers) == 4 else "identity"
    return first, second, hidden, output


def _describe_loss(loss_fn, output_activation):
    if isinstance(loss_fn, torch.nn.CrossEntropyLoss):
        if loss_fn.weight is not None or getattr(loss_fn, "label_smoothing", 0.0) != 0.0:
            raise HelperRefusal("loss_fn: CrossEntropyLoss with class weights or label smoothing is not bp's cross_entropy_softmax")
        if loss_fn.reduction not in ("mean", "sum"):
            raise HelperRefusal("loss_fn: CrossEntropyLoss(reduction='none') leaves no scalar loss to audit")
        if output_activation != "identity":
            raise HelperRefusal("model: CrossEntropyLoss takes logits; drop the output activation (the softmax is inside the loss)")
        return "cross_entropy_softmax", "softmax", loss_fn.reduction
    if loss_fn is half_squared_error:
        return "half_squared_error", output_activation, "mean"
    if isinstance(loss_fn, torch.nn.MSELoss):
        raise HelperRefusal("loss_fn: nn.MSELoss averages over outputs and drops the 1/2, so its gradients are not bp's "
                            "half_squared_error; use this file's half_squared_error")
    raise HelperRefusal(f"loss_fn: {loss_fn!r} is not one the helper can name; use nn.CrossEntropyLoss() or this "
                        "file's half_squared_error")


def _describe_optimizer(optimizer, wanted):
    """Hyperparameters of the single group setting, and the parameters in param_groups order."""
    kind = type(optimizer)
    if kind not in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW):
        raise HelperRefusal(f"optimizer: {kind.__module__}.{kind.__name__} is not supported (SGD, Adam, AdamW)")
    groups = optimizer.param_groups
    keys = ("lr", "momentum", "dampening", "nesterov", "weight_decay", "betas", "eps", "amsgrad", "maximize")
    first = {k: groups[0].get(k) for k in keys}
    order = []
    for g in groups:
        if {k: g.get(k) for k in keys} != first:
            raise HelperRefusal("optimizer: parameter groups with different settings cannot be one sidecar step")
        order.extend(g["params"])
    if len(order) != len(wanted) or {id(p) for p in order} != {id(p) for p in wanted}:
        raise HelperRefusal("optimizer: must optimize exactly the model's four parameters (two weights, two biases)")
    if first.get("maximize"):
        raise HelperRefusal("optimizer: maximize=True is not supported")
    if first.get("amsgrad"):
        raise HelperRefusal("optimizer: amsgrad=True is not supported")
    if groups[0].get("fused"):
        raise HelperRefusal("optimizer: fused kernels are not supported")
    if kind is torch.optim.SGD:
        name = "sgd_momentum" if first["momentum"] else "sgd"
        if first["nesterov"] and first["dampening"]:
            raise HelperRefusal("optimizer: Nesterov with dampening is not a PyTorch configuration")
    elif kind is torch.optim.Adam:
        name = "adam"
        if first["weight_decay"]:
            raise HelperRefusal("optimizer: Adam(weight_decay>0) folds L2 into the gradient, which bp does not model; use AdamW")
    else:
        name = "adamw"
    return name, first, order


def _float(t):
    return float(t)


_data_ptr = torch.Tensor.data_ptr
_is_contiguous = torch.Tensor.is_contiguous
_numel = torch.Tensor.numel
_grad_of = operator.attrgetter("grad")
_join = b"".join
_Tensor = torch.Tensor
_autocast_on, _autocast_cpu_on = torch.is_autocast_enabled, torch.is_autocast_cpu_enabled


class _FlatCopier:
    """Copies a list of tensors into one flat snapshot per call, at the cost of one C call.

    A torch call costs more than the copy itself on a small model, so while the tensors stay
    where they were (same addresses, contiguous) their bytes are read through memoryviews made
    once and joined into one bytes object (bytes.join: a single copy, no dispatcher). The copy
    reads the tensor's memory at the moment of the call, so in-place writes (optimizer.step(),
    param.data.add_(), copy_ under no_grad), which may bump no version counter, are always
    seen. A tensor that no longer lives where it did (param.data = t, p.grad replaced, a new
    optimizer state tensor) or is no longer contiguous (param.data = W.t()) makes the copier
    look at the tensors afresh. Detached aliases of the tensors last seen are held, so their
    storage stays alive and no other tensor can take those addresses; an alias whose own
    address moved (its storage was resized, which frees the old memory) also makes the copier
    look afresh, so a memoryview is only read while the memory it names is the live storage it
    was made for. Tensors of mixed dtypes (an Adam step count in another dtype than the
    parameters), empty ones, or ones not on the CPU, take one torch.cat instead. A call returns
    a tensor, or (bytes, dtype): see _flat_tensor."""

    __slots__ = ("_seen", "_held", "_views", "_dtype", "epoch")

    def __init__(self):
        self._seen = self._views = self._dtype = None
        self._held = []
        self.epoch = 0  # how many times the tensors were looked at afresh

    def __call__(self, tensors):
        # The live tensors' addresses and the held aliases' in one pass: both must be as seen.
        ptrs = list(map(_data_ptr, tensors + self._held))
        if ptrs != self._seen or not all(map(_is_contiguous, tensors)):
            self._adopt(tensors, ptrs[:len(tensors)])
        if self._views is None:
            with torch.no_grad():
                return torch.cat([t.detach().reshape(-1) for t in tensors])
        return (_join(self._views), self._dtype)

    def _adopt(self, tensors, ptrs):
        """Looks at the tensors afresh; leaves _views None where bytes cannot hold them (torch.cat)."""
        self.epoch += 1
        self._held = [t.detach() for t in tensors]
        self._seen = ptrs + ptrs
        self._views = None
        dtype = tensors[0].dtype
        if all(t.dtype == dtype and t.device.type == "cpu" and t.is_contiguous() and t.numel() > 0
               for t in self._held):
            self._views = [memoryview((ctypes.c_char * (t.numel() * t.element_size())).from_address(ptr))
                           for t, ptr in zip(self._held, ptrs)]
            self._dtype = dtype


class _GradCopier:
    """Copies the gradients into one flat snapshot per call, as _FlatCopier does, but holds no
    alias. PyTorch 2's zero_grad() frees the gradients (set_to_none) and backward() makes new ones,
    at new addresses each step, so views are made per call from array types made once: a view is
    read at once, over a gradient the call holds, whose dtype, device and shape are its
    parameter's (PyTorch refuses any other) and whose element count and contiguity are checked.
    The types are remade when the parameters' copier looked at the parameters afresh."""

    __slots__ = ("_params", "_copier", "_epoch", "_types", "_numels", "_dtype", "_seen", "_views")

    def __init__(self, params, params_copier):
        self._params, self._copier, self._epoch = params, params_copier, None
        self._types = self._numels = self._dtype = self._seen = self._views = None

    def __call__(self, grads):
        ptrs = list(map(_data_ptr, grads))
        if self._epoch != self._copier.epoch:
            ps, self._epoch, self._seen = self._params, self._copier.epoch, None
            self._dtype = ps[0].dtype
            plain = all(p.dtype == self._dtype and p.device.type == "cpu" and p.numel() > 0 for p in ps)
            self._types = [ctypes.c_char * (p.numel() * p.element_size()) for p in ps] if plain else None
            self._numels = [p.numel() for p in ps]
        if self._types is None or not all(map(_is_contiguous, grads)) or list(map(_numel, grads)) != self._numels:
            with torch.no_grad():
                return torch.cat([g.detach().reshape(-1) for g in grads])
        if ptrs != self._seen:
            self._views = [memoryview(t.from_address(p)) for t, p in zip(self._types, ptrs)]
            self._seen = ptrs
        return (_join(self._views), self._dtype)


def _flat_tensor(flat):
    """The flat snapshot a _FlatCopier call returned, as a tensor."""
    if type(flat) is tuple:
        return torch.frombuffer(bytearray(flat[0]), dtype=flat[1])
    return flat


def _stacked(flats):
    """One (steps, values) tensor of equally long flat snapshots: one copy of their joined bytes, or a
    stack of the tensors (one torch.cat promoted may differ in dtype)."""
    if type(flats[0]) is tuple:
        return torch.frombuffer(bytearray().join(f[0] for f in flats), dtype=flats[0][1]).reshape(len(flats), -1)
    flats = [_flat_tensor(f) for f in flats]
    if any(f.dtype != flats[0].dtype for f in flats):
        flats = [f.to(torch.float64) for f in flats]
    return torch.stack(flats)


def _copy(value):
    return torch.as_tensor(value).detach().clone()


def _new_file_mode(path):
    """The mode the trace file gets: an existing file's own, else what open() would give (0666 less
    the umask)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _utc_timestamp():
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            moment = datetime.datetime.fromtimestamp(int(epoch), tz=datetime.timezone.utc)
        except (ValueError, OverflowError, OSError):
            raise HelperRefusal(f"SOURCE_DATE_EPOCH={epoch!r} is not a whole number of seconds")
    else:
        moment = datetime.datetime.now(tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _own_sha256():
    try:
        with open(os.path.abspath(__file__), "rb") as f:
            return "sha256:" + hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return "sha256:" + "0" * 64


class _StepContext:
    """The context manager step() returns: one per dumper, reused by every step."""
    __slots__ = ("_dumper", "_x", "_y")

    def __init__(self, dumper):
        self._dumper, self._x, self._y = dumper, None, None

    def __enter__(self):
        self._dumper._begin(self._x, self._y)
        return self

    def __exit__(self, exc_type, exc, tb):
        self._x = self._y = None  # the batch is the dumper's to keep (or not) from here
        if exc_type is None:
            self._dumper._end()
        else:
            self._dumper._pending = None
        return False


class _Slot:
    """A numbered place for a number (a float, or an integer when integer) in a line's text layout."""
    __slots__ = ("i", "integer")

    def __init__(self, i, integer=False):
        self.i, self.integer = i, integer

    @staticmethod
    def json(o):
        if type(o) is _Slot:
            # A NUL or SOH never occurs in a record's own strings; json writes them as \u0000 / \u0001.
            return ("\x01%d" if o.integer else "\x00%d") % o.i
        raise TypeError(f"{type(o).__name__} is not JSON serializable")


def _slots(value):
    """Nested lists of slot numbers as nested lists of _Slot."""
    if isinstance(value, list):
        return [_slots(v) for v in value]
    return _Slot(value)


class _Layout:
    """A line's JSON text with numbered slots (a capture's layout chunk holds it as is), cut at the
    slots; fill() puts a step's number texts in their places."""
    __slots__ = ("text", "slot_count", "slots", "integers", "mixed", "_format", "_pick")
    _CUT = re.compile(r'"\\u000([01])(\d+)"')

    def __init__(self, text, slot_count):
        self.text, self.slot_count = text, slot_count
        pieces = self._CUT.split(text)
        self._format = "%s".join(p.replace("%", "%%") for p in pieces[0::3])
        self.slots = slots = [int(k) for k in pieces[2::3]]
        self.integers = sorted({k for kind, k in zip(pieces[1::3], slots) if kind == "1"})
        self.mixed = bool(set(self.integers) & {k for kind, k in zip(pieces[1::3], slots) if kind == "0"})
        self._pick = operator.itemgetter(*slots) if slots else (lambda numbers: ())

    def fill(self, numbers):
        return self._format % self._pick(numbers)


_CAPTURE_MAGIC = b"BPCAP01\n"


def _chunk(tag, head, body=b""):
    """One capture chunk as buffers to write: tag, little-endian u64 payload length, payload."""
    return [tag + struct.pack("<Q", len(head) + len(body)) + head, body]


def _tensor_bytes(t):
    """The memory of a contiguous CPU tensor, uncopied (little-endian on every platform torch runs
    this on); valid while t lives, which the caller sees to by holding t until it has written."""
    return memoryview((ctypes.c_char * (t.numel() * t.element_size())).from_address(t.data_ptr()))


class TraceDumper:
    """Records each `with dumper.step(x, y):` block as one framework-trace sidecar line.

    out: a path (written to a temporary file beside it, renamed into place by close()) or None
    for standard output. trace_id: 32 lowercase hex digits; given, every line carries it and a
    dense step_index (a multi-step trace); omitted, lines carry neither and bp synthesizes them.
    input_names / output_names: unit names for the sidecar (default i1.., o1..).
    x and y are kept by reference until their step is written (every flush_every steps and at
    close()): a loop that overwrites its batch tensors in place passes copy_inputs=True. (A
    changed batch cannot pass unnoticed: bp recomputes the step from the recorded inputs.)
    """

    def __init__(self, model, optimizer, loss_fn, out=None, trace_id=None, input_names=None,
                 output_names=None, flush_every=256, copy_inputs=False, capture=False):
        self._first, self._second, self._act_h, act_o = _describe_model(model)
        self._loss, self._act_o, self._reduction = _describe_loss(loss_fn, act_o)
        self._params = [self._first.weight, self._first.bias, self._second.weight, self._second.bias]
        self._opt_name, self._hyper, order = _describe_optimizer(optimizer, self._params)
        self._optimizer = optimizer
        self._shapes = [p.shape for p in self._params]
        self._numels = [p.numel() for p in self._params]
        self._state_keys = {"sgd": (), "sgd_momentum": ("momentum_buffer",)}.get(
            self._opt_name, ("exp_avg", "exp_avg_sq", "step"))
        dtype = self._first.weight.dtype
        for p in self._params:
            if p.device.type != "cpu":
                raise HelperRefusal(f"device: parameters on {p.device} (only CPU steps are reproducible bit for bit)")
            if p.dtype != dtype or dtype not in (torch.float32, torch.float64):
                raise HelperRefusal("dtype: parameters must all be float32 or all float64")
        self._dtype = dtype
        if trace_id is not None and (not isinstance(trace_id, str) or len(trace_id) != 32
                                     or any(c not in "0123456789abcdef" for c in trace_id)):
            raise HelperRefusal("trace_id: must be 32 lowercase hex digits")
        self._trace_id = trace_id
        n_in, n_h, n_out = self._first.in_features, self._first.out_features, self._second.out_features
        self._inputs = list(input_names) if input_names else [f"i{k + 1}" for k in range(n_in)]
        self._hidden = [f"h{k + 1}" for k in range(n_h)]
        self._outputs = list(output_names) if output_names else [f"o{k + 1}" for k in range(n_out)]
        names = self._inputs + self._hidden + self._outputs
        if len(self._inputs) != n_in or len(self._outputs) != n_out or len(set(names)) != len(names):
            raise HelperRefusal("input_names/output_names: one distinct name per input and output unit")
        for n in names:
            if not (n[:1].isascii() and n[:1].isalpha() and all(c.isascii() and (c.isalnum() or c == "_") for c in n)):
                raise HelperRefusal(f"unit name {n!r}: letters, digits and '_' only, starting with a letter")
        self._topology = self._topology_block()
        # Where each parameter of parameter_order sits in a flat snapshot (W1, b1, W2, b2 row-major).
        flat = ([k * n_in + a for a in range(n_in) for k in range(n_h)] + [n_h * n_in + k for k in range(n_h)] +
                [n_h * n_in + n_h + j * n_h + k for k in range(n_h) for j in range(n_out)] +
                [n_h * n_in + n_h + n_out * n_h + j for j in range(n_out)])
        self._order = torch.tensor(flat, dtype=torch.long)
        self._out_path = out
        self._stream = None
        self._tmp_path = None
        self._flush_every = max(1, int(flush_every))
        self._raw = []
        self._pending = None
        self._step_index = 0
        self._closed = False
        self._copy_inputs = bool(copy_inputs)
        self._helper = self._helper_block()
        self._copy_before, self._copy_after = _FlatCopier(), _FlatCopier()
        self._copy_grads = _GradCopier(self._params, self._copy_after)
        self._layouts = {}
        self._ctx = _StepContext(self)
        self._capture = bool(capture)
        self._layout_ids = {}
        if self._capture and sys.byteorder != "little":
            raise HelperRefusal("capture=True: captures hold little-endian numbers; write sidecar JSON on this machine")
        self._batch_ok = self._opt_name == "sgd" and not self._hyper["weight_decay"]

    # ----- the training-loop side: snapshots only -----

    def step(self, inputs, targets):
        """Context manager around zero_grad / forward / backward / optimizer.step() of one step."""
        if self._closed:
            raise HelperRefusal("step(): the dumper is closed")
        ctx = self._ctx
        ctx._x, ctx._y = inputs, targets
        return ctx

    def _begin(self, x, y):
        # One torch call per side of the step: a flat copy of parameters (and optimizer state)
        # here, of parameters, gradients (and state) in _end. Everything else waits for flush().
        if _autocast_on() or _autocast_cpu_on():
            raise HelperRefusal("autocast (AMP) is active: mixed precision steps are not supported")
        state = self._state_tensors() if self._state_keys else None
        # A copy every step: reusing the last step's "after" copy would miss writes through
        # param.data, which bypass PyTorch's version counters.
        before = self._copy_before(self._params + state if state else self._params)
        if self._copy_inputs:
            x, y = _copy(x), _copy(y)
        else:
            x = x if type(x) is _Tensor else torch.as_tensor(x)
            y = y if type(y) is _Tensor else torch.as_tensor(y)
        self._pending = (before, state is not None, x, y, self._optimizer.param_groups[0]["lr"])

    def _end(self):
        before, had_state, x, y, lr = self._pending
        self._pending = None
        grads = list(map(_grad_of, self._params))
        state = self._state_tensors() if self._state_keys else None
        after = self._copy_after(self._params + state if state else self._params)
        try:
            grad_copy = self._copy_grads(grads)
        except TypeError:
            # A missing gradient (None) is found here rather than by a check on every step.
            if any(g is None for g in grads):
                self._abandon()
                raise HelperRefusal("step(): a parameter has no gradient; call loss.backward() inside the step "
                                    "block") from None
            raise
        if not self._batch_ok and x.dim() == 2 and x.shape[0] > 1:
            self._abandon()
            raise HelperRefusal(_BATCHED_REFUSAL)
        if self._state_keys and state is None:
            self._abandon()
            raise HelperRefusal("step(): the optimizer holds no state after the step; call optimizer.step() inside "
                                "the step block")
        self._raw.append((before, had_state, x, y, lr, after, grad_copy))
        if len(self._raw) >= self._flush_every:
            self.flush()

    def _state_tensors(self):
        """The optimizer's per-parameter state tensors, key by key in walk order; None before it has any."""
        if not self._state_keys:
            return None
        state = self._optimizer.state
        entries = [state.get(p) for p in self._params]  # keyed look-ups in walk order, never iteration
        if any(not e for e in entries):
            return None
        return [e[k] if torch.is_tensor(e[k]) else torch.tensor(float(e[k]), dtype=torch.float64)
                for k in self._state_keys for e in entries]

    # ----- serialization -----

    def flush(self):
        """Builds and writes the sidecar lines (or capture chunks) of the steps recorded so far."""
        if not self._raw:
            return
        try:
            groups = self._numbers(self._raw)
            data = self._capture_chunks(groups) if self._capture else self._lines(groups, len(self._raw))
        except BaseException:
            self._abandon()
            raise
        self._step_index += len(self._raw)
        self._raw = []
        if self._stream is None:
            self._open()
        if self._capture:  # buffers to write, each tensor after the view of its memory
            for buf in data:
                if not isinstance(buf, torch.Tensor):
                    self._stream.write(buf)
        else:
            self._stream.write(data)
        self._stream.flush()

    def _numbers(self, raw):
        """The recorded steps in groups alike in shape, each (samples, batched, step positions, matrix):
        one torch replay and one conversion per group. A matrix row holds a step's numbers in slot
        order: _value_spec's blocks, then learning rate, Adam's t, step_index."""
        groups = {}
        for k, (before, had_state, x, y, _, after, grads) in enumerate(raw):
            key = (x.shape, x.dtype, y.shape, y.dtype, had_state,
                   type(before) is tuple and type(after) is tuple and type(grads) is tuple)
            members = groups.get(key)
            if members is None:
                groups[key] = members = []
            members.append(k)
        out, first_bad = [], None
        for key, members in groups.items():
            n, batched = self._check_group(key[0], key[4])
            m = self._value_matrix([raw[k] for k in members], members, n, batched, key[4])
            if not math.isfinite(float(m.sum())):  # a NaN or an infinity, or (rarely) an overflowing sum
                finite = torch.isfinite(m).all(dim=1)
                bad = members[int((~finite).nonzero()[0, 0])] if not bool(finite.all()) else None
            else:
                bad = None
            if bad is not None:
                first_bad = bad if first_bad is None else min(first_bad, bad)
            out.append((n, batched, members, m))
        if first_bad is not None:
            raise HelperRefusal(f"step {self._step_index + first_bad}: a value is NaN or infinite; the step cannot be "
                                "described")
        return out

    def _check_group(self, shape, had_state):
        """(samples per step, batched) of steps whose inputs have this shape, or HelperRefusal."""
        features = len(self._inputs)
        numel = 1
        for d in shape:
            numel *= d
        if len(shape) > 2 or numel == 0 or numel % features or (len(shape) == 2 and shape[1] != features):
            raise HelperRefusal(f"inputs: expected {features} features per sample, got shape {tuple(shape)}")
        batched = len(shape) == 2 and shape[0] > 1
        if batched and (self._opt_name != "sgd" or self._hyper["weight_decay"]):
            raise HelperRefusal(_BATCHED_REFUSAL)
        if self._opt_name == "sgd_momentum" and self._hyper["dampening"] and not had_state:
            raise HelperRefusal("sgd_momentum with dampening: PyTorch starts the buffer at the raw gradient on its "
                                "first step, ignoring dampening, which bp's recurrence does not model; take the first "
                                "optimizer step outside dumper.step()")
        return numel // features, batched

    def _lines(self, groups, count):
        """Sidecar JSONL: each line its shape's cached text layout filled with the step's numbers as
        json spells them (a Python float's repr), so no record dict is built or encoded per step."""
        lines = [None] * count
        for n, batched, members, m in groups:
            layout = self._layout(n, batched)
            for k, row in zip(members, m.tolist()):
                for i in layout.integers:
                    row[i] = int(row[i])
                lines[k] = layout.fill(json.dumps(row, separators=(",", ":"), allow_nan=False)[1:-1].split(","))
        return "\n".join(lines) + "\n"

    def _capture_chunks(self, groups):
        """A capture's chunks as buffers to write (bp import expands them to the very lines _lines would
        write): a layout the first time a shape occurs, then the steps' numbers as binary64, one chunk
        per run of steps that share a layout. The tensors whose memory the buffers show come last."""
        out = [_CAPTURE_MAGIC] if self._stream is None else []
        for n, batched, _, _ in groups:
            if (n, batched) not in self._layout_ids:
                layout = self._layout(n, batched)
                self._layout_ids[(n, batched)] = len(self._layout_ids)
                out += _chunk(b"L", struct.pack("<II", self._layout_ids[(n, batched)], layout.slot_count),
                              layout.text.encode())
        if len(groups) == 1:  # the usual flush: every step alike
            n, batched, members, m = groups[0]
            m = m.contiguous()
            return out + _chunk(b"S", struct.pack("<II", self._layout_ids[(n, batched)], len(members)),
                                _tensor_bytes(m)) + [m]
        order = [None] * sum(len(g[2]) for g in groups)
        for g in groups:
            for j, k in enumerate(g[2]):
                order[k] = (g, j)
        k = 0
        while k < len(order):
            key = order[k][0][:2]
            end, parts = k, []  # parts: contiguous row ranges of one group's matrix
            while end < len(order) and order[end][0][:2] == key:
                g, j = order[end]
                if parts and parts[-1][0] is g and parts[-1][2] == j:
                    parts[-1][2] = j + 1
                else:
                    parts.append([g, j, j + 1])
                end += 1
            rows = torch.cat([g[3][a:b] for g, a, b in parts])
            out += _chunk(b"S", struct.pack("<II", self._layout_ids[key], end - k), _tensor_bytes(rows)) + [rows]
            k = end
        return out

    def _value_matrix(self, steps, positions, n, batched, had_state):
        """(steps, slots) float64: every number of each recorded step's line, in slot order. One replay
        of the model on the stacked "before" snapshots (batched matrix products, so a value may differ
        in its last bit from the step's own nn.Linear). Few torch calls: on a small model each costs
        more than its arithmetic."""
        count, dtype, p = len(steps), self._dtype, len(self._order)
        before = _stacked([s[0] for s in steps]).to(dtype)  # parameters[, state]
        after = _stacked([s[5] for s in steps]).to(dtype)  # parameters[, state]
        grads = _stacked([s[6] for s in steps]).to(dtype)
        (h, i), (o, _) = self._shapes[0], self._shapes[2]
        x = torch.stack([s[2] for s in steps]).to(dtype).reshape(count, n, i)
        t = self._targets(torch.stack([s[3] for s in steps]), count, n)
        w1 = before[:, :h * i].reshape(count, h, i).clone().requires_grad_(True)
        b1 = before[:, h * i:h * i + h].clone().requires_grad_(True)
        w2 = before[:, h * i + h:p - o].reshape(count, o, h).clone().requires_grad_(True)
        b2 = before[:, p - o:p].clone().requires_grad_(True)
        net_h = torch.baddbmm(b1.unsqueeze(1), x, w1.transpose(1, 2))
        out_h = _apply_activation(self._act_h, net_h)
        net_o = torch.baddbmm(b2.unsqueeze(1), out_h, w2.transpose(1, 2))
        if self._loss == "cross_entropy_softmax":
            out_o = torch.softmax(net_o, dim=-1)
            per_output = -(t * torch.log_softmax(net_o, dim=-1))
        else:
            out_o = _apply_activation(self._act_o, net_o)
            per_output = 0.5 * (t - out_o) ** 2
        per_sample = per_output.sum(dim=-1)
        # Summing the per-sample losses keeps each sample's (and each step's) derivatives its own.
        d_net_o, d_out_h, d_net_h = torch.autograd.grad(per_sample.sum(), (net_o, out_h, net_h), retain_graph=True)
        (deriv_h,) = torch.autograd.grad(out_h.sum(), net_h, retain_graph=self._loss == "half_squared_error")
        deriv_o = torch.autograd.grad(out_o.sum(), net_o)[0] if self._loss == "half_squared_error" else None
        with torch.no_grad():
            samples = torch.cat([x, t, net_h, out_h, net_o, out_o, per_output + 0.0, (per_sample + 0.0).unsqueeze(2)],
                                dim=2)
            # Sample 0 carries the error signals (bp's batched receipts do the same): the output and
            # hidden signals and the backpropagated sums negated (descent), the rest as they are.
            first = [d_net_o, d_net_h, d_out_h, deriv_h, t - out_o] + ([deriv_o] if deriv_o is not None else [])
            first = torch.cat(first, dim=2)[:, 0] * self._first_signs(deriv_o is not None)
            w2 = w2.detach()
            parts = [samples, first, w2, first[:, :o].unsqueeze(2) * w2]
            order = self._order
            vec_b, vec_a = before[:, order], after[:, order]
            if self._opt_name == "adamw":
                keep = torch.tensor([[1.0 - _float(s[4]) * self._hyper["weight_decay"]] for s in steps], dtype=dtype)
                update = vec_a - vec_b * keep
            else:
                update = vec_a - vec_b
            parts += [vec_b, vec_a, -grads[:, order], update]
            if self._state_keys:
                parts += self._state_parts(before if had_state else None, after, count)
            if batched:
                scale = 1.0 / n if self._reduction == "mean" else 1.0
                parts += [per_output.sum(dim=1) * scale + 0.0, per_sample.sum(dim=1) * scale + 0.0]
            numbers = [torch.cat([q if q.dim() == 2 else q.reshape(count, -1) for q in parts], dim=1).to(torch.float64)]
            lrs = [s[4] for s in steps]
            if not all(type(lr) is float for lr in lrs):
                lrs = list(map(_float, lrs))
            numbers.append(torch.tensor(lrs, dtype=torch.float64).unsqueeze(1))
            if self._opt_name in ("adam", "adamw"):
                numbers.append(self._adam_steps(after).to(torch.float64))
            if self._trace_id is not None:
                numbers.append((torch.tensor(positions, dtype=torch.float64) + self._step_index).unsqueeze(1))
            return torch.cat(numbers, dim=1)

    def _first_signs(self, with_deriv_o):
        """The signs that turn sample 0's derivatives into the sidecar's signals (see _value_matrix)."""
        h, o = len(self._hidden), len(self._outputs)
        signs = [-1.0] * (o + 2 * h) + [1.0] * (h + o + (o if with_deriv_o else 0))
        return torch.tensor(signs, dtype=self._dtype)

    def _state_parts(self, before, after, count):
        """Optimizer state before and after, per parameter in bp's descent convention: PyTorch's momentum
        buffer and Adam's first moment live in ascent space, so their sign is flipped once, here.
        Before the optimizer's first step there is no state (before None): zeros. A snapshot holds
        the state after the parameters, key by key."""
        p, order = len(self._order), self._order
        keys = ("momentum_buffer",) if self._opt_name == "sgd_momentum" else ("exp_avg", "exp_avg_sq")
        out = []
        for flat, start in ((before, p), (after, p)):
            for n, key in enumerate(keys):
                if flat is None:
                    vec = torch.zeros(count, p, dtype=self._dtype)
                else:
                    vec = flat[:, order + (start + n * p)]
                out.append((-vec if key in ("momentum_buffer", "exp_avg") else vec) + 0.0)
        return out

    def _adam_steps(self, after):
        """Adam's step count t of each step (the one count all parameters share), from the "after"
        snapshots: parameters, exp_avg, exp_avg_sq, then the four step counts."""
        p = len(self._order)
        counts = after[:, 3 * p:3 * p + 4]
        if not bool((counts == counts[:, :1]).all()):
            raise HelperRefusal("optimizer: Adam's step counts differ between parameters; cannot name one t")
        return counts[:, :1]

    def _value_spec(self, n, batched):
        """The number blocks of a step's line in _value_matrix column order: first the samples, a row
        each of (name, width) fields (width None: one number, not a list), then (name, shape) blocks."""
        i, h, o = len(self._inputs), len(self._hidden), len(self._outputs)
        p = sum(self._numels)
        spec = [("x", i), ("t", o), ("net_h", h), ("out_h", h), ("net_o", o), ("out_o", o), ("per_output", o),
                ("per_sample", None)]
        spec = [spec, ("sig_o", (o,)), ("sig_h", (h,)), ("backsum", (h,)), ("deriv_h", (h,)), ("tmo", (o,))]
        if self._loss == "half_squared_error":
            spec.append(("deriv_o", (o,)))
        spec += [("w2", (o, h)), ("contrib", (o, h)), ("before", (p,)), ("after", (p,)), ("grad", (p,)),
                 ("update", (p,))]
        names = {"sgd": (), "sgd_momentum": ("buffer",)}.get(self._opt_name, ("m", "v"))
        spec += [(f"{side}_{k}", (p,)) for side in ("sb", "sa") for k in names]
        if batched:
            spec += [("reduced_o", (o,)), ("total", ())]
        return spec

    def _layout(self, n, batched):
        """The text layout of a step's line for this shape, made once: the record built from numbered
        slots instead of numbers, encoded by json, cut at the slots."""
        key = (n, batched)
        layout = self._layouts.get(key)
        if layout is None:
            spec = self._value_spec(n, batched)
            fields, v, at = spec[0], {}, 0
            for name, _ in fields:
                v[name] = []
            for _ in range(n):  # sample rows
                for name, width in fields:
                    v[name].append(list(range(at, at + width)) if width else at)
                    at += width or 1
            for name, shape in spec[1:]:
                size = 1
                for d in shape:
                    size *= d
                v[name] = torch.arange(at, at + size).reshape(shape).tolist() if shape else at
                at += size
            v = {name: _slots(value) for name, value in v.items()}
            v["lr"] = _Slot(at)
            at += 1
            if self._opt_name in ("adam", "adamw"):
                v["opt_t"] = _Slot(at, integer=True)
                at += 1
            if self._trace_id is not None:
                v["step_index"] = _Slot(at, integer=True)
                at += 1
            try:
                text = json.dumps(self._record(v, n, batched), separators=(",", ":"), allow_nan=False,
                                  default=_Slot.json)
            except ValueError:
                raise HelperRefusal("optimizer: a hyperparameter is NaN or infinite; the step cannot be described") \
                    from None
            layout = self._layouts[key] = _Layout(text, at)
        return layout

    def _record(self, v, n, batched):
        """The sidecar record of one step, its numbers taken from v (numbers or slots, by _value_spec name)."""
        ins, hid, outs = self._inputs, self._hidden, self._outputs
        xs, ts, lr = v["x"], v["t"], v["lr"]
        net_h, out_h, net_o, out_o = v["net_h"], v["out_h"], v["net_o"], v["out_o"]
        per_output, per_sample = v["per_output"], v["per_sample"]

        def forward(s):
            f = {h: {"net": net_h[s][k], "out": out_h[s][k]} for k, h in enumerate(hid)}
            f.update({o: {"net": net_o[s][j], "out": out_o[s][j]} for j, o in enumerate(outs)})
            return f

        def sample_loss(s):
            return {"per_output": {o: per_output[s][j] for j, o in enumerate(outs)}, "total": per_sample[s]}

        sig_o, sig_h, backsum, deriv_h = v["sig_o"], v["sig_h"], v["backsum"], v["deriv_h"]
        w2, contrib, tmo = v["w2"], v["contrib"], v["tmo"]
        out_signals = {}
        for j, o in enumerate(outs):
            if self._loss == "cross_entropy_softmax":
                factors = [{"name": "target_minus_probability", "value": tmo[j]}]
            else:
                factors = [{"name": "target_minus_output", "value": tmo[j]},
                           {"name": "activation_derivative", "value": v["deriv_o"][j]}]
            out_signals[o] = {"factors": factors, "product_order": "left_to_right", "signal_value": sig_o[j]}
        hidden_signals = {}
        for k, h in enumerate(hid):
            hidden_signals[h] = {
                "downstream_contributions": [
                    {"from": o, "downstream_signal": sig_o[j], "via_weight": f"w_{h}_{o}", "weight_value": w2[j][k],
                     "value": contrib[j][k]} for j, o in enumerate(outs)],
                "summation_order": list(outs),
                "backpropagated_sum": backsum[k],
                "activation_derivative": deriv_h[k],
                "product_order": "left_to_right",
                "signal_value": sig_h[k],
            }

        ids = self._topology["parameter_order"]
        params_before, params_after = dict(zip(ids, v["before"])), dict(zip(ids, v["after"]))
        gradient, update = dict(zip(ids, v["grad"])), dict(zip(ids, v["update"]))
        state_before = state_after = None
        if self._opt_name != "sgd":
            names = ("buffer",) if self._opt_name == "sgd_momentum" else ("m", "v")
            state_before, state_after = (
                {pid: {name: v[f"{side}_{name}"][k] for name in names} for k, pid in enumerate(ids)}
                for side in ("sb", "sa"))

        updates = []
        for spec in self._topology["parameters"]:
            pid = spec["id"]
            if batched:
                factors = [{"name": "batch_reduced_gradient", "value": gradient[pid]}]
            elif spec["role"] == "input_to_hidden_weight":
                i, h = spec["from_unit"], spec["to_unit"]
                factors = [{"name": "hidden_error_signal", "from": f"backward.hidden_error_signals.{h}.signal_value",
                            "value": sig_h[hid.index(h)]},
                           {"name": "upstream_activation", "from": f"inputs.{i}", "value": xs[0][ins.index(i)]}]
            elif spec["role"] == "hidden_to_output_weight":
                h, o = spec["from_unit"], spec["to_unit"]
                factors = [{"name": "output_error_signal", "from": f"backward.output_error_signals.{o}.signal_value",
                            "value": sig_o[outs.index(o)]},
                           {"name": "upstream_activation", "from": f"forward.{h}.out", "value": out_h[0][hid.index(h)]}]
            elif spec["role"] == "hidden_bias":
                h = spec["applies_to_units"][0]
                factors = [{"name": "hidden_error_signal", "from": f"backward.hidden_error_signals.{h}.signal_value",
                            "value": sig_h[hid.index(h)]}]
            else:
                o = spec["applies_to_units"][0]
                factors = [{"name": "output_error_signal", "from": f"backward.output_error_signals.{o}.signal_value",
                            "value": sig_o[outs.index(o)]}]
            opt = {"name": self._opt_name, "learning_rate": lr, "factors": factors, "product_order": "left_to_right"}
            if state_before is not None:
                opt["state_before"] = state_before[pid]
                opt["state_after"] = state_after[pid]
            bias = spec["role"].endswith("bias")
            if bias:
                unit = spec["applies_to_units"][0]
                where = {"parameter_role": spec["role"], "from_unit": unit, "to_unit": unit, "layer_edge": "bias_to_layer"}
            else:
                where = {"parameter_role": f"{spec['from_unit']}_to_{spec['to_unit']}", "from_unit": spec["from_unit"],
                         "to_unit": spec["to_unit"],
                         "layer_edge": "input_to_hidden" if spec["role"] == "input_to_hidden_weight" else "hidden_to_output"}
            entry = {"parameter_id": pid, "kind": "bias" if bias else "weight", "weight_before": params_before[pid],
                     "optimizer": opt, "gradient": gradient[pid], "update": update[pid],
                     "weight_after": params_after[pid]}
            entry.update(where)
            updates.append(entry)

        record = {"format": FORMAT_V7}
        optimizer_block = self._optimizer_block(lr, v.get("opt_t"))
        if optimizer_block and optimizer_block.get("weight_decay") and self._opt_name in ("sgd", "sgd_momentum"):
            record["format"] = FORMAT_V8
        record["source_framework"] = {
            "name": "pytorch", "version": self._helper["framework"]["version"], "information_uri": "https://pytorch.org",
            "extractor": {"name": HELPER_NAME, "version": HELPER_VERSION}}
        record["helper"] = self._helper
        if self._trace_id is not None:
            record["trace_id"] = self._trace_id
            record["step_index"] = v["step_index"]
        record["topology"] = self._topology
        record["learning_rate"] = lr
        if optimizer_block:
            record["optimizer"] = optimizer_block
        if self._dtype == torch.float64:
            record["numeric_policy"] = {
                "number_encoding": "decimal", "precision_significant_digits": 9, "rounding": "round_half_to_even",
                "tolerance": {"atol": 1e-8, "rtol": 1e-6}, "computation_order": "schema_defined",
                "byte_output": {"format": "jsonl", "json_key_order": "schema_defined",
                                "trailing_zero_policy": "pad_to_significant_digits", "indent": "none"}}
        record["bias_policy"] = {
            "mode": "sgd", "reason": "torch.nn.Linear biases are trained by the optimizer like the weights",
            "updated_in_step": True}
        inputs0 = {i: xs[0][a] for a, i in enumerate(ins)}
        targets0 = {o: ts[0][j] for j, o in enumerate(outs)}
        if batched:
            sample_ids = [f"s{s}" for s in range(n)]
            record["batch"] = {"size": n, "sample_order": sample_ids, "reduction": self._reduction}
        record["inputs"] = inputs0
        record["targets"] = targets0
        record["parameters_before"] = params_before
        if batched:
            record["per_sample"] = {
                sid: {"inputs": {i: xs[s][a] for a, i in enumerate(ins)},
                      "targets": {o: ts[s][j] for j, o in enumerate(outs)},
                      "forward": forward(s), "loss": sample_loss(s)} for s, sid in enumerate(sample_ids)}
        record["forward"] = forward(0)
        if batched:
            reduced_o = v["reduced_o"]
            record["loss"] = {"per_output": {o: reduced_o[j] for j, o in enumerate(outs)},
                              "per_sample": {sid: per_sample[s] for s, sid in enumerate(sample_ids)},
                              "reduction": self._reduction,
                              "total": v["total"]}
        else:
            record["loss"] = sample_loss(0)
        record["backward"] = {"output_error_signals": out_signals, "hidden_error_signals": hidden_signals}
        record["updates"] = updates
        record["parameters_after"] = params_after
        return record

    def close(self):
        """Writes what is left and, for a file, renames it into place (fsynced)."""
        if self._closed:
            return
        self.flush()
        self._closed = True
        if self._stream is None:
            return
        if self._tmp_path is not None:
            self._stream.flush()
            os.fsync(self._stream.fileno())
            self._stream.close()
            os.replace(self._tmp_path, self._out_path)
            dir_fd = os.open(os.path.dirname(os.path.abspath(self._out_path)), os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        elif self._stream is not sys.stdout and self._stream is not getattr(sys.stdout, "buffer", None):
            self._stream.close()
        else:
            self._stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self._abandon()
        return False

    def _abandon(self):
        """A failed trace leaves no file behind (a half-written sidecar would be imported as a shorter run)."""
        self._closed = True
        self._raw = []
        if self._tmp_path is not None and self._stream is not None:
            self._stream.close()
            os.unlink(self._tmp_path)
            self._tmp_path = None

    def _open(self):
        mode = "wb" if self._capture else "w"
        encoding = None if self._capture else "utf-8"
        if self._out_path is None:
            self._stream = getattr(sys.stdout, "buffer", None) if self._capture else sys.stdout
            if self._stream is None:
                raise HelperRefusal("capture=True: standard output takes no bytes here; give out= a file path")
            return
        # A link is followed, so the file it names is replaced, not the link. A device or a pipe
        # (/dev/stdout, a FIFO) is written in place: renaming over it would replace the node.
        self._out_path = os.path.realpath(self._out_path)
        if os.path.exists(self._out_path) and not stat.S_ISREG(os.stat(self._out_path).st_mode):
            self._stream = open(self._out_path, mode, encoding=encoding)
            return
        fd, self._tmp_path = tempfile.mkstemp(prefix=".bp-trace-", dir=os.path.dirname(self._out_path))
        os.fchmod(fd, _new_file_mode(self._out_path))  # mkstemp's 0600 is for the temporary, not the trace
        self._stream = os.fdopen(fd, mode, encoding=encoding)

    def _helper_block(self):
        torch_version = torch.__version__.split("+")[0]
        return {
            "name": HELPER_NAME,
            "version": HELPER_VERSION,
            "distribution": "repo-script",
            "source_hash": _own_sha256(),
            "framework": {"name": "pytorch", "version": torch_version},
            "runtime": {
                "python_version": platform.python_version(),
                "torch_version": torch_version,
                "deterministic_mode": {
                    "torch_use_deterministic_algorithms": bool(torch.are_deterministic_algorithms_enabled()),
                    "cudnn_deterministic": bool(torch.backends.cudnn.deterministic),
                    "cudnn_benchmark": bool(torch.backends.cudnn.benchmark),
                },
            },
            "extraction": {"timestamp": _utc_timestamp(), "device": "cpu"},
        }

    def _topology_block(self):
        ins, hid, outs = self._inputs, self._hidden, self._outputs
        order, params = [], []
        for i in ins:
            for h in hid:
                order.append(f"w_{i}_{h}")
                params.append({"id": f"w_{i}_{h}", "role": "input_to_hidden_weight", "from_unit": i, "to_unit": h})
        for h in hid:
            order.append(f"b_{h}")
            params.append({"id": f"b_{h}", "role": "hidden_bias", "applies_to_units": [h]})
        for h in hid:
            for o in outs:
                order.append(f"w_{h}_{o}")
                params.append({"id": f"w_{h}_{o}", "role": "hidden_to_output_weight", "from_unit": h, "to_unit": o})
        for o in outs:
            order.append(f"b_{o}")
            params.append({"id": f"b_{o}", "role": "output_bias", "applies_to_units": [o]})
        return {
            "layers": ["input", "hidden", "output"],
            "input_size": len(ins), "hidden_size": len(hid), "output_size": len(outs),
            "unit_order": {"input": ins, "hidden": hid, "output": outs},
            "parameter_order": order,
            "parameters": params,
            "activation_hidden": self._act_h,
            "activation_output": self._act_o,
            "loss": self._loss,
            "bias_sharing": "per_neuron",
        }

    def _targets(self, y, count, n):
        """(steps, samples, outputs) targets of a group's stacked targets: class indices one-hot."""
        n_out = len(self._outputs)
        if self._loss == "cross_entropy_softmax" and y.dtype in (torch.int64, torch.int32, torch.int16, torch.uint8):
            y = y.reshape(count, -1)
            if y.shape[1] != n or bool((y < 0).any()) or bool((y >= n_out).any()):
                raise HelperRefusal(f"targets: expected {n} class indices in [0, {n_out})")
            return F.one_hot(y.long(), n_out).to(self._dtype)
        if y.numel() != count * n * n_out:
            raise HelperRefusal(f"targets: expected {n_out} values per sample for {n} samples, got shape "
                                f"{tuple(y.shape[1:])}")
        return y.to(self._dtype).reshape(count, n, n_out)

    def _optimizer_block(self, lr, t):
        h = self._hyper
        if self._opt_name == "sgd":
            return {"name": "sgd", "learning_rate": lr, "weight_decay": float(h["weight_decay"])} if h["weight_decay"] else None
        if self._opt_name == "sgd_momentum":
            block = {"name": "sgd_momentum", "learning_rate": lr}
            if h["weight_decay"]:
                block["weight_decay"] = float(h["weight_decay"])
            block["momentum"] = float(h["momentum"])
            if h["nesterov"]:
                block["nesterov"] = True
            if h["dampening"]:
                block["dampening"] = float(h["dampening"])
            return block
        beta1, beta2 = h["betas"]
        block = {"name": self._opt_name, "learning_rate": lr, "beta1": float(beta1), "beta2": float(beta2),
                 "epsilon": float(h["eps"])}
        if self._opt_name == "adamw":
            block["weight_decay"] = float(h["weight_decay"])
        block["t"] = t
        return block


def expand_capture(data):
    """The sidecar JSONL text a capture (TraceDumper(..., capture=True)) stands for, as bp import
    expands it; for tools that read only sidecars. ValueError for a malformed capture."""
    if data[:len(_CAPTURE_MAGIC)] != _CAPTURE_MAGIC:
        raise ValueError("not a capture (no BPCAP01 magic)")
    layouts, lines, at = [], [], len(_CAPTURE_MAGIC)
    while at < len(data):
        if len(data) - at < 9:
            raise ValueError(f"byte {at}: truncated chunk header")
        tag, (length,) = data[at:at + 1], struct.unpack_from("<Q", data, at + 1)
        payload = data[at + 9:at + 9 + length]
        if len(payload) != length or length < 8:
            raise ValueError(f"byte {at}: chunk payload runs past the end or lacks its 8-byte head")
        first, second = struct.unpack_from("<II", payload)
        if tag == b"L":
            if first != len(layouts) or not 1 <= second <= 1 << 24:
                raise ValueError(f"byte {at}: layout id out of order or slot count out of range")
            layout = _Layout(payload[8:].decode("utf-8"), second)
            if layout.slots and max(layout.slots) >= second:
                raise ValueError(f"byte {at}: layout {first} names slot {max(layout.slots)} of {second}")
            if layout.mixed:
                raise ValueError(f"byte {at}: layout {first} uses a slot as both a float and an integer")
            layouts.append(layout)
        elif tag == b"S":
            if first >= len(layouts) or second == 0 or length != 8 + second * layouts[first].slot_count * 8:
                raise ValueError(f"byte {at}: step chunk names an unknown layout or has the wrong size")
            layout = layouts[first]
            for k in range(second):
                row = list(struct.unpack_from(f"<{layout.slot_count}d", payload, 8 + k * layout.slot_count * 8))
                for i in layout.integers:
                    if row[i] != int(row[i]) or abs(row[i]) > 2 ** 53:
                        raise ValueError(f"byte {at}: integer slot {i} holds {row[i]!r}")
                    row[i] = int(row[i])
                lines.append(layout.fill(json.dumps(row, separators=(",", ":"), allow_nan=False)[1:-1].split(",")))
        else:
            raise ValueError(f"byte {at}: unknown chunk tag {tag!r}")
        at += 9 + length
    return "".join(line + "\n" for line in lines)


if __name__ == "__main__":
    me = os.path.basename(sys.argv[0])
    if len(sys.argv) != 3 or sys.argv[1] != "expand":
        sys.exit(f"usage: python3 {me} expand CAPTURE > sidecars.jsonl   (bp import reads captures itself)")
    try:
        with open(sys.argv[2], "rb") as f:
            sys.stdout.write(expand_capture(f.read()))
    except (OSError, ValueError) as e:
        sys.exit(f"{me} expand: {sys.argv[2]}: {e}")
