#!/usr/bin/env python3
"""The best public GPU delta rule as the yardstick of issue 27: flash-linear-attention's Triton
kernels (`fla-core` on PyPI), chunk_delta_rule and chunk_gated_delta_rule, forward + backward, on
the shapes of our MAG levels: B sequences of T tokens, one head of width d (our level's memory is
one d x d matrix; H = 1) or H heads of width d / H.

Usage: fla_delta_rule.py B T H D [D ...]     (needs a CUDA device, torch, triton and fla-core)
Prints one line per op, dtype, d and head layout: "op=.. dtype=.. B=.. T=.. H=.. K=.. tokens_per_s=..
us_per_call=.." (CUDA events, median of 50 calls after 10 warm-ups, fwd + bwd of the sum of outputs).
Exit 0; 77 when there is no CUDA device or fla cannot be imported; 2 on usage.
"""
import statistics
import sys


def main(argv):
    try:
        sizes = [int(a) for a in argv[1:]]
    except ValueError:
        sizes = []
    if len(sizes) < 4 or min(sizes) < 1 or any(d % sizes[2] for d in sizes[3:]):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import torch
        import torch.nn.functional as F
        from fla.ops.delta_rule import chunk_delta_rule
        from fla.ops.gated_delta_rule import chunk_gated_delta_rule
    except ImportError as e:
        print(f"SKIP: {e}")
        return 77
    if not torch.cuda.is_available():
        print("SKIP: no CUDA device")
        return 77
    b, t, heads = sizes[:3]
    for d in sizes[3:]:
        k = d // heads
        for dtype in (torch.float32, torch.bfloat16):
            g = torch.Generator(device="cuda").manual_seed(1)

            def r(*shape):
                return torch.randn(*shape, device="cuda", dtype=dtype, generator=g)

            q = r(b, t, heads, k).requires_grad_(True)
            kk = F.normalize(r(b, t, heads, k), p=2, dim=-1).detach().requires_grad_(True)
            v = r(b, t, heads, k).requires_grad_(True)
            beta = torch.sigmoid(r(b, t, heads)).detach().requires_grad_(True)
            gate = F.logsigmoid(r(b, t, heads)).detach().requires_grad_(True)
            ops = {"chunk_delta_rule": lambda: chunk_delta_rule(q, kk, v, beta)[0],
                   "chunk_gated_delta_rule": lambda: chunk_gated_delta_rule(q, kk, v, gate, beta)[0]}
            for name, op in ops.items():
                def call():
                    op().float().sum().backward()
                try:
                    for _ in range(10):
                        call()
                    times = []
                    for _ in range(50):
                        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                        s.record()
                        call()
                        e.record()
                        e.synchronize()
                        times.append(s.elapsed_time(e) * 1e-3)
                    sec = statistics.median(times)
                    print(f"op={name} dtype={str(dtype).split('.')[-1]} B={b} T={t} H={heads} K={k} "
                          f"tokens_per_s={b * t / sec:.6g} us_per_call={sec * 1e6:.5g}", flush=True)
                except Exception as ex:  # an unsupported head width, say: reported, the rest still run
                    print(f"op={name} dtype={str(dtype).split('.')[-1]} B={b} T={t} H={heads} K={k} "
                          f"error={type(ex).__name__}: {str(ex).splitlines()[0] if str(ex) else ''}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
