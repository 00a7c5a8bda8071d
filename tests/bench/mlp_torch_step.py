"""The PyTorch side of mlp_audit_verify_bench: the README's MNIST-sized step (784-256-10, ReLU,
batch 64, Adam, CrossEntropyLoss, generated data) in Debian's torch.

    /usr/bin/python3 tests/bench/mlp_torch_step.py RECEIPTS STEPS THREADS

Writes STEPS receipts with the shipped MlpReceiptWriter (apps/bp/extract/pytorch_mlp.py) to
RECEIPTS, after timing the same step without the writer; prints one line: the median seconds of
a step without the writer and with it (its in-loop snapshots and the line it writes), in wall
time, then the same two in CPU time (all of the process's threads: what a loaded machine's
other work cannot inflate).
THREADS: torch.set_num_threads (0: torch's default, the cores available).
"""
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "apps", "bp", "extract"))
from pytorch_mlp import MlpReceiptWriter  # noqa: E402

out, steps, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if threads > 0:
    torch.set_num_threads(threads)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = torch.nn.CrossEntropyLoss()
batches = [(torch.rand(64, 784), torch.randint(0, 10, (64,))) for _ in range(8)]


def step(x, y):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()


plain, plain_cpu = [], []
for i in range(60):
    x, y = batches[i % len(batches)]
    t0, c0 = time.perf_counter(), time.process_time()
    step(x, y)
    plain.append(time.perf_counter() - t0)
    plain_cpu.append(time.process_time() - c0)
written, written_cpu = [], []
with MlpReceiptWriter(model, optimizer, loss_fn, out=out) as writer:
    for i in range(steps):
        x, y = batches[i % len(batches)]
        t0, c0 = time.perf_counter(), time.process_time()
        with writer.step(x, y):
            step(x, y)
        written.append(time.perf_counter() - t0)
        written_cpu.append(time.process_time() - c0)
m = statistics.median
print(f"{m(plain[10:]):.9f} {m(written):.9f} {m(plain_cpu[10:]):.9f} {m(written_cpu):.9f}")
