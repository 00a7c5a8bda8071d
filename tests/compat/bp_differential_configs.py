#!/usr/bin/env python3
"""Writes N random topology+input documents that schema topology-input v0.4.0 accepts.

Deterministic for a given --seed. The documents vary everything the schema allows: layer sizes
(mostly small, a few large enough that a receipt passes 64 KiB), unit and parameter ids,
parameter order, activations, per-layer or per-neuron biases, bias mode, learning rate,
numeric_policy spellings (scalar or object tolerance, optional computation_order/byte_output),
trace ids, optional fixture/metadata (with non-ASCII, control characters and extra keys) and
number spellings (integers, exponents, long fractions, negative zero).

usage: bp_differential_configs.py --count N --seed S --out DIR
"""
import argparse
import json
import os
import random
import string

ACTIVATIONS = ["sigmoid", "identity", "relu"]
ROLES_NOTE = "weights are dense: every input feeds every hidden unit, every hidden unit every output"
TEXTS = ["plain", "caf\u00e9 \u2013 na\u00efve", "line\nbreak\ttab", "quote \" and \\ slash /",
         "\u2028sep\u2029", "emoji \U0001F600", "ctl \u0001\u001f\u007f", ""]


def ident(rng, used, prefix_pool=string.ascii_letters):
    while True:
        head = rng.choice(prefix_pool)
        tail = "".join(rng.choice(string.ascii_letters + string.digits + "_") for _ in range(rng.randint(0, 6)))
        name = head + tail
        if name not in used:
            used.add(name)
            return name


def number(rng, lo, hi):
    kind = rng.random()
    if kind < 0.1:
        return rng.randint(int(lo), int(hi)) if int(hi) > int(lo) else 0
    if kind < 0.15:
        return 0.0
    if kind < 0.2:
        return round(rng.uniform(lo, hi), rng.randint(1, 4))
    return rng.uniform(lo, hi)


def tolerance(rng):
    if rng.random() < 0.3:
        return rng.choice([0, 1e-9, 1e-12, 5e-6, 1e-5])
    return {"atol": rng.choice([0, 1e-12, 1e-10, 1e-8, 1e-5]), "rtol": rng.choice([0, 1e-8, 1e-6, 1e-4, 1e-3])}


def numeric_policy(rng):
    p = {"number_encoding": "decimal", "precision_significant_digits": rng.choice([9, 9, 9, 1, 6, 12, 17]),
         "rounding": "round_half_to_even", "tolerance": tolerance(rng)}
    # The reference needs both of these to emit; leave one out now and then (both sides must refuse).
    if rng.random() < 0.97:
        p["computation_order"] = "schema_defined"
    if rng.random() < 0.97:
        bo = {"format": "jsonl", "json_key_order": "schema_defined",
              "trailing_zero_policy": "pad_to_significant_digits", "indent": "none"}
        if rng.random() < 0.1:
            bo = {k: v for k, v in bo.items() if rng.random() < 0.5}
        p["byte_output"] = bo
    if rng.random() < 0.3:
        p = dict(rng.sample(list(p.items()), len(p)))  # key order must not matter
    return p


def layer_size(rng):
    r = rng.random()
    if r < 0.8:
        return rng.randint(1, 5)
    if r < 0.97:
        return rng.randint(6, 10)
    return rng.randint(11, 16)


def make_config(rng, index):
    used = set()
    sizes = [layer_size(rng) for _ in range(3)]
    units = [[ident(rng, used) for _ in range(n)] for n in sizes]
    inputs, hidden, outputs = units
    per_neuron = rng.random() < 0.5
    params = []
    for i in inputs:
        for h in hidden:
            params.append({"id": ident(rng, used), "role": "input_to_hidden_weight", "from_unit": i, "to_unit": h})
    for h in hidden:
        for o in outputs:
            params.append({"id": ident(rng, used), "role": "hidden_to_output_weight", "from_unit": h, "to_unit": o})
    if per_neuron:
        for h in hidden:
            params.append({"id": ident(rng, used), "role": "hidden_bias", "applies_to_units": [h]})
        for o in outputs:
            params.append({"id": ident(rng, used), "role": "output_bias", "applies_to_units": [o]})
    else:
        params.append({"id": ident(rng, used), "role": "hidden_bias", "applies_to_units": rng.sample(hidden, len(hidden))})
        params.append({"id": ident(rng, used), "role": "output_bias", "applies_to_units": rng.sample(outputs, len(outputs))})
    if rng.random() < 0.6:
        rng.shuffle(params)
    for p in params:
        if rng.random() < 0.2:  # key order inside a parameter must not matter
            items = list(p.items())
            rng.shuffle(items)
            p.clear()
            p.update(items)
    topology = {
        "layers": rng.choice([["input", "hidden", "output"], ["in", "h"], [], ["x"] * 5]),
        "input_size": sizes[0], "hidden_size": sizes[1], "output_size": sizes[2],
        "unit_order": {"input": inputs, "hidden": hidden, "output": outputs},
        "parameter_order": [p["id"] for p in params],
        "parameters": params,
        "activation_hidden": rng.choice(ACTIVATIONS),
        "activation_output": rng.choice(ACTIVATIONS),
        "loss": "half_squared_error",
        "bias_sharing": "per_neuron" if per_neuron else "per_layer",
    }
    bias_sgd = per_neuron and rng.random() < 0.5
    bias_policy = {"mode": "sgd" if bias_sgd else "constant", "updated_in_step": bias_sgd}
    if rng.random() < 0.5:
        bias_policy["reason"] = rng.choice(TEXTS)
    if rng.random() < 0.4:
        bias_policy["reconciliation"] = rng.choice(TEXTS)
    doc = {}
    if rng.random() < 0.1:
        doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    if rng.random() < 0.6:
        doc["fixture"] = rng.choice(["diff-%03d" % index, rng.choice(TEXTS)])
    if rng.random() < 0.6:
        md = {}
        if rng.random() < 0.97:
            md["source"] = rng.choice(TEXTS + ["generated by bp_differential_configs.py"])
        if rng.random() < 0.5:
            md["url_reference"] = "https://example.org/%d" % index
        if rng.random() < 0.97:
            md["gradient_convention"] = "descent_direction"
        if rng.random() < 0.3:
            md["extra_" + str(index)] = {"nested": [1, 2, 3]}
        doc["metadata"] = md
    doc["numeric_policy"] = numeric_policy(rng)
    doc["bias_policy"] = bias_policy
    doc["topology"] = topology
    doc["learning_rate"] = rng.choice([0.5, 0.1, 1, 2, 0.01, rng.uniform(0.001, 3.0)])
    if rng.random() < 0.2:
        doc["trace_id"] = "".join(rng.choice("0123456789abcdef") for _ in range(32))
        doc["step_index"] = rng.randint(0, 1000)
    doc["inputs"] = {u: number(rng, -3, 3) for u in rng.sample(inputs, len(inputs))}
    doc["targets"] = {u: number(rng, -1, 2) for u in rng.sample(outputs, len(outputs))}
    doc["parameters_before"] = {p["id"]: number(rng, -1.5, 1.5) for p in rng.sample(params, len(params))}
    if rng.random() < 0.3:
        doc = dict(rng.sample(list(doc.items()), len(doc)))
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        doc = make_config(rng, i)
        indent = rng.choice([None, None, 2, 1])
        text = json.dumps(doc, indent=indent, ensure_ascii=rng.random() < 0.5)
        with open(os.path.join(args.out, "case_%04d.json" % i), "w", encoding="utf-8", newline="") as f:
            f.write(text + ("\n" if rng.random() < 0.7 else ""))


if __name__ == "__main__":
    main()
