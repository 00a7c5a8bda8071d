"""The timed iris training loop shared by helper_overhead.py and helper_overhead_side_by_side.py:
the 4-3-3 sigmoid network of tests/cli/bp/live_iris_train.py, mini-batches of 15 of 150 seeded
flowers, SGD, float32, one thread. Each step is timed on its own, and so is the helper's work
around it (dumper.step(), its entry and exit: the snapshots)."""
import os
import time

import torch

torch.set_num_threads(1)
_gen = torch.Generator().manual_seed(0)
FEATURES = torch.rand(150, 4, generator=_gen) * 7
TARGETS = torch.nn.functional.one_hot(torch.randint(0, 3, (150,), generator=_gen), 3).float()


def make_dumper(helper, out_dir, **options):
    """A fresh seeded model, its optimizer and helper.TraceDumper (from the helper module given)."""
    torch.manual_seed(1)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Sigmoid(), torch.nn.Linear(3, 3), torch.nn.Sigmoid())
    opt = torch.optim.SGD(model.parameters(), lr=2.0)
    options = {"trace_id": "0" * 32, "flush_every": 10 ** 9, **options}
    dumper = helper.TraceDumper(model, opt, helper.half_squared_error, out=os.path.join(out_dir, "trace.jsonl"),
                                **options)
    return model, opt, dumper


def timed_steps(helper, model, opt, dumper, steps, set_to_none=False):
    """Runs `steps` steps under dumper.step(); returns (step times, helper in-loop times), seconds.
    set_to_none=True frees the gradients at zero_grad() as PyTorch 2 does by default."""
    step_t, helper_t = [], []
    clock = time.perf_counter
    for s in range(steps):
        x, y = FEATURES[(s % 10) * 15:(s % 10 + 1) * 15], TARGETS[(s % 10) * 15:(s % 10 + 1) * 15]
        t0 = clock()
        ctx = dumper.step(x, y)
        ctx.__enter__()
        t1 = clock()
        opt.zero_grad(set_to_none=set_to_none)
        helper.half_squared_error(model(x), y).backward()
        opt.step()
        t2 = clock()
        ctx.__exit__(None, None, None)
        t3 = clock()
        step_t.append(t2 - t1)
        helper_t.append((t1 - t0) + (t3 - t2))
    return step_t, helper_t
