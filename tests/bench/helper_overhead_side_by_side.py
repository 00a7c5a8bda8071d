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

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iris_step_loop import make_dumper, timed_steps  # noqa: E402

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


def measure(helper, out_dir):
    model, opt, dumper = make_dumper(helper, out_dir)
    step_t, helper_t = timed_steps(helper, model, opt, dumper, STEPS)
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
