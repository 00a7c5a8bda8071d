#!/usr/bin/python3
"""Cross-checks the tape's forward outputs and VJPs against PyTorch autograd.

Usage: crosscheck.py --dump EXE --work DIR
  Runs EXE (tests/tape/torch/dump_op_cases.cpp) to write DIR/tape_op_cases.json: for every tape op,
  the fp32 inputs, our forward output, the upstream gradient d_out and our VJPs. This script
  recomputes each case with torch autograd in float64 from the same fp32 inputs and compares.
Usage: crosscheck.py CASES.json        compares an existing file.

Exit: 0 all cases agree; 1 a mismatch, a missing op, or torch missing under CI=true; 77 torch is
not installed outside CI (ctest reports Skipped); 2 usage or unreadable input.
"""
import json
import math
import os
import subprocess
import sys

# Every op the tape records; a dump that lacks one of them fails the check.
EXPECTED_OPS = [
    "matmul", "matmul_transpose_b", "transpose", "outer_product", "frobenius_dot",
    "add", "sub", "mul", "scale", "negate",
    "sigmoid", "softplus", "silu",
    "softmax", "cross_entropy", "embed_lookup", "l2_norm",
    "l2_retention", "concat", "slice",
    "normalized_silu", "sphere_project_normalize", "kl_retention", "straight_through_bool",
]

RTOL = 1e-5   # fp32 results against a float64 reference (~100 ulp)
ATOL = 1e-6   # scaled by max(1, max |reference|) of the tensor compared


def import_torch():
    try:
        import torch  # noqa: F401
        return torch
    except ImportError as e:
        if os.environ.get("CI") == "true":
            print(f"crosscheck: CI=true but torch cannot be imported ({e})", file=sys.stderr)
            sys.exit(1)
        print(f"SKIP: torch is not installed for {sys.executable} ({e}); tape/torch cross-check skipped")
        sys.exit(77)


def make_ops(torch):
    eps = 1e-8

    def sigmoid(x):
        s = torch.sigmoid(x)
        return torch.where(x >= 15, torch.ones_like(x), torch.where(x <= -15, torch.zeros_like(x), s))

    def softplus(x):
        sp = torch.log1p(torch.exp(torch.clamp(x, -15, 15)))
        return torch.where(x >= 15, x, torch.where(x <= -15, torch.zeros_like(x), sp))

    def silu(x):
        return x * sigmoid(x)

    def row_norm(x):
        return torch.sqrt((x * x).sum(dim=-1, keepdim=True))

    def normalized_silu(x, a):
        c = silu(x.reshape(a["rows"], a["cols"]))
        n = row_norm(c)
        big = n > eps
        out = math.sqrt(a["cols"]) * c / torch.where(big, n, torch.ones_like(n))
        return torch.where(big, out, torch.zeros_like(out))

    def sphere(x, a):
        s = x.reshape(a["m_slots"], a["d"])
        n = row_norm(s)
        big = n > eps
        return torch.where(big, s / torch.where(big, n, torch.ones_like(n)), s)

    def kl_retention(prior, grad, a):
        z = a["alpha"] * torch.log(torch.clamp(prior, min=eps)) - a["theta"] * grad
        return torch.softmax(z.reshape(a["rows"], a["cols"]), dim=-1)

    def straight_through(x, a):
        hard = (x > a["threshold"]).to(x.dtype)
        return x + (hard - x).detach()

    def cross_entropy(logits, a):
        v = logits.shape[1]
        logp = torch.log_softmax(logits, dim=-1)
        valid = [(t, y) for t, y in enumerate(a["targets"]) if 0 <= y < v]
        if not valid:
            return (logits * 0).sum()
        return -sum(logp[t, y] for t, y in valid) / len(valid)

    def l2_norm(x):
        # The tape clamps the denominator at 1e-8; torch's norm backward is 0 at x = 0 instead.
        return torch.sqrt((x * x).sum())

    return {
        "matmul": lambda i, a: i[0] @ i[1],
        "matmul_transpose_b": lambda i, a: i[0] @ i[1].T,
        "transpose": lambda i, a: i[0].T,
        "outer_product": lambda i, a: torch.outer(i[0], i[1]),
        "frobenius_dot": lambda i, a: (i[0] * i[1]).sum(),
        "add": lambda i, a: i[0] + i[1],
        "sub": lambda i, a: i[0] - i[1],
        "mul": lambda i, a: i[0] * i[1],
        "scale": lambda i, a: a["scalar"] * i[0],
        "negate": lambda i, a: -i[0],
        "sigmoid": lambda i, a: sigmoid(i[0]),
        "softplus": lambda i, a: softplus(i[0]),
        "silu": lambda i, a: silu(i[0]),
        "softmax": lambda i, a: torch.softmax(i[0].reshape(a["rows"], a["cols"]), dim=-1),
        "cross_entropy": lambda i, a: cross_entropy(i[0], a),
        "embed_lookup": lambda i, a: i[0][torch.tensor(a["indices"], dtype=torch.long)],
        "l2_norm": lambda i, a: l2_norm(i[0]),
        "l2_retention": lambda i, a: a["lambda"] * i[0],
        "concat": lambda i, a: torch.cat(i, dim=a["axis"]),
        "slice": lambda i, a: i[0].reshape(-1)[a["offset"]:a["offset"] + a["len"]],
        "normalized_silu": lambda i, a: normalized_silu(i[0], a),
        "sphere_project_normalize": lambda i, a: sphere(i[0], a),
        "kl_retention": lambda i, a: kl_retention(i[0], i[1], a),
        "straight_through_bool": lambda i, a: straight_through(i[0], a),
    }


def compare(what, ours, ref, failures):
    if len(ours) != len(ref):
        failures.append(f"{what}: {len(ours)} values, torch has {len(ref)}")
        return 0.0
    scale = max([1.0] + [abs(r) for r in ref])
    worst = 0.0
    for j, (o, r) in enumerate(zip(ours, ref)):
        err = abs(o - r)
        tol = ATOL * scale + RTOL * abs(r)
        if not math.isfinite(o) or err > tol:
            failures.append(f"{what}[{j}]: ours {o!r}, torch {r!r} (|diff| {err:.3g} > tol {tol:.3g})")
            return err
        worst = max(worst, err / (ATOL * scale + RTOL * abs(r)))
    return worst


def check(cases_doc, torch):
    ops = make_ops(torch)
    failures = []
    seen = set()
    worst = 0.0
    for case in cases_doc["cases"]:
        op, name = case["op"], case["name"]
        if op not in ops:
            failures.append(f"{name}: unknown op {op!r}")
            continue
        seen.add(op)
        attrs = case.get("attrs", {})
        inputs = []
        for inp in case["inputs"]:
            t = torch.tensor(inp["data"], dtype=torch.float32).to(torch.float64).reshape(inp["shape"])
            t.requires_grad_(bool(inp.get("grad", True)))
            inputs.append(t)
        out = ops[op](inputs, attrs)
        out_flat = out.reshape(-1)
        worst = max(worst, compare(f"{name} out", case["out"], out_flat.tolist(), failures))
        d_out = torch.tensor(case["d_out"], dtype=torch.float32).to(torch.float64)
        if d_out.numel() != out_flat.numel():
            failures.append(f"{name}: d_out has {d_out.numel()} values, output has {out_flat.numel()}")
            continue
        grads = torch.autograd.grad(out_flat, [t for t in inputs if t.requires_grad], d_out, allow_unused=True)
        gi = iter(grads)
        for k, (inp, t) in enumerate(zip(case["inputs"], inputs)):
            if not t.requires_grad:
                continue
            g = next(gi)
            ref = [0.0] * t.numel() if g is None else g.reshape(-1).tolist()
            ours = case["d_inputs"][k]
            if ours is None:
                failures.append(f"{name} d_{inp.get('name', k)}: no VJP written")
                continue
            worst = max(worst, compare(f"{name} d_{inp.get('name', k)}", ours, ref, failures))
    missing = [op for op in EXPECTED_OPS if op not in seen]
    if missing:
        failures.append("ops with no case in the dump: " + ", ".join(missing))
    return failures, len(cases_doc["cases"]), worst


def main(argv):
    args = argv[1:]
    if len(args) == 4 and args[0] == "--dump" and args[2] == "--work":
        torch = import_torch()
        os.makedirs(args[3], exist_ok=True)
        path = os.path.join(args[3], "tape_op_cases.json")
        if os.path.exists(path):
            os.remove(path)
        run = subprocess.run([args[1], path])
        if run.returncode != 0:
            print(f"crosscheck: {args[1]} exited with {run.returncode}", file=sys.stderr)
            return 1
    elif len(args) == 1:
        torch = import_torch()
        path = args[0]
    else:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"crosscheck: {path}: {e}", file=sys.stderr)
        return 2
    failures, n, worst = check(doc, torch)
    if failures:
        for line in failures:
            print(f"FAIL {line}", file=sys.stderr)
        return 1
    print(f"crosscheck: {n} cases, {len(EXPECTED_OPS)} ops agree with torch {torch.__version__} "
          f"(worst |diff|/tol = {worst:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
