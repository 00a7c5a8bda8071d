"""The TensorFlow recipe of bp(1) TENSORFLOW, worked out: a Keras 3 training step written as a
framework-trace sidecar for `bp import tensorflow`.

bp ships no TensorFlow helper (as the reference's contract has it, hand-made sidecars are the
TensorFlow path). The recipe, for keras.Sequential([Dense(h, activation), Dense(o[, activation])])
in float64 (keras.backend.set_floatx("float64")) trained with tf.GradientTape and a Keras 3
optimizer:

  1. Before apply_gradients: copy every trainable variable (.numpy().copy()) and every optimizer
     slot (SGD momentums, Adam _momentums / _velocities, looked up with
     optimizer._get_variable_index(var)).
  2. Keep the gradients tape.gradient returned; negate them once (bp's gradients point downhill).
  3. After apply_gradients: copy the variables and slots again.
  4. Convert the optimizer state into bp's descent convention: Keras's SGD momentum slot is
     momentum * m - lr * g, i.e. lr times bp's buffer, so buffer = slot / lr (no sign change);
     Adam's first moment accumulates +g, so m = -slot; the second moment is unchanged; t is
     optimizer.iterations after the step.
  5. Replay the layers on the step-1 copies with TensorFlow ops and a GradientTape to get the
     forward values, losses and error signals (-dL/dnet), and write everything as in this file.

Keras details that matter: Keras's Adam adds epsilon to sqrt(v) before bias correction, PyTorch
and bp after it; with Keras's default epsilon (1e-7) that is a real difference bp may flag, so
this recipe uses epsilon=1e-12. Keras's Adam bias correction raises beta_1 and beta_2 as float32
values (0.999 becomes 0.99900001287...), so the sidecar declares float(np.float32(beta)); declaring
0.999 gives a relative update difference near 1e-5 that bp verify flags. Keras's weight_decay is decoupled for every optimizer: with SGD
it is not bp's coupled L2 (refused here); with AdamW it is bp's adamw.
"""
import numpy as np
import tensorflow as tf

FORMAT = "framework-trace.v0.7.0"
_ACTS = {"sigmoid": "sigmoid", "relu": "relu", "linear": "identity"}


class RecipeRefusal(ValueError):
    pass


def _act(name, net):
    if name == "sigmoid":
        return tf.sigmoid(net)
    if name == "relu":
        return tf.nn.relu(net)
    return net


class KerasStepRecorder:
    """Records Keras steps as sidecar records (dicts); `loss` is half_squared_error or cross_entropy_softmax."""

    def __init__(self, model, optimizer, loss, trace_id=None):
        import keras
        layers = model.layers
        if len(layers) != 2 or not all(isinstance(layer, keras.layers.Dense) for layer in layers):
            raise RecipeRefusal("model: keras.Sequential of exactly two Dense layers")
        act_h = _ACTS.get(layers[0].activation.__name__)
        act_o = _ACTS.get(layers[1].activation.__name__)
        if act_h is None or act_o is None:
            raise RecipeRefusal("activations: sigmoid, relu or linear")
        if loss == "cross_entropy_softmax":
            if act_o != "identity":
                raise RecipeRefusal("cross_entropy_softmax takes logits: linear output layer")
            act_o = "softmax"
        self._act_h, self._act_o, self._loss = act_h, act_o, loss
        self._vars = [layers[0].kernel, layers[0].bias, layers[1].kernel, layers[1].bias]
        self._opt = optimizer
        kind = type(optimizer).__name__
        if kind == "SGD":
            if optimizer.weight_decay:
                raise RecipeRefusal("Keras SGD weight_decay is decoupled, not bp's coupled L2")
            self._name = "sgd_momentum" if optimizer.momentum else "sgd"
        elif kind in ("Adam", "AdamW"):
            if optimizer.amsgrad:
                raise RecipeRefusal("amsgrad is not supported")
            self._name = kind.lower()
        else:
            raise RecipeRefusal(f"optimizer {kind}: SGD, Adam or AdamW")
        self._trace_id = trace_id
        self._model = model
        if loss == "cross_entropy_softmax":
            self._loss_fn = keras.losses.CategoricalCrossentropy(from_logits=True)
        else:
            self._loss_fn = lambda y, out: tf.reduce_mean(0.5 * tf.reduce_sum((out - y) ** 2, axis=-1))
        self.records = []
        n_in, n_h = self._vars[0].shape
        n_out = self._vars[2].shape[1]
        self._ins = [f"i{k + 1}" for k in range(n_in)]
        self._hid = [f"h{k + 1}" for k in range(n_h)]
        self._outs = [f"o{k + 1}" for k in range(n_out)]

    def _slots(self):
        opt = self._opt
        if self._name == "sgd":
            return None
        idx = [opt._get_variable_index(v) for v in self._vars]
        lr = float(opt.learning_rate.numpy())
        if self._name == "sgd_momentum":
            return {"buffer": [opt.momentums[i].numpy() / lr for i in idx]}
        return {"m": [-opt._momentums[i].numpy() for i in idx], "v": [opt._velocities[i].numpy().copy() for i in idx]}

    def step(self, x, y):
        """One training step (GradientTape + apply_gradients), recorded. Returns the loss."""
        x = tf.convert_to_tensor(x, dtype=tf.float64)
        y = tf.convert_to_tensor(y, dtype=tf.float64)
        before = [v.numpy().copy() for v in self._vars]
        slots_before = self._slots() if self._opt.built else None
        with tf.GradientTape() as tape:
            loss = self._loss_fn(y, self._model(x, training=True))  # the model's own forward pass
        grads = tape.gradient(loss, self._vars)
        self._opt.apply_gradients(zip(grads, self._vars))
        after = [v.numpy().copy() for v in self._vars]
        slots_after = self._slots()
        if slots_before is None and slots_after is not None:
            slots_before = {k: [np.zeros_like(a) for a in vals] for k, vals in slots_after.items()}
        self.records.append(self._render(before, after, [-g.numpy() for g in grads], x.numpy(), y.numpy(),
                                         slots_before, slots_after))
        return float(loss)

    def _replay(self, before, x, t):
        w1, b1, w2, b2 = (tf.constant(a) for a in before)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([w1, b1, w2, b2])
            net_h = x @ w1 + b1
            out_h = _act(self._act_h, net_h)
            net_o = out_h @ w2 + b2
            if self._loss == "cross_entropy_softmax":
                out_o = tf.nn.softmax(net_o, axis=-1)
                per_output = -(t * tf.nn.log_softmax(net_o, axis=-1))
            else:
                out_o = _act(self._act_o, net_o)
                per_output = 0.5 * (t - out_o) ** 2
            total = tf.reduce_sum(per_output)  # summed per-sample losses: each sample keeps its derivative
            sum_out_h, sum_out_o = tf.reduce_sum(out_h), tf.reduce_sum(out_o)
        r = {"net_h": net_h, "out_h": out_h, "net_o": net_o, "out_o": out_o, "per_output": per_output,
             "signal_o": -tape.gradient(total, net_o), "backsum_h": -tape.gradient(total, out_h),
             "signal_h": -tape.gradient(total, net_h), "deriv_h": tape.gradient(sum_out_h, net_h),
             "deriv_o": tape.gradient(sum_out_o, net_o), "t_minus_o": t - out_o, "w2": w2}
        return {k: v.numpy() for k, v in r.items()}

    def _named(self, layers):
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

    def _topology(self):
        ins, hid, outs = self._ins, self._hid, self._outs
        params = [{"id": f"w_{i}_{h}", "role": "input_to_hidden_weight", "from_unit": i, "to_unit": h}
                  for i in ins for h in hid]
        params += [{"id": f"b_{h}", "role": "hidden_bias", "applies_to_units": [h]} for h in hid]
        params += [{"id": f"w_{h}_{o}", "role": "hidden_to_output_weight", "from_unit": h, "to_unit": o}
                   for h in hid for o in outs]
        params += [{"id": f"b_{o}", "role": "output_bias", "applies_to_units": [o]} for o in outs]
        return {"layers": ["input", "hidden", "output"], "input_size": len(ins), "hidden_size": len(hid),
                "output_size": len(outs), "unit_order": {"input": ins, "hidden": hid, "output": outs},
                "parameter_order": [p["id"] for p in params], "parameters": params,
                "activation_hidden": self._act_h, "activation_output": self._act_o, "loss": self._loss,
                "bias_sharing": "per_neuron"}

    def _render(self, before, after, grads, x, t, slots_before, slots_after):
        ins, hid, outs = self._ins, self._hid, self._outs
        n = x.shape[0]
        if n > 1 and self._name != "sgd":
            raise RecipeRefusal("batched steps: plain SGD only")
        r = self._replay(before, x, t)
        lr = float(self._opt.learning_rate.numpy())
        topology = self._topology()
        fwd = {k: r[k].tolist() for k in ("net_h", "out_h", "net_o", "out_o")}
        per_output = r["per_output"].tolist()

        def forward(s):
            f = {h: {"net": fwd["net_h"][s][k], "out": fwd["out_h"][s][k]} for k, h in enumerate(hid)}
            f.update({o: {"net": fwd["net_o"][s][j], "out": fwd["out_o"][s][j]} for j, o in enumerate(outs)})
            return f

        def sample_loss(s):
            return {"per_output": {o: per_output[s][j] + 0.0 for j, o in enumerate(outs)},
                    "total": float(sum(per_output[s])) + 0.0}

        sig_o, sig_h = r["signal_o"][0].tolist(), r["signal_h"][0].tolist()
        w2 = r["w2"].tolist()
        out_signals = {}
        for j, o in enumerate(outs):
            if self._loss == "cross_entropy_softmax":
                factors = [{"name": "target_minus_probability", "value": float(r["t_minus_o"][0][j])}]
            else:
                factors = [{"name": "target_minus_output", "value": float(r["t_minus_o"][0][j])},
                           {"name": "activation_derivative", "value": float(r["deriv_o"][0][j])}]
            out_signals[o] = {"factors": factors, "product_order": "left_to_right", "signal_value": sig_o[j]}
        hidden_signals = {h: {
            "downstream_contributions": [{"from": o, "downstream_signal": sig_o[j], "via_weight": f"w_{h}_{o}",
                                          "weight_value": w2[k][j], "value": float(r["signal_o"][0][j] * r["w2"][k][j])}
                                         for j, o in enumerate(outs)],
            "summation_order": list(outs), "backpropagated_sum": float(r["backsum_h"][0][k]),
            "activation_derivative": float(r["deriv_h"][0][k]), "product_order": "left_to_right",
            "signal_value": sig_h[k]} for k, h in enumerate(hid)}

        pb, pa, grad = self._named(before), self._named(after), self._named(grads)
        if self._name == "adamw":
            keep = 1.0 - lr * float(self._opt.weight_decay)
            update = self._named([a - b * keep for a, b in zip(after, before)])
        else:
            update = self._named([a - b for a, b in zip(after, before)])
        sb = {k: self._named(v) for k, v in slots_before.items()} if slots_before else None
        sa = {k: self._named(v) for k, v in slots_after.items()} if slots_after else None
        updates = []
        for spec in topology["parameters"]:
            pid, role = spec["id"], spec["role"]
            if n > 1:
                factors = [{"name": "batch_reduced_gradient", "value": grad[pid]}]
            elif role == "input_to_hidden_weight":
                i, h = spec["from_unit"], spec["to_unit"]
                factors = [{"name": "hidden_error_signal", "from": f"backward.hidden_error_signals.{h}.signal_value",
                            "value": sig_h[hid.index(h)]},
                           {"name": "upstream_activation", "from": f"inputs.{i}", "value": float(x[0][ins.index(i)])}]
            elif role == "hidden_to_output_weight":
                h, o = spec["from_unit"], spec["to_unit"]
                factors = [{"name": "output_error_signal", "from": f"backward.output_error_signals.{o}.signal_value",
                            "value": sig_o[outs.index(o)]},
                           {"name": "upstream_activation", "from": f"forward.{h}.out",
                            "value": fwd["out_h"][0][hid.index(h)]}]
            else:
                unit = spec["applies_to_units"][0]
                hidden = role == "hidden_bias"
                factors = [{"name": "hidden_error_signal" if hidden else "output_error_signal",
                            "from": f"backward.{'hidden' if hidden else 'output'}_error_signals.{unit}.signal_value",
                            "value": sig_h[hid.index(unit)] if hidden else sig_o[outs.index(unit)]}]
            opt = {"name": self._name, "learning_rate": lr, "factors": factors, "product_order": "left_to_right"}
            if sb is not None:
                opt["state_before"] = {k: v[pid] + 0.0 for k, v in sb.items()}
                opt["state_after"] = {k: v[pid] + 0.0 for k, v in sa.items()}
            if role.endswith("bias"):
                unit = spec["applies_to_units"][0]
                edge, name_role, src, dst = "bias_to_layer", role, unit, unit
            else:
                edge = "input_to_hidden" if role == "input_to_hidden_weight" else "hidden_to_output"
                src, dst = spec["from_unit"], spec["to_unit"]
                name_role = f"{src}_to_{dst}"
            updates.append({"parameter_id": pid, "kind": "bias" if role.endswith("bias") else "weight",
                            "layer_edge": edge, "parameter_role": name_role, "from_unit": src, "to_unit": dst,
                            "weight_before": pb[pid], "optimizer": opt, "gradient": grad[pid],
                            "update": update[pid], "weight_after": pa[pid]})
        record = {"format": FORMAT,
                  "source_framework": {"name": "tensorflow", "version": tf.__version__,
                                       "extractor": {"name": "hand_authored", "version": "1.0.0"}}}
        if self._trace_id:
            record["trace_id"] = self._trace_id
            record["step_index"] = len(self.records)
        record["topology"] = topology
        record["learning_rate"] = lr
        if self._name == "sgd_momentum":
            record["optimizer"] = {"name": "sgd_momentum", "learning_rate": lr, "momentum": float(self._opt.momentum)}
            if self._opt.nesterov:
                record["optimizer"]["nesterov"] = True
        elif self._name in ("adam", "adamw"):
            record["optimizer"] = {"name": self._name, "learning_rate": lr, "beta1": float(np.float32(self._opt.beta_1)),
                                   "beta2": float(np.float32(self._opt.beta_2)), "epsilon": float(self._opt.epsilon)}
            if self._name == "adamw":
                record["optimizer"]["weight_decay"] = float(self._opt.weight_decay)
            record["optimizer"]["t"] = int(self._opt.iterations.numpy())
        record["numeric_policy"] = {
            "number_encoding": "decimal", "precision_significant_digits": 9, "rounding": "round_half_to_even",
            "tolerance": {"atol": 1e-8, "rtol": 1e-6}, "computation_order": "schema_defined",
            "byte_output": {"format": "jsonl", "json_key_order": "schema_defined",
                            "trailing_zero_policy": "pad_to_significant_digits", "indent": "none"}}
        record["bias_policy"] = {"mode": "sgd", "updated_in_step": True}
        ids = [f"s{s}" for s in range(n)]
        if n > 1:
            record["batch"] = {"size": n, "sample_order": ids, "reduction": "mean"}
        record["inputs"] = {i: float(x[0][a]) for a, i in enumerate(ins)}
        record["targets"] = {o: float(t[0][j]) for j, o in enumerate(outs)}
        record["parameters_before"] = pb
        if n > 1:
            record["per_sample"] = {sid: {"inputs": {i: float(x[s][a]) for a, i in enumerate(ins)},
                                          "targets": {o: float(t[s][j]) for j, o in enumerate(outs)},
                                          "forward": forward(s), "loss": sample_loss(s)} for s, sid in enumerate(ids)}
            reduced = (r["per_output"].sum(axis=0) / n).tolist()
            record["forward"] = forward(0)
            record["loss"] = {"per_output": {o: reduced[j] + 0.0 for j, o in enumerate(outs)},
                              "per_sample": {sid: sample_loss(s)["total"] for s, sid in enumerate(ids)},
                              "reduction": "mean", "total": float(r["per_output"].sum() / n) + 0.0}
        else:
            record["forward"] = forward(0)
            record["loss"] = sample_loss(0)
        record["backward"] = {"output_error_signals": out_signals, "hidden_error_signals": hidden_signals}
        record["updates"] = updates
        record["parameters_after"] = pa
        return record
