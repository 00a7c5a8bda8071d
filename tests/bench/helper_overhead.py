"""Overhead of bp's PyTorch live helper per training step, on the iris model.

    /usr/bin/python3 tests/bench/helper_overhead.py [STEPS]      (or: cmake --build build --target bench_helper_overhead)

The loop of tests/cli/bp/live_iris_train.py (4-3-3 sigmoid network, mini-batches of 15 flowers,
SGD, float32, one thread) runs STEPS steps (default 2000), ROUNDS times;
each step is timed on its own, and so is the helper's work around it (dumper.step(), its entry
and exit: the snapshots); the sidecar serialization, which the helper defers to every 256 steps and
close(), is timed at close() and spread over the steps. Medians, so a loaded machine's stalls do
not count. Goal: the in-loop overhead under 5% of the step.
"""
import os
import statistics
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "apps", "bp", "extract"))
sys.path.insert(0, HERE)
import pytorch as helper  # noqa: E402
from iris_step_loop import make_dumper, timed_steps  # noqa: E402

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
ROUNDS = 5


def measure(out_dir):
    """Per step: the plain step's time, the helper's own time in the loop, and the deferred
    serialization (close()) spread over the steps."""
    model, opt, dumper = make_dumper(helper, out_dir)
    step_t, helper_t = timed_steps(helper, model, opt, dumper, STEPS)
    t0 = time.perf_counter()
    dumper.close()
    serialize = (time.perf_counter() - t0) / STEPS
    return statistics.median(step_t), statistics.median(helper_t), serialize


with tempfile.TemporaryDirectory() as tmp:
    measure(tmp)  # warm-up
    runs = [measure(tmp) for _ in range(ROUNDS)]
p = statistics.median(r[0] for r in runs)
h = statistics.median(r[1] for r in runs)
ser = statistics.median(r[2] for r in runs)
print(f"iris model, {STEPS} steps x {ROUNDS} rounds, torch {torch.__version__}, 1 thread (medians)")
print(f"training step (zero_grad, forward, backward, step): {p * 1e6:8.1f} us")
print(f"helper in the loop (snapshots):                     {h * 1e6:8.1f} us  ({h / p * 100:.1f}% of the step)")
print(f"helper serialization at flush/close, per step:      {ser * 1e6:8.1f} us  ({ser / p * 100:.1f}% of the step)")
