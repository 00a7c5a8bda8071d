#!/usr/bin/python3
"""Times torch autograd on the op chain of tests/bench/tape_torch_bench.cpp.

Usage: autograd_timing.py N_OPS REPEATS
Builds the same chain on 8-element float32 tensors (mul, add, sigmoid, scale by 1.5, repeating),
then <y, c> and backward(); prints one line `ns_per_op=<float>` (forward+backward per op,
best of REPEATS, thread CPU time). Exit 77 when torch cannot be imported.
"""
import sys
import time


def main():
    try:
        import torch
    except ImportError as e:
        print(f"torch unavailable: {e}", file=sys.stderr)
        return 77
    n_ops, repeats = int(sys.argv[1]), int(sys.argv[2])
    torch.set_num_threads(1)
    c = torch.tensor([0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8], dtype=torch.float32)

    def once():
        x = c.clone().requires_grad_(True)
        y = x
        for i in range(n_ops):
            k = i % 4
            if k == 0:
                y = y * c
            elif k == 1:
                y = y + c
            elif k == 2:
                y = torch.sigmoid(y)
            else:
                y = y * 1.5
        loss = (y * c).sum()
        loss.backward()
        return x.grad

    for _ in range(3):
        once()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.thread_time_ns()
        once()
        best = min(best, time.thread_time_ns() - t0)
    print(f"ns_per_op={best / (n_ops + 2):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
