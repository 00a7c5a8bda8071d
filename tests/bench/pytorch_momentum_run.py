"""A real multi-step PyTorch run recorded by bp's helper, for importer_import_bench.

    /usr/bin/python3 tests/bench/pytorch_momentum_run.py STEPS OUT.jsonl

Trains the net of tests/bench/data/pytorch_sgd_momentum_step.sidecar.json (2-3-2, sigmoid
hidden and output units, half squared error, SGD with momentum, float64) for STEPS steps of
one sample each, cycling through a fixed set of 16 samples, and records every step with the
helper's TraceDumper. Unlike that file repeated, each line differs from the one before where a
training run's lines differ (inputs, targets, parameters, gradients, momentum, forward values)
and repeats what a run repeats (topology, helper, policies): a benchmark of the importer then
measures a run, not a cache of one step. Exit 0 with OUT written, else 1 with the reason.
"""

import os
import sys

import torch

HELPER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "apps", "bp", "extract")
sys.path.insert(0, HELPER)
from pytorch import TraceDumper, half_squared_error  # noqa: E402


def main():
    if len(sys.argv) != 3:
        print("usage: pytorch_momentum_run.py STEPS OUT.jsonl", file=sys.stderr)
        return 1
    steps, out = int(sys.argv[1]), sys.argv[2]
    torch.manual_seed(7)
    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Sigmoid(), torch.nn.Linear(3, 2), torch.nn.Sigmoid())
    model = model.double()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    xs = torch.rand(16, 1, 2, dtype=torch.float64)
    ys = torch.rand(16, 1, 2, dtype=torch.float64)
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1700000000")
    with TraceDumper(model, optimizer, half_squared_error, out=out, trace_id="0123456789abcdef0123456789abcdef") as dumper:
        for i in range(steps):
            x, y = xs[i % 16], ys[i % 16]
            with dumper.step(x, y):
                optimizer.zero_grad()
                loss = half_squared_error(model(x), y)
                loss.backward()
                optimizer.step()
    return 0


if __name__ == "__main__":
    sys.exit(main())
