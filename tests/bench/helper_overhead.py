"""Overhead of bp's PyTorch live helper per training step, on the iris model.

    /usr/bin/python3 tests/bench/helper_overhead.py [STEPS]      (or: cmake --build build --target bench_helper_overhead)

The loop of tests/cli/bp/live_iris_train.py (4-3-3 sigmoid network, mini-batches of 15 flowers,
SGD, float32, one thread) runs STEPS steps (default 2000), ROUNDS times, under a TraceDumper with
its default flush_every (256), once writing sidecar JSON (the default) and once a binary capture
(capture=True), the latter also with zero_grad(set_to_none=True), PyTorch 2's default, which
gives the gradients new storage every step. Each step is timed on its own, and so is the helper's work around it:
  * in the loop: dumper.step()'s entry and exit (the snapshots), the median over steps that did
    not flush, so a loaded machine's stalls do not count;
  * serialization: every flush (every 256 steps and the last at close()), summed and spread over
    the steps;
  * close: what close() adds once per trace after its flush (fsync, rename), in milliseconds.
Medians over rounds. Goal: in the loop plus serialization under 5% of the step.
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


def measure(out_dir, capture, set_to_none=False):
    """(median step, median in-loop helper time without a flush, flush time per step, close's own time)."""
    model, opt, dumper = make_dumper(helper, out_dir, capture=capture, flush_every=256)
    flushes = []
    plain_flush = dumper.flush

    def timed_flush():
        t0 = time.perf_counter()
        plain_flush()
        flushes.append(time.perf_counter() - t0)

    dumper.flush = timed_flush
    step_t, helper_t = timed_steps(helper, model, opt, dumper, STEPS, set_to_none)
    in_loop = [h for k, h in enumerate(helper_t) if (k + 1) % 256]
    t0 = time.perf_counter()
    dumper.close()
    close = time.perf_counter() - t0 - flushes[-1]
    return statistics.median(step_t), statistics.median(in_loop), sum(flushes) / STEPS, close


with tempfile.TemporaryDirectory() as tmp:
    results = {}
    for mode in ((False, False), (True, False), (True, True)):
        measure(tmp, *mode)  # warm-up
        results[mode] = [measure(tmp, *mode) for _ in range(ROUNDS)]
print(f"iris model, {STEPS} steps x {ROUNDS} rounds, flush every 256 steps, torch {torch.__version__}, 1 thread "
      "(medians)")
TITLES = {(False, False): "sidecar JSON (the default):",
          (True, False): "capture=True (binary capture; bp import formats the numbers):",
          (True, True): "capture=True, zero_grad(set_to_none=True) (PyTorch 2's default: new gradients each step):"}
for mode, runs in results.items():
    p, h, ser, close = (statistics.median(r[i] for r in runs) for i in range(4))
    print(TITLES[mode])
    print(f"  training step (zero_grad, forward, backward, step): {p * 1e6:8.1f} us")
    print(f"  helper in the loop (snapshots):                     {h * 1e6:8.1f} us  ({h / p * 100:.1f}% of the step)")
    print(f"  helper serialization (flushes), per step:           {ser * 1e6:8.1f} us  "
          f"({ser / p * 100:.1f}% of the step)")
    print(f"  helper overhead per step:                           {(h + ser) * 1e6:8.1f} us  "
          f"({(h + ser) / p * 100:.1f}% of the step)")
    print(f"  close() after its flush, once per trace:            {close * 1e3:8.2f} ms")
