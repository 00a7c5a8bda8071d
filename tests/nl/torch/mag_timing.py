#!/usr/bin/python3
"""Times forward+backward of the DeltaRule MAG model in PyTorch (the model of mag_crosscheck.py,
fp32, k=1, one thread, CPU time), for tests/bench/nl_rules_bench.cpp.

Usage: mag_timing.py D SEQ_LEN HEADS WINDOW VOCAB REPEATS   prints "tokens_per_s=<best>"
"""
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mag_crosscheck  # noqa: E402


def main(argv):
    import torch
    torch.set_num_threads(1)
    d, s, heads, window, vocab, repeats = (int(a) for a in argv[1:7])
    _, loss_fn = mag_crosscheck.build(torch, torch.float32)
    g = torch.Generator().manual_seed(1)

    def u(*shape, a=0.3):
        return ((torch.rand(*shape, generator=g) * 2 - 1) * a).requires_grad_(True)

    params = {"E": u(vocab, d), "W_Q": u(d, d), "W_K": u(d, d), "W_V": u(d, d), "W_O": u(d, d), "U_emb": u(d, vocab),
              "levels": [{"W_K": u(d, d), "W_V": u(d, d), "W_Q": u(d, d), "w_alpha": u(2 * d), "w_theta": u(2 * d),
                          "w_eta": u(2 * d), "b_alpha": u(1)[0], "b_theta": u(1)[0], "b_eta": u(1)[0]}]}
    case = {"rule": "DeltaRule", "config": {"vocab": vocab, "d": d, "heads": heads, "seq_len": s, "window": window},
            "ids": [(7 * t) % vocab for t in range(s)], "targets": [(7 * t + 1) % vocab for t in range(s)],
            "pulse": [True], "context": [[0.0] * (d * d)]}
    best = math.inf
    for _ in range(repeats):
        t0 = time.process_time()
        loss = loss_fn(case, params)
        loss.backward()
        best = min(best, time.process_time() - t0)
    print(f"tokens_per_s={s / best:.6g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
