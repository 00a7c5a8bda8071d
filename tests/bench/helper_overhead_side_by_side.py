"""Two versions of bp's PyTorch helper measured side by side, rounds interleaved, on the iris loop
of helper_overhead.py (4-3-3 sigmoid network, batches of 15, SGD, float32, one thread):

    /usr/bin/python3 tests/bench/helper_overhead_side_by_side.py BASELINE.py CANDIDATE.py [STEPS] [ROUNDS]

e.g. BASELINE.py from `git show main:apps/bp/extract/pytorch.py`. Per version: the median plain
step and the median in-loop helper time (dumper.step()'s entry and exit), over rounds after the
first (warm-up). Interleaving puts a loaded machine's slow spells on both sides alike.
"""
import importlib.util
import os
import statistics
import sys
import tempfile
import time

import torch

if len(sys.argv) < 3:
    raise SystemExit(__doc__)
STEPS = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
ROUNDS = int(sys.argv[4]) if len(sys.argv) > 4 else 7


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


versions = {"baseline": load(sys.argv[1], "helper_baseline"), "candidate": load(sys.argv[2], "helper_candidate")}
torch.set_num_threads(1)
gen = torch.Generator().manual_seed(0)
features = torch.rand(150, 4, generator=gen) * 7
targets = torch.nn.functional.one_hot(torch.randint(0, 3, (150,), generator=gen), 3).float()


def measure(helper, out_dir):
    torch.manual_seed(1)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Sigmoid(), torch.nn.Linear(3, 3), torch.nn.Sigmoid())
    opt = torch.optim.SGD(model.parameters(), lr=2.0)
    dumper = helper.TraceDumper(model, opt, helper.half_squared_error, out=os.path.join(out_dir, "trace.jsonl"),
                                trace_id="0" * 32, flush_every=10 ** 9)
    step_t, helper_t = [], []
    clock = time.perf_counter
    for s in range(STEPS):
        x, y = features[(s % 10) * 15:(s % 10 + 1) * 15], targets[(s % 10) * 15:(s % 10 + 1) * 15]
        t0 = clock()
        ctx = dumper.step(x, y)
        ctx.__enter__()
        t1 = clock()
        opt.zero_grad()
        helper.half_squared_error(model(x), y).backward()
        opt.step()
        t2 = clock()
        ctx.__exit__(None, None, None)
        t3 = clock()
        step_t.append(t2 - t1)
        helper_t.append((t1 - t0) + (t3 - t2))
    dumper._abandon()  # the serialization is not what is compared here
    return statistics.median(step_t), statistics.median(helper_t)


runs = {k: [] for k in versions}
with tempfile.TemporaryDirectory() as tmp:
    for _ in range(ROUNDS):
        for name, helper in versions.items():
            runs[name].append(measure(helper, tmp))
print(f"iris model, {STEPS} steps x {ROUNDS} rounds interleaved (first dropped), torch {torch.__version__}, 1 thread")
for name in versions:
    step = statistics.median(r[0] for r in runs[name][1:])
    own = statistics.median(r[1] for r in runs[name][1:])
    print(f"{name:9s}: step {step * 1e6:7.1f} us   helper in the loop {own * 1e6:6.1f} us  ({own / step * 100:.1f}% of the step)")
