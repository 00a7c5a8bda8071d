"""bp live helper for JAX: records what your own training loop did, for `bp import jax`.

    import jax
    jax.config.update("jax_enable_x64", True)          # required: bp's engine runs binary64
    from jax_trace_helper import TraceDumper

    def loss_fn(params, x, y):                          # your model and loss, unchanged
        (w1, b1), (w2, b2) = params
        out = jax.nn.sigmoid(jax.nn.sigmoid(x @ w1 + b1) @ w2 + b2)
        return 0.5 * ((out - y) ** 2).sum(-1).mean()

    dumper = TraceDumper(loss_fn, activation_hidden="sigmoid", activation_output="sigmoid",
                         loss="half_squared_error", out="trace.jsonl", trace_id="0123...")
    opt_init, opt_update, get_params = dumper.optimizer("adam", step_size=1e-2)
    state = opt_init([(w1, b1), (w2, b2)])
    for i, (x, y) in enumerate(batches):
        grads = jax.grad(loss_fn)(get_params(state), x, y)
        new_state = opt_update(i, grads, state)
        dumper.record(i, x, y, state, grads, new_state)
        state = new_state
    dumper.close()

    bp import jax multi trace.jsonl | bp verify multi -

This file is an OBSERVER. It copies numbers out of JAX into framework-trace.v0.7.0 sidecars and
never judges them: it has no field, message or status that says whether a step was right. bp's
engine recomputes every step from the sidecar's inputs and is the only authority (Rule 14).

The optimizers are JAX's own (jax.example_libraries.optimizers: sgd, momentum, nesterov, adam);
dumper.optimizer() builds them so that the hyperparameters written to the sidecar are the ones
the optimizer runs with. Parameters are the usual MLP pytree [(w1, b1), (w2, b2)] with
x @ w + b; leaves are named by their place in that tree, never by dictionary order.
Gradients are jax.grad of YOUR loss_fn, negated once into bp's descent convention; the momentum
velocity and Adam's first moment are likewise negated once (JAX subtracts step_size * them).
Forward values and error signals come from a replay of the declared layers on the pre-step
parameters with jax.numpy and jax.grad.

Forensic, not a credential: the `helper` block carries this file's sha256 and, in source_uri,
the sha256 of jax.make_jaxpr(jax.grad(loss_fn)) - the gradient computation that produced the
numbers, which a reviewer can re-trace. Neither can make bp accept a wrong step.

Refused at the boundary (HelperRefusal): jax_enable_x64 off (float32 values would look like
disagreements), any non-CPU device, parameter trees of another shape, activations or losses
bp's engine does not know, and batches larger than one for optimizers other than plain SGD
(bp's batched engine carries no optimizer state). Set SOURCE_DATE_EPOCH to pin the timestamp.
Requires only jax/jaxlib and the Python standard library.
"""

import datetime
import hashlib
import json
import os
import platform
import stat
import sys
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
from jax.example_libraries import optimizers as jax_optimizers

HELPER_NAME = "bp-jax-helper"
HELPER_VERSION = "1.0.0"
FORMAT = "framework-trace.v0.7.0"
_ACTIVATIONS = ("sigmoid", "relu", "identity")
_LOSSES = ("half_squared_error", "cross_entropy_softmax")


class HelperRefusal(ValueError):
    """The helper cannot describe this setup or step in a framework-trace sidecar."""


def _x64_enabled():
    try:
        return bool(jax.config.read("jax_enable_x64"))
    except Exception:  # older JAX spells it as an attribute
        return bool(getattr(jax.config, "jax_enable_x64", False))


def _require_cpu(arrays, what):
    for a in jax.tree_util.tree_leaves(arrays):
        devices = a.devices() if hasattr(a, "devices") else set()
        for d in devices:
            if d.platform != "cpu":
                raise HelperRefusal(f"{what}: on {d.platform} (only CPU steps are reproducible bit for bit)")


def _act(name, net):
    if name == "sigmoid":
        return jax.nn.sigmoid(net)
    if name == "relu":
        return jax.nn.relu(net)
    return net


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
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return "0" * 64


def _layers(params):
    """(w1, b1, w2, b2) as float64 numpy arrays from [(w1, b1), (w2, b2)]."""
    try:
        (w1, b1), (w2, b2) = params
    except (TypeError, ValueError):
        raise HelperRefusal("params: expected the pytree [(w1, b1), (w2, b2)] of a one-hidden-layer MLP")
    out = []
    for name, a in (("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2)):
        arr = np.asarray(a)
        if arr.dtype != np.float64:
            raise HelperRefusal(f"params.{name}: dtype {arr.dtype}; create parameters after enabling jax_enable_x64")
        out.append(arr)
    w1, b1, w2, b2 = out
    if w1.ndim != 2 or w2.ndim != 2 or b1.shape != (w1.shape[1],) or b2.shape != (w2.shape[1],) \
            or w2.shape[0] != w1.shape[1]:
        raise HelperRefusal("params: shapes must be w1 (in, hidden), b1 (hidden,), w2 (hidden, out), b2 (out,)")
    return out


class TraceDumper:
    """Collects one framework-trace sidecar line per record() call.

    loss_fn(params, x, y) -> scalar: your loss, used only for the jaxpr digest.
    activation_hidden / activation_output: sigmoid, relu or identity (output: softmax comes with
    loss="cross_entropy_softmax"). loss: half_squared_error or cross_entropy_softmax, averaged over
    the batch. out: a path (written beside it, renamed into place by close()) or None for stdout.
    trace_id: 32 lowercase hex digits; given, lines carry it and a dense step_index.
    """

    def __init__(self, loss_fn, activation_hidden="sigmoid", activation_output="sigmoid",
                 loss="half_squared_error", out=None, trace_id=None, input_names=None, output_names=None):
        if not _x64_enabled():
            raise HelperRefusal("jax_enable_x64 is off: call jax.config.update('jax_enable_x64', True) before "
                                "creating parameters (bp's engine runs binary64)")
        if jax.default_backend() != "cpu":
            raise HelperRefusal(f"default backend is {jax.default_backend()}: run with JAX_PLATFORMS=cpu")
        if activation_hidden not in _ACTIVATIONS:
            raise HelperRefusal(f"activation_hidden {activation_hidden!r}: one of {', '.join(_ACTIVATIONS)}")
        if loss not in _LOSSES:
            raise HelperRefusal(f"loss {loss!r}: one of {', '.join(_LOSSES)}")
        if loss == "cross_entropy_softmax":
            if activation_output not in ("softmax", "identity"):
                raise HelperRefusal("cross_entropy_softmax takes logits: activation_output must be 'softmax'")
            activation_output = "softmax"
        elif activation_output not in _ACTIVATIONS:
            raise HelperRefusal(f"activation_output {activation_output!r}: one of {', '.join(_ACTIVATIONS)}")
        if trace_id is not None and (not isinstance(trace_id, str) or len(trace_id) != 32
                                     or any(c not in "0123456789abcdef" for c in trace_id)):
            raise HelperRefusal("trace_id: must be 32 lowercase hex digits")
        self._loss_fn = loss_fn
        self._act_h, self._act_o, self._loss = activation_hidden, activation_output, loss
        self._trace_id = trace_id
        self._input_names, self._output_names = input_names, output_names
        self._opt = None
        self._topology = None
        self._out_path = out
        self._stream = None
        self._tmp_path = None
        self._step_index = 0
        self._jaxpr_digests = {}
        self._replay_fn = None
        self._closed = False
        self._timestamp = _utc_timestamp()
        self._source_sha = _own_sha256()

    def optimizer(self, name, step_size, mass=None, b1=0.9, b2=0.999, eps=1e-8):
        """JAX's own optimizer triple (init, update, get_params), with its settings recorded.

        name: "sgd", "momentum", "nesterov" or "adam" (jax.example_libraries.optimizers).
        step_size must be a number: a schedule would change the rate the sidecar names.
        """
        if self._opt is not None:
            raise HelperRefusal("optimizer(): already created for this dumper")
        if not isinstance(step_size, (int, float)) or not step_size > 0:
            raise HelperRefusal("step_size: a positive number (schedules are not supported)")
        lr = float(step_size)
        if name == "sgd":
            triple, block = jax_optimizers.sgd(lr), None
        elif name in ("momentum", "nesterov"):
            if mass is None or not 0 < mass < 1:
                raise HelperRefusal(f"{name}: mass must be in (0, 1)")
            triple = (jax_optimizers.momentum if name == "momentum" else jax_optimizers.nesterov)(lr, float(mass))
            block = {"name": "sgd_momentum", "learning_rate": lr, "momentum": float(mass)}
            if name == "nesterov":
                block["nesterov"] = True
        elif name == "adam":
            triple = jax_optimizers.adam(lr, float(b1), float(b2), float(eps))
            block = {"name": "adam", "learning_rate": lr, "beta1": float(b1), "beta2": float(b2), "epsilon": float(eps)}
        else:
            raise HelperRefusal(f"optimizer {name!r}: one of sgd, momentum, nesterov, adam "
                                "(jax.example_libraries.optimizers; AdamW and weight decay are not in JAX itself)")
        self._opt = (name, lr, block, triple[2])
        return triple

    # ----- recording -----

    def record(self, i, x, y, state_before, grads, state_after):
        """One training step: opt_update(i, grads, state_before) returned state_after."""
        if self._closed:
            raise HelperRefusal("record(): the dumper is closed")
        if self._opt is None:
            raise HelperRefusal("record(): create the optimizer with dumper.optimizer(...) first")
        name, lr, block, get_params = self._opt
        _require_cpu((x, grads, state_before.packed_state, state_after.packed_state), "arrays")
        before = _layers(get_params(state_before))
        after = _layers(get_params(state_after))
        g = _layers(grads)
        x = np.asarray(x, dtype=np.float64)
        x = x.reshape(1, -1) if x.ndim == 1 else x
        if x.ndim != 2 or x.shape[1] != before[0].shape[0]:
            raise HelperRefusal(f"x: expected shape (batch, {before[0].shape[0]}), got {x.shape}")
        n = x.shape[0]
        t = self._targets(np.asarray(y), n, before[2].shape[1])
        if n > 1 and name != "sgd":
            raise HelperRefusal("batched step: bp's batched engine audits plain SGD only; record batches of one "
                                "sample, or use sgd")
        if self._topology is None:
            self._topology = self._topology_block(before[0].shape[0], before[0].shape[1], before[2].shape[1])
        digest = self._jaxpr_digest(get_params(state_before), x, y)
        states = self._states(name, state_before, state_after)
        opt_block = None
        if block is not None:
            opt_block = dict(block)
            if name == "adam":
                opt_block["t"] = int(i) + 1  # example_libraries' adam bias-corrects with (i + 1)
        record = self._render(before, after, g, x, t, lr, name, opt_block, states, digest)
        line = json.dumps(record, separators=(",", ":"), allow_nan=False) if _finite(record) else None
        if line is None:
            raise HelperRefusal(f"step {self._step_index}: a value is NaN or infinite; the step cannot be described")
        if self._stream is None:
            self._open()
        self._stream.write(line + "\n")
        self._step_index += 1

    def close(self):
        if self._closed:
            return
        self._closed = True
        if self._stream is None:
            return
        self._stream.flush()
        if self._tmp_path is not None:
            os.fsync(self._stream.fileno())
            self._stream.close()
            os.replace(self._tmp_path, self._out_path)
            fd = os.open(os.path.dirname(os.path.abspath(self._out_path)), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        elif self._stream is not sys.stdout:
            self._stream.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        elif self._tmp_path is not None and self._stream is not None:
            self._stream.close()
            os.unlink(self._tmp_path)
            self._closed = True
        return False

    def _open(self):
        if self._out_path is None:
            self._stream = sys.stdout
            return
        # A link is followed, so the file it names is replaced, not the link. A device or a pipe
        # (/dev/stdout, a FIFO) is written in place: renaming over it would replace the node.
        self._out_path = os.path.realpath(self._out_path)
        if os.path.exists(self._out_path) and not stat.S_ISREG(os.stat(self._out_path).st_mode):
            self._stream = open(self._out_path, "w", encoding="utf-8")
            return
        fd, self._tmp_path = tempfile.mkstemp(prefix=".bp-trace-", dir=os.path.dirname(self._out_path))
        os.fchmod(fd, _new_file_mode(self._out_path))  # mkstemp's 0600 is for the temporary, not the trace
        self._stream = os.fdopen(fd, "w", encoding="utf-8")

    def _jaxpr_digest(self, params, x, y):
        key = (x.shape, np.shape(y))
        if key not in self._jaxpr_digests:
            jaxpr = jax.make_jaxpr(jax.grad(self._loss_fn))(params, jnp.asarray(x), jnp.asarray(y))
            self._jaxpr_digests[key] = hashlib.sha256(str(jaxpr).encode("utf-8")).hexdigest()
        return self._jaxpr_digests[key]

    def _targets(self, y, n, n_out):
        if self._loss == "cross_entropy_softmax" and np.issubdtype(y.dtype, np.integer):
            y = y.reshape(-1)
            if y.size != n or (y < 0).any() or (y >= n_out).any():
                raise HelperRefusal(f"y: expected {n} class indices in [0, {n_out})")
            return np.eye(n_out, dtype=np.float64)[y]
        y = y.astype(np.float64).reshape(n, -1)
        if y.shape[1] != n_out:
            raise HelperRefusal(f"y: expected {n_out} values per sample, got {y.shape[1]}")
        return y

    def _states(self, name, state_before, state_after):
        """Per-leaf optimizer state in bp's descent convention, leaves in tree order w1, b1, w2, b2."""
        if name == "sgd":
            return None
        out = []
        for state in (state_before, state_after):
            packed = state.packed_state  # one tuple per parameter leaf: (x, velocity) or (x, m, v)
            if len(packed) != 4:
                raise HelperRefusal("optimizer state: expected one entry per parameter leaf (4)")
            if name == "adam":
                # JAX subtracts step_size * m_hat: m is in ascent space, flipped once here; v is a square.
                out.append({"m": [-np.asarray(p[1]) for p in packed], "v": [np.asarray(p[2]) for p in packed]})
            else:
                out.append({"buffer": [-np.asarray(p[1]) for p in packed]})
        return out

    def _topology_block(self, n_in, n_h, n_out):
        ins = list(self._input_names) if self._input_names else [f"i{k + 1}" for k in range(n_in)]
        outs = list(self._output_names) if self._output_names else [f"o{k + 1}" for k in range(n_out)]
        hid = [f"h{k + 1}" for k in range(n_h)]
        names = ins + hid + outs
        if len(ins) != n_in or len(outs) != n_out or len(set(names)) != len(names):
            raise HelperRefusal("input_names/output_names: one distinct name per input and output unit")
        for nm in names:
            if not (nm[:1].isascii() and nm[:1].isalpha() and all(c.isascii() and (c.isalnum() or c == "_") for c in nm)):
                raise HelperRefusal(f"unit name {nm!r}: letters, digits and '_' only, starting with a letter")
        self._ins, self._hid, self._outs = ins, hid, outs
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
        return {"layers": ["input", "hidden", "output"], "input_size": n_in, "hidden_size": n_h, "output_size": n_out,
                "unit_order": {"input": ins, "hidden": hid, "output": outs}, "parameter_order": order,
                "parameters": params, "activation_hidden": self._act_h, "activation_output": self._act_o,
                "loss": self._loss, "bias_sharing": "per_neuron"}

    def _named(self, layers):
        """{parameter id: float} from (w1 (in, hidden), b1, w2 (hidden, out), b2)."""
        w1, b1, w2, b2 = (np.asarray(a).tolist() for a in layers)
        out = {}
        for a, i in enumerate(self._ins):
            for k, h in enumerate(self._hid):
                out[f"w_{i}_{h}"] = w1[a][k]
        for k, h in enumerate(self._hid):
            out[f"b_{h}"] = b1[k]
        for k, h in enumerate(self._hid):
            for j, o in enumerate(self._outs):
                out[f"w_{h}_{o}"] = w2[k][j]
        for j, o in enumerate(self._outs):
            out[f"b_{o}"] = b2[j]
        return out

    def _replay(self, layers, x, t):
        """Forward, losses and error signals of the pre-step parameters, by jax.numpy and jax.grad."""
        if self._replay_fn is None:
            self._replay_fn = jax.jit(self._replay_core)  # one compilation instead of one per primitive
        r = self._replay_fn(*(jnp.asarray(a) for a in layers), jnp.asarray(x), jnp.asarray(t))
        return {k: (None if v is None else np.asarray(v)) for k, v in r.items()}

    def _replay_core(self, w1, b1, w2, b2, x, t):
        net_h = x @ w1 + b1
        out_h = _act(self._act_h, net_h)
        net_o = out_h @ w2 + b2

        def per_output_of(net):
            if self._loss == "cross_entropy_softmax":
                return -(t * jax.nn.log_softmax(net, axis=-1))
            return 0.5 * (t - _act(self._act_o, net)) ** 2

        def total_from_net_o(net):  # summed per-sample losses: each sample keeps its own derivative
            return per_output_of(net).sum()

        def total_from_out_h(out):
            return total_from_net_o(out @ w2 + b2)

        def total_from_net_h(net):
            return total_from_out_h(_act(self._act_h, net))

        out_o = jax.nn.softmax(net_o, axis=-1) if self._loss == "cross_entropy_softmax" else _act(self._act_o, net_o)
        per_output = per_output_of(net_o)
        r = {
            "net_h": net_h, "out_h": out_h, "net_o": net_o, "out_o": out_o, "per_output": per_output,
            "per_sample": per_output.sum(axis=-1),
            "signal_o": -jax.grad(total_from_net_o)(net_o), "backsum_h": -jax.grad(total_from_out_h)(out_h),
            "signal_h": -jax.grad(total_from_net_h)(net_h),
            "deriv_h": jax.grad(lambda n: _act(self._act_h, n).sum())(net_h),
            "deriv_o": None if self._loss == "cross_entropy_softmax" else jax.grad(lambda n: _act(self._act_o, n).sum())(net_o),
            "t_minus_o": t - out_o, "w2": w2,
        }
        r["contrib"] = r["signal_o"][0][None, :] * w2  # [h][o]
        return r

    def _render(self, before, after, grads, x, t, lr, name, opt_block, states, digest):
        ins, hid, outs = self._ins, self._hid, self._outs
        n = x.shape[0]
        batched = n > 1
        r = self._replay(before, x, t)
        xs, ts = x.tolist(), t.tolist()
        net_h, out_h, net_o, out_o = (r[k].tolist() for k in ("net_h", "out_h", "net_o", "out_o"))
        per_output, per_sample = r["per_output"].tolist(), r["per_sample"].tolist()

        def forward(s):
            f = {h: {"net": net_h[s][k], "out": out_h[s][k]} for k, h in enumerate(hid)}
            f.update({o: {"net": net_o[s][j], "out": out_o[s][j]} for j, o in enumerate(outs)})
            return f

        def sample_loss(s):
            return {"per_output": {o: per_output[s][j] + 0.0 for j, o in enumerate(outs)}, "total": per_sample[s] + 0.0}

        sig_o, sig_h = r["signal_o"][0].tolist(), r["signal_h"][0].tolist()
        backsum, deriv_h, w2 = r["backsum_h"][0].tolist(), r["deriv_h"][0].tolist(), r["w2"].tolist()
        contrib, tmo = r["contrib"].tolist(), r["t_minus_o"][0].tolist()
        out_signals = {}
        for j, o in enumerate(outs):
            if self._loss == "cross_entropy_softmax":
                factors = [{"name": "target_minus_probability", "value": tmo[j]}]
            else:
                factors = [{"name": "target_minus_output", "value": tmo[j]},
                           {"name": "activation_derivative", "value": float(r["deriv_o"][0][j])}]
            out_signals[o] = {"factors": factors, "product_order": "left_to_right", "signal_value": sig_o[j]}
        hidden_signals = {h: {
            "downstream_contributions": [
                {"from": o, "downstream_signal": sig_o[j], "via_weight": f"w_{h}_{o}", "weight_value": w2[k][j],
                 "value": contrib[k][j]} for j, o in enumerate(outs)],
            "summation_order": list(outs), "backpropagated_sum": backsum[k], "activation_derivative": deriv_h[k],
            "product_order": "left_to_right", "signal_value": sig_h[k]} for k, h in enumerate(hid)}

        params_before, params_after = self._named(before), self._named(after)
        gradient = self._named([-g for g in grads])  # jax.grad is the ascent direction; bp's is descent
        update = self._named([a - b for a, b in zip(after, before)])
        named_states = None
        if states is not None:
            named_states = [{key: self._named(vals) for key, vals in s.items()} for s in states]

        updates = []
        for spec in self._topology["parameters"]:
            pid, role = spec["id"], spec["role"]
            if batched:
                factors = [{"name": "batch_reduced_gradient", "value": gradient[pid]}]
            elif role == "input_to_hidden_weight":
                i, h = spec["from_unit"], spec["to_unit"]
                factors = [{"name": "hidden_error_signal", "from": f"backward.hidden_error_signals.{h}.signal_value",
                            "value": sig_h[hid.index(h)]},
                           {"name": "upstream_activation", "from": f"inputs.{i}", "value": xs[0][ins.index(i)]}]
            elif role == "hidden_to_output_weight":
                h, o = spec["from_unit"], spec["to_unit"]
                factors = [{"name": "output_error_signal", "from": f"backward.output_error_signals.{o}.signal_value",
                            "value": sig_o[outs.index(o)]},
                           {"name": "upstream_activation", "from": f"forward.{h}.out", "value": out_h[0][hid.index(h)]}]
            else:
                unit = spec["applies_to_units"][0]
                sig_name = "hidden_error_signal" if role == "hidden_bias" else "output_error_signal"
                section = "hidden_error_signals" if role == "hidden_bias" else "output_error_signals"
                value = sig_h[hid.index(unit)] if role == "hidden_bias" else sig_o[outs.index(unit)]
                factors = [{"name": sig_name, "from": f"backward.{section}.{unit}.signal_value", "value": value}]
            opt = {"name": name if name in ("sgd", "adam") else "sgd_momentum", "learning_rate": lr,
                   "factors": factors, "product_order": "left_to_right"}
            if named_states is not None:
                opt["state_before"] = {k: v[pid] + 0.0 for k, v in named_states[0].items()}
                opt["state_after"] = {k: v[pid] + 0.0 for k, v in named_states[1].items()}
            bias = role.endswith("bias")
            entry = {"parameter_id": pid, "kind": "bias" if bias else "weight", "weight_before": params_before[pid],
                     "optimizer": opt, "gradient": gradient[pid], "update": update[pid],
                     "weight_after": params_after[pid]}
            if bias:
                unit = spec["applies_to_units"][0]
                entry.update({"parameter_role": role, "from_unit": unit, "to_unit": unit, "layer_edge": "bias_to_layer"})
            else:
                entry.update({"parameter_role": f"{spec['from_unit']}_to_{spec['to_unit']}",
                              "from_unit": spec["from_unit"], "to_unit": spec["to_unit"],
                              "layer_edge": "input_to_hidden" if role == "input_to_hidden_weight" else "hidden_to_output"})
            updates.append(entry)

        version = jax.__version__
        record = {"format": FORMAT,
                  "source_framework": {"name": "jax", "version": version, "information_uri": "https://jax.readthedocs.io",
                                       "extractor": {"name": HELPER_NAME, "version": HELPER_VERSION}},
                  "helper": {"name": HELPER_NAME, "version": HELPER_VERSION, "distribution": "repo-script",
                             "source_hash": "sha256:" + self._source_sha,
                             "source_uri": f"file://{os.path.basename(__file__)}#jaxpr_sha256={digest}",
                             "framework": {"name": "jax", "version": version},
                             "runtime": {"python_version": platform.python_version()},
                             "extraction": {"timestamp": self._timestamp, "device": "cpu"}}}
        if self._trace_id is not None:
            record["trace_id"] = self._trace_id
            record["step_index"] = self._step_index
        record["topology"] = self._topology
        record["learning_rate"] = lr
        if opt_block is not None:
            record["optimizer"] = opt_block
        record["numeric_policy"] = {
            "number_encoding": "decimal", "precision_significant_digits": 9, "rounding": "round_half_to_even",
            "tolerance": {"atol": 1e-8, "rtol": 1e-6}, "computation_order": "schema_defined",
            "byte_output": {"format": "jsonl", "json_key_order": "schema_defined",
                            "trailing_zero_policy": "pad_to_significant_digits", "indent": "none"}}
        record["bias_policy"] = {"mode": "sgd", "reason": "the optimizer updates the biases like the weights",
                                 "updated_in_step": True}
        sample_ids = [f"s{s}" for s in range(n)]
        if batched:
            record["batch"] = {"size": n, "sample_order": sample_ids, "reduction": "mean"}
        record["inputs"] = {i: xs[0][a] for a, i in enumerate(ins)}
        record["targets"] = {o: ts[0][j] for j, o in enumerate(outs)}
        record["parameters_before"] = params_before
        if batched:
            record["per_sample"] = {sid: {"inputs": {i: xs[s][a] for a, i in enumerate(ins)},
                                          "targets": {o: ts[s][j] for j, o in enumerate(outs)},
                                          "forward": forward(s), "loss": sample_loss(s)}
                                    for s, sid in enumerate(sample_ids)}
        record["forward"] = forward(0)
        if batched:
            reduced = (r["per_output"].sum(axis=0) / n).tolist()
            record["loss"] = {"per_output": {o: reduced[j] + 0.0 for j, o in enumerate(outs)},
                              "per_sample": {sid: per_sample[s] + 0.0 for s, sid in enumerate(sample_ids)},
                              "reduction": "mean", "total": float(r["per_sample"].sum() / n) + 0.0}
        else:
            record["loss"] = sample_loss(0)
        record["backward"] = {"output_error_signals": out_signals, "hidden_error_signals": hidden_signals}
        record["updates"] = updates
        record["parameters_after"] = params_after
        return record


def _finite(value):
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True
