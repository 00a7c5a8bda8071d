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
from pytorch import TraceDumper, half_squared_error  # noqa: E402

torch.set_num_threads(1)
STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
ROUNDS = 5
gen = torch.Generator().manual_seed(0)
features = torch.rand(150, 4, generator=gen) * 7
targets = torch.nn.functional.one_hot(torch.randint(0, 3, (150,), generator=gen), 3).float()


def make():
    torch.manual_seed(1)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Sigmoid(), torch.nn.Linear(3, 3), torch.nn.Sigmoid())
    return model, torch.optim.SGD(model.parameters(), lr=2.0)


def one_step(model, opt, x, y):
    opt.zero_grad()
    loss = half_squared_error(model(x), y)
    loss.backward()
    opt.step()


def measure(out_dir):
    """Per step: the plain step's time, the helper's own time in the loop (dumper.step's entry and
    exit around the same step), and the deferred serialization (close()) spread over the steps."""
    model, opt = make()
    dumper = TraceDumper(model, opt, half_squared_error, out=os.path.join(out_dir, "trace.jsonl"),
                         trace_id="0" * 32, flush_every=10 ** 9)
    step_t, helper_t = [], []
    clock = time.perf_counter
    for s in range(STEPS):
        x, y = features[(s % 10) * 15:(s % 10 + 1) * 15], targets[(s % 10) * 15:(s % 10 + 1) * 15]
        t0 = clock()
        ctx = dumper.step(x, y)
        ctx.__enter__()
        t1 = clock()
        one_step(model, opt, x, y)
        t2 = clock()
        ctx.__exit__(None, None, None)
        t3 = clock()
        step_t.append(t2 - t1)
        helper_t.append((t1 - t0) + (t3 - t2))
    t0 = clock()
    dumper.close()
    serialize = (clock() - t0) / STEPS
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
