#!/usr/bin/python3
"""PyTorch eager side of issue 27's GPU goal: tokens/s of one training step (forward, backward,
AdamW) of the MAG model, B sequences at once, on the device PyTorch names (cuda where it has one).

The model is tests/nl/torch/mag_crosscheck.py's (specs/nltrain-math.md), written here over a batch
dimension: the memory rules' recurrence runs as batched matrix products, one sequence per batch
row, so PyTorch gets the batch's parallelism that the per-sequence cross-check model does not
give it. `--check` first proves that the batched model is the cross-check model: each sequence's
loss and every gradient of B = 3 in float64 on the CPU against the mean over single-sequence
calls of mag_crosscheck's loss_fn (red if a term is dropped or a rule's update changed).

Usage: mag_torch_batch.py [--check] RULE D SEQ_LEN HEADS LEVELS BATCH STEPS [DEVICE [DTYPE]]
  RULE delta|titans; LEVELS K (level l is active at steps divisible by 8^l, as nltrain's fixed
  schedule); STEPS timed steps after 3 untimed ones. Prints one line:
  "rule=.. d=.. s=.. B=.. K=.. device=.. tokens_per_s=.. ms_per_step=.. loss=.."
Exit 0; 1 when --check finds a difference; 2 on usage.
"""
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nl", "torch"))
import mag_crosscheck  # noqa: E402

RULES = {"delta": "DeltaRule", "titans": "TitansLMM"}


def model(torch):
    sigmoid, softplus = mag_crosscheck.clamped_gates(torch)

    def nrm_rows(u):
        return u / torch.clamp(torch.sqrt((u * u).sum(dim=-1, keepdim=True)), min=1e-8)

    def swa(q, k, v, heads, window):
        b, s, d = q.shape
        hd = d // heads
        qh, kh, vh = (t.reshape(b, s, heads, hd).transpose(1, 2) for t in (q, k, v))
        scores = (qh @ kh.transpose(-1, -2)) / math.sqrt(hd)
        i = torch.arange(s, device=q.device).unsqueeze(1)
        j = torch.arange(s, device=q.device).unsqueeze(0)
        visible = (j <= i) & (j > i - window)
        p = torch.softmax(scores.masked_fill(~visible, float("-inf")), dim=-1)
        return (p @ vh).transpose(1, 2).reshape(b, s, d)

    def level(rule, x, lp, m0, active):
        q = nrm_rows(x @ lp["W_Q"].T)
        if not active:
            return q @ m0.transpose(1, 2)  # frozen read: y_t = M q_t, each sequence its own M
        k = nrm_rows(x @ lp["W_K"].T)
        v = x @ lp["W_V"].T
        c = torch.cat([k, v], dim=-1)
        alpha = sigmoid(c @ lp["w_alpha"] + lp["b_alpha"])
        theta = softplus(c @ lp["w_theta"] + lp["b_theta"])
        eta = sigmoid(c @ lp["w_eta"] + lp["b_eta"])
        m, mom = m0, torch.zeros_like(m0)
        ys = []
        for t in range(x.shape[1]):
            kt = k[:, t].unsqueeze(2)  # (B, d, 1)
            e = m @ kt - v[:, t].unsqueeze(2)
            g = e @ kt.transpose(1, 2)
            a, th = alpha[:, t].view(-1, 1, 1), theta[:, t].view(-1, 1, 1)
            if rule == "DeltaRule":
                m = (1 - a) * m - th * g
            else:
                mom = eta[:, t].view(-1, 1, 1) * mom - th * g
                m = (1 - a) * m + mom
            ys.append((m @ q[:, t].unsqueeze(2)).squeeze(2))
        return torch.stack(ys, dim=1)

    def loss_fn(rule, cfg, p, ids, targets, contexts, pulse):
        x = p["E"][ids]
        a = swa(x @ p["W_Q"].T, x @ p["W_K"].T, x @ p["W_V"].T, cfg["heads"], cfg["window"])
        ys = [level(rule, x, lp, m0, act) for lp, m0, act in zip(p["levels"], contexts, pulse)]
        kk = len(ys)
        yc = sum(ys) * (1 / math.sqrt(kk) if kk > 2 else 1.0)
        z = a * sigmoid(yc)
        logits = (z @ p["W_O"].T) @ p["U_emb"]
        logp = torch.log_softmax(logits, dim=-1)
        return -logp.gather(2, targets.unsqueeze(2)).mean()  # mean over the batch's tokens

    return loss_fn


def make_params(torch, d, vocab, levels, device, dtype, seed=1):
    g = torch.Generator().manual_seed(seed)

    def u(*shape, a=0.3):
        return ((torch.rand(*shape, generator=g, dtype=torch.float64) * 2 - 1) * a).to(device, dtype).requires_grad_(True)

    p = {"E": u(vocab, d), "W_Q": u(d, d), "W_K": u(d, d), "W_V": u(d, d), "W_O": u(d, d), "U_emb": u(d, vocab)}
    p["levels"] = [{"W_K": u(d, d), "W_V": u(d, d), "W_Q": u(d, d), "w_alpha": u(2 * d), "w_theta": u(2 * d),
                    "w_eta": u(2 * d), "b_alpha": u(()), "b_theta": u(()), "b_eta": u(())} for _ in range(levels)]
    return p


def leaves(p):
    return [p[k] for k in ("E", "W_Q", "W_K", "W_V", "W_O", "U_emb")] + [v for lp in p["levels"] for v in lp.values()]


def batch(torch, b, s, vocab, step, device):
    ids = torch.tensor([[(bb * 31 + step * 7 + i * 13) % vocab for i in range(s)] for bb in range(b)], device=device)
    return ids, (ids + 1) % vocab


def check(torch, rule):
    """The batched model against mag_crosscheck's, float64 on the CPU: loss and every gradient."""
    d, s, heads, vocab, b = 8, 6, 2, 16, 3
    cfg = {"vocab": vocab, "d": d, "heads": heads, "seq_len": s, "window": 4}
    ok = True
    for pulse in ([True], [True, False]):
        p = make_params(torch, d, vocab, len(pulse), "cpu", torch.float64)
        ids, tg = batch(torch, b, s, vocab, 1, "cpu")
        ctx = [torch.randn(b, d, d, dtype=torch.float64, generator=torch.Generator().manual_seed(9 + i)) * 0.1
               for i in range(len(pulse))]
        mine = model(torch)(RULES[rule], cfg, p, ids, tg, ctx, pulse)
        mine.backward()
        got = [t.grad.clone() if t.grad is not None else torch.zeros_like(t) for t in leaves(p)]
        for t in leaves(p):
            t.grad = None
        _, single = mag_crosscheck.build(torch, torch.float64)
        ref = 0
        for bb in range(b):
            case = {"rule": RULES[rule], "config": cfg, "ids": ids[bb].tolist(), "targets": tg[bb].tolist(),
                    "pulse": pulse, "context": [c[bb].reshape(-1).tolist() for c in ctx]}
            ref = ref + single(case, p) / b
        ref.backward()
        if abs(mine.item() - ref.item()) > 1e-12 * abs(ref.item()):
            print(f"check {rule} K={len(pulse)}: loss {mine.item()!r} against {ref.item()!r}")
            ok = False
        for i, (a, t) in enumerate(zip(got, leaves(p))):
            want = t.grad if t.grad is not None else torch.zeros_like(t)
            if not torch.allclose(a, want, rtol=1e-10, atol=1e-14):
                print(f"check {rule} K={len(pulse)}: gradient of leaf {i} differs by {(a - want).abs().max().item():.3g}")
                ok = False
    return ok


def main(argv):
    args = argv[1:]
    do_check = bool(args) and args[0] == "--check"
    args = args[1:] if do_check else args
    try:
        d, s, heads, levels, b, steps = (int(a) for a in args[1:7])
    except ValueError:
        d = s = heads = levels = b = steps = 0
    dtype_name = args[8] if len(args) > 8 else "fp32"
    if (len(args) not in (7, 8, 9) or args[0] not in RULES or dtype_name not in ("fp32", "bf16")
            or min(d, s, heads, levels, b, steps) < 1 or d % heads != 0):
        print(__doc__, file=sys.stderr)
        return 2
    import torch
    rule = args[0]
    device = args[7] if len(args) > 7 else ("cuda" if torch.cuda.is_available() else "cpu")
    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[dtype_name]
    if do_check and not check(torch, rule):
        return 1
    vocab = 256
    cfg = {"vocab": vocab, "d": d, "heads": heads, "seq_len": s, "window": s}
    p = make_params(torch, d, vocab, levels, device, dtype)
    opt = torch.optim.AdamW(leaves(p), lr=3e-3, weight_decay=0.01)
    loss_fn = model(torch)
    ctx = [torch.zeros(b, d, d, device=device, dtype=dtype) for _ in range(levels)]

    def step(n):
        ids, tg = batch(torch, b, s, vocab, n, device)
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(RULES[rule], cfg, p, ids, tg, ctx, [n % 8 ** lv == 0 for lv in range(levels)])
        loss.backward()
        opt.step()
        return loss

    sync = torch.cuda.synchronize if str(device).startswith("cuda") else (lambda: None)
    for n in range(3):
        step(n)
    sync()
    t0 = time.perf_counter()
    for n in range(steps):
        loss = step(n)
    sync()
    dt = (time.perf_counter() - t0) / steps
    print(f"rule={rule} d={d} s={s} B={b} K={levels} device={device} dtype={dtype_name} "
          f"tokens_per_s={b * s / dt:.6g} ms_per_step={dt * 1e3:.4g} loss={loss.item():.6g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
