"""Overhead of bp's PyTorch live helper per training step, on the iris model.

    /usr/bin/python3 tests/bench/helper_overhead.py [STEPS]      (or: cmake --build build --target bench_helper_overhead)

The loop of tests/cli/bp/live_iris_train.py (4-3-3 sigmoid network, mini-batches of 15 flowers,
SGD, float32, one thread) runs STEPS steps (default 2000) three ways, interleaved over rounds:
plain; inside `with dumper.step(x, y)` (what the training loop pays per step: the snapshots);
and the same plus the sidecar serialization, which the helper defers to every 256 steps and
close(). Reported: median microseconds per step and each overhead as a percentage of the plain
step. Goal: the in-loop overhead under 5%.
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


def run(mode, out_dir):
    model, opt = make()
    batches = [(features[(s % 10) * 15:(s % 10 + 1) * 15], targets[(s % 10) * 15:(s % 10 + 1) * 15])
               for s in range(STEPS)]
    if mode == "plain":
        t0 = time.perf_counter()
        for x, y in batches:
            one_step(model, opt, x, y)
        return (time.perf_counter() - t0) / STEPS, None
    dumper = TraceDumper(model, opt, half_squared_error, out=os.path.join(out_dir, "trace.jsonl"),
                         trace_id="0" * 32, flush_every=10 ** 9)
    t0 = time.perf_counter()
    for x, y in batches:
        with dumper.step(x, y):
            one_step(model, opt, x, y)
    in_loop = (time.perf_counter() - t0) / STEPS
    dumper.close()
    total = (time.perf_counter() - t0) / STEPS
    return in_loop, total


with tempfile.TemporaryDirectory() as tmp:
    run("plain", tmp)  # warm-up
    plain, loop, total = [], [], []
    for _ in range(ROUNDS):
        plain.append(run("plain", tmp)[0])
        a, b = run("helper", tmp)
        loop.append(a)
        total.append(b)
p, l_, t = statistics.median(plain), statistics.median(loop), statistics.median(total)
print(f"iris model, {STEPS} steps x {ROUNDS} rounds, torch {torch.__version__}, 1 thread")
print(f"plain step:                     {p * 1e6:8.1f} us")
print(f"with helper, in the loop:       {l_ * 1e6:8.1f} us  (+{(l_ - p) / p * 100:.1f}%)")
print(f"with helper, incl. serializing: {t * 1e6:8.1f} us  (+{(t - p) / p * 100:.1f}%)")
