#!/usr/bin/python3
"""Cross-checks the MAG model (DeltaRule and TitansLMM levels) against an independent PyTorch
version written from specs/nltrain-math.md (§0, §3, §4, §6.0-6.2, §7).

Usage: mag_crosscheck.py --dump EXE --work DIR
  Runs EXE (tests/nl/torch/dump_mag_cases.cpp) to write DIR/mag_cases.json: parameters, tokens,
  context memory, pulse, and our fp32 loss and gradients (tape path; a frozen level's gradient is
  its error-buffer contribution). Recomputes each case with torch autograd in float64.

Exit: 0 all agree; 1 a mismatch, or torch missing under CI=true; 77 torch not installed outside
CI (ctest: Skipped); 2 usage or unreadable input.
"""
import json
import math
import os
import subprocess
import sys

RTOL = 1e-4  # our fp32 path against a float64 reference
ATOL = 1e-6  # scaled by max(1, max |reference|) of the tensor compared
# Our fp64 path (`nltrain grads --fp64`) computes in double and writes fp32: each value must be
# the fp32 rounding of a double within RTOL64 of the reference (half an fp32 ulp plus this).
RTOL64 = 1e-10
ATOL64 = 1e-13  # scaled like ATOL


def import_torch():
    try:
        import torch
        return torch
    except ImportError as e:
        if os.environ.get("CI") == "true":
            print(f"mag_crosscheck: CI=true but torch cannot be imported ({e})", file=sys.stderr)
            sys.exit(1)
        print(f"SKIP: torch is not installed for {sys.executable} ({e}); MAG cross-check skipped")
        sys.exit(77)


def clamped_gates(torch):
    """The spec's sigmoid and softplus, saturated beyond |x| >= 15 (also tests/bench/mag_torch_batch.py's)."""
    def sigmoid(x):
        s = torch.sigmoid(x)
        return torch.where(x >= 15, torch.ones_like(x), torch.where(x <= -15, torch.zeros_like(x), s))

    def softplus(x):
        sp = torch.log1p(torch.exp(torch.clamp(x, -15, 15)))
        return torch.where(x >= 15, x, torch.where(x <= -15, torch.zeros_like(x), sp))

    return sigmoid, softplus


def build(torch, dtype=None):
    """Returns (run, loss_fn): run(case) evaluates a dumped case in float64 with autograd;
    loss_fn(case, params) is the model itself (mag_timing.py times it)."""
    f64 = dtype or torch.float64
    sigmoid, softplus = clamped_gates(torch)

    def nrm_rows(u):
        n = torch.sqrt((u * u).sum(dim=1, keepdim=True))
        return u / torch.clamp(n, min=1e-8)

    def swa(q, k, v, heads, window):
        # Banded causal softmax per head: key j is visible to query i when i - window < j <= i.
        s, d = q.shape
        hd = d // heads
        qh, kh, vh = (t.reshape(s, heads, hd).transpose(0, 1) for t in (q, k, v))
        scores = (qh @ kh.transpose(1, 2)) / math.sqrt(hd)
        i = torch.arange(s).unsqueeze(1)
        j = torch.arange(s).unsqueeze(0)
        visible = (j <= i) & (j > i - window)
        p = torch.softmax(scores.masked_fill(~visible, float("-inf")), dim=-1)
        return (p @ vh).transpose(0, 1).reshape(s, d)

    def level(rule, x, lp, m0, active):
        q = nrm_rows(x @ lp["W_Q"].T)
        if not active:  # frozen read (§7, O-1): y_t = M q_t
            return q @ m0.T
        k = nrm_rows(x @ lp["W_K"].T)
        v = x @ lp["W_V"].T
        c = torch.cat([k, v], dim=1)
        alpha = sigmoid(c @ lp["w_alpha"] + lp["b_alpha"])
        theta = softplus(c @ lp["w_theta"] + lp["b_theta"])
        eta = sigmoid(c @ lp["w_eta"] + lp["b_eta"])
        m, s_mom = m0, torch.zeros_like(m0)
        ys = []
        for t in range(x.shape[0]):
            e = m @ k[t] - v[t]
            g = torch.outer(e, k[t])
            if rule == "DeltaRule":
                m = (1 - alpha[t]) * m - theta[t] * g
            else:  # TitansLMM
                s_mom = eta[t] * s_mom - theta[t] * g
                m = (1 - alpha[t]) * m + s_mom
            ys.append(m @ q[t])
        return torch.stack(ys)

    def loss_fn(case, p):
        cfg = case["config"]
        ids = torch.tensor(case["ids"], dtype=torch.long)
        x = p["E"][ids]
        a = swa(x @ p["W_Q"].T, x @ p["W_K"].T, x @ p["W_V"].T, cfg["heads"], cfg["window"])
        ys = [level(case["rule"], x, lp, torch.tensor(ctx, dtype=f64).reshape(cfg["d"], cfg["d"]), act)
              for lp, ctx, act in zip(p["levels"], case["context"], case["pulse"])]
        kk = len(ys)
        yc = sum(ys) * (1 / math.sqrt(kk) if kk > 2 else 1.0)
        z = a * sigmoid(yc)
        logits = (z @ p["W_O"].T) @ p["U_emb"]
        logp = torch.log_softmax(logits, dim=1)
        valid = [(t, y) for t, y in enumerate(case["targets"]) if y < cfg["vocab"]]
        return -sum(logp[t, y] for t, y in valid) / len(valid)

    def leaf(v):
        if isinstance(v, dict):
            return torch.tensor(v["data"], dtype=f64).reshape(v["shape"]).requires_grad_(True)
        return torch.tensor(float(v), dtype=f64, requires_grad=True)

    def run(case):
        p = {k: leaf(v) for k, v in case["params"].items() if k != "levels"}
        p["levels"] = [{k: leaf(v) for k, v in lp.items()} for lp in case["params"]["levels"]]
        loss = loss_fn(case, p)
        loss.backward()
        return loss.item(), p

    return run, loss_fn


def half_ulp_f32(x):
    """Half an fp32 ulp at |x| (x an fp32 value; subnormals: half the smallest step)."""
    if x == 0:
        return 2.0 ** -150
    _, e = math.frexp(abs(x))  # |x| = m 2^e, 0.5 <= m < 1: ulp 2^(e-24)
    return 2.0 ** (max(e, -125) - 25)


def close(a, b, scale, fp64):
    """Whether ours (a) matches the float64 reference (b); fp64: a is b's fp32 rounding (RTOL64);
    fp64 == "exact": a is a binary64 within RTOL64 of b (nltrain grads --fp64 --exact)."""
    if fp64 == "exact":
        return abs(a - b) <= RTOL64 * abs(b) + ATOL64 * scale
    if fp64:
        return abs(a - b) <= half_ulp_f32(a) + RTOL64 * abs(b) + ATOL64 * scale
    return abs(a - b) <= RTOL * abs(b) + ATOL * scale


def compare(name, ours, ref, fp64=False):
    """Returns (ok, worst): worst is the largest relative difference over entries with
    |reference| > 1e-4; fp64: beyond the fp32 rounding of the output (0 when every value is
    within half an ulp of the reference)."""
    ours = [float(v) for v in (ours["data"] if isinstance(ours, dict) else [ours])]
    # No path from the loss (a frozen level's W_K, gates...): the gradient is zero.
    ref = ref.grad.reshape(-1).tolist() if ref.grad is not None else [0.0] * ref.numel()
    scale = max(1.0, max(abs(r) for r in ref))
    worst = 0.0
    ok = True
    for i, (a, b) in enumerate(zip(ours, ref)):
        if not close(a, b, scale, fp64):
            print(f"  MISMATCH {name}[{i}]: ours {a!r} torch {b!r}")
            ok = False
        if abs(b) > 1e-4:
            diff = max(0.0, abs(a - b) - half_ulp_f32(a)) if fp64 is True else abs(a - b)
            worst = max(worst, diff / abs(b))
    return ok, worst


def main(argv):
    if len(argv) == 5 and argv[1] == "--dump" and argv[3] == "--work":
        os.makedirs(argv[4], exist_ok=True)
        path = os.path.join(argv[4], "mag_cases.json")
        subprocess.run([argv[2], path], check=True)
    elif len(argv) == 2:
        path = argv[1]
    else:
        print(__doc__, file=sys.stderr)
        return 2
    torch = import_torch()
    try:
        with open(path) as f:
            cases = json.load(f)["cases"]
    except (OSError, ValueError, KeyError) as e:
        print(f"mag_crosscheck: cannot read {path}: {e}", file=sys.stderr)
        return 2
    run, _ = build(torch)
    all_ok = True
    for case in cases:
        label = f"{case['rule']} k={len(case['pulse'])} pulse={case['pulse']} vocab={case['config']['vocab']}"
        loss, p = run(case)
        ok = abs(loss - case["loss"]) <= RTOL * abs(loss)
        if not ok:
            print(f"  MISMATCH loss: ours {case['loss']!r} torch {loss!r}")
        worst = 0.0
        for name in ["E", "W_Q", "W_K", "W_V", "W_O", "U_emb"]:
            good, w = compare(name, case["grads"][name], p[name])
            ok, worst = ok and good, max(worst, w)
        for li, (ours, ref) in enumerate(zip(case["grads"]["levels"], p["levels"])):
            for name in ours:
                good, w = compare(f"level{li}.{name}", ours[name], ref[name])
                ok, worst = ok and good, max(worst, w)
        print(f"{'ok' if ok else 'FAIL'}: {label}: loss {loss:.9g}, worst relative gradient difference {worst:.3g}")
        all_ok = all_ok and ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
