"""Writes fixtures/mlp/: a short real PyTorch run (6-12-3, ReLU, cross entropy, Adam, clip_grad_norm_)
through bp's MlpReceiptWriter, and one damaged copy per mutation, named for it, whose .meta.json
says which rule must fail first; and runs of the later layers and losses (LayerNorm, GELU, Dropout
with its recorded mask, weighted and smoothed cross entropy; GELU tanh with BCEWithLogitsLoss;
LayerNorm without affine, the half squared error), with a damaged Dropout mask; LinearLR with
BCEWithLogitsLoss's pos_weight, with a learning rate one ulp off, a skipping last_epoch and a
changed pos_weight. Run by hand with torch (/usr/bin/python3 tests/support/mlp_fixtures.py);
tests/mlp_audit/fixtures_test.cpp reads the files without torch. Written with before="every" (each
receipt carries its state before the step, as every receipt did before the writer's default became
"first"): they are the corpus of such receipts that must keep their verdicts, and the damaged copies
edit later receipts' `before`; tests/mlp_audit/elided_before_test.cpp derives the default form."""
import base64
import hashlib
import json
import os
import struct
import sys

import torch
from torch import nn

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "apps", "bp", "extract"))
from pytorch_mlp import HalfSquaredError, MlpReceiptWriter  # noqa: E402

OUT = os.path.join(ROOT, "fixtures", "mlp")
os.makedirs(OUT, exist_ok=True)
torch.manual_seed(3)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()
good = os.path.join(OUT, "relu-adam-clip.jsonl")
with MlpReceiptWriter(model, opt, loss_fn, out=good, before="every") as w:
    for _ in range(3):
        x, y = torch.randn(8, 6), torch.randint(0, 3, (8,))
        with w.step(x, y):
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            w.clip_grad_norm_(0.5)
            opt.step()


def retensor(t, index, factor):
    data = bytearray(base64.b64decode(t["data"]))
    (v,) = struct.unpack_from("<f", data, 4 * index)
    struct.pack_into("<f", data, 4 * index, v * factor)
    t["data"] = base64.b64encode(bytes(data)).decode()
    t["sha256"] = hashlib.sha256(bytes(data)).hexdigest()


def largest(t):
    vals = struct.unpack(f"<{len(base64.b64decode(t['data'])) // 4}f", base64.b64decode(t["data"]))
    return max(range(len(vals)), key=lambda i: abs(vals[i]))


def bad(mutation, rule, fn, what, run="relu-adam-clip"):
    recs = [json.loads(l) for l in open(os.path.join(OUT, run + ".jsonl"), "rb").read().splitlines()]
    out = fn(recs)
    with open(os.path.join(OUT, f"{run}.bad-{mutation}.jsonl"), "wb") as f:
        f.write(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in out))
    with open(os.path.join(OUT, f"{run}.bad-{mutation}.meta.json"), "w") as f:
        json.dump({"mutation": what, "rule": rule}, f, indent=1)
        f.write("\n")


def grad(recs):
    t = recs[1]["gradients"]["tensors"][2]
    retensor(t, largest(t), 1 + 1e-4)
    return recs


def param(recs):
    retensor(recs[1]["before"]["tensors"][0], 0, 1.5)
    return recs


def lr(recs):
    recs[2]["step"]["lr"] = 0.02
    return recs


def update(recs):
    retensor(recs[2]["after"]["tensors"][3], 0, 1 + 1e-4)
    return recs


def norm(recs):
    recs[1]["step"]["clip"]["total_norm"] *= 1.001
    return recs


bad("gradient", 4, grad, "the largest entry of step 1's grad.layers.1.weight times 1 + 1e-4")
bad("parameter-between-steps", 2, param, "step 1's layers.0.weight[0] before the step times 1.5")
bad("lr", 6, lr, "step 2's lr 0.02 where the optimizer's is 0.01")
bad("update", 5, update, "step 2's layers.1.bias[0] after the step times 1 + 1e-4")
bad("clip-norm", 7, norm, "step 1's clip total_norm times 1.001")
bad("swapped-steps", 1, lambda r: [r[0], r[2], r[1]], "steps 1 and 2 swapped")


# The later layers and losses: real runs that must pass, for machines without torch.
def run(name, model, opt, loss_fn, target, seed):
    torch.manual_seed(seed)
    path = os.path.join(OUT, name + ".jsonl")
    with MlpReceiptWriter(model, opt, loss_fn, out=path, before="every") as w:
        for _ in range(3):
            x = torch.randn(8, model[0].in_features)
            y = target()
            with w.step(x, y):
                opt.zero_grad()
                loss = loss_fn(model(x), y)
                loss.backward()
                opt.step()
    return path


torch.manual_seed(4)
model = nn.Sequential(nn.Linear(6, 12), nn.LayerNorm(12), nn.GELU(), nn.Dropout(0.25), nn.Linear(12, 3))
run("norm-gelu-dropout-sgd", model, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
             nn.CrossEntropyLoss(weight=torch.tensor([0.5, 1.0, 2.0]), label_smoothing=0.1), lambda: torch.randint(0, 3, (8,)), 5)
torch.manual_seed(6)
model = nn.Sequential(nn.Linear(6, 8), nn.GELU(approximate="tanh"), nn.Linear(8, 3))
run("gelu-tanh-bce-adam", model, torch.optim.Adam(model.parameters(), lr=1e-2), nn.BCEWithLogitsLoss(), lambda: torch.rand(8, 3), 7)
torch.manual_seed(8)
model = nn.Sequential(nn.Linear(6, 8), nn.LayerNorm(8, elementwise_affine=False), nn.Tanh(), nn.Linear(8, 2))
run("plain-norm-half-adamw", model, torch.optim.AdamW(model.parameters(), lr=1e-2), HalfSquaredError(reduction="sum"),
    lambda: torch.randn(8, 2), 9)

def mask(recs):
    t = recs[1]["batch"]["tensors"][2]
    vals = struct.unpack(f"<{len(base64.b64decode(t['data'])) // 4}f", base64.b64decode(t["data"]))
    retensor(t, vals.index(1.0), 0.0)
    return recs


def norm_grad(recs):  # LayerNorm's bounds are wider (Welford's worst case): 1e-3 here, not 1e-4
    t = recs[1]["gradients"]["tensors"][2]
    retensor(t, largest(t), 1 + 1e-3)
    return recs


bad("mask", 3, mask, "step 1's first kept entry of mask.layers.0 marked dropped", run="norm-gelu-dropout-sgd")
bad("norm-gradient", 4, norm_grad, "the largest entry of step 1's grad.layers.0.norm.weight times 1 + 1e-3",
    run="norm-gelu-dropout-sgd")


# A learning-rate scheduler (LinearLR, stepped per epoch of two optimizer steps) with
# BCEWithLogitsLoss's pos_weight: a run that passes, a learning rate one ulp off, a last_epoch
# that skips, a pos_weight changed.
torch.manual_seed(10)
model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=2)
loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([0.5, 2.0, 3.0]))
with MlpReceiptWriter(model, opt, loss_fn, out=os.path.join(OUT, "linear-lr-bce-pos-weight.jsonl"), scheduler=sched,
                     before="every") as w:
    for _ in range(3):
        for _ in range(2):
            x, y = torch.randn(4, 4), torch.rand(4, 3)
            with w.step(x, y):
                opt.zero_grad()
                loss_fn(model(x), y).backward()
                opt.step()
        sched.step()


def lr_ulp(recs):
    import math
    recs[3]["step"]["lr"] = math.nextafter(recs[3]["step"]["lr"], 1.0)
    return recs


def epoch_skip(recs):
    for r in recs[4:]:
        r["step"]["last_epoch"] += 1
    return recs


def pos_weight(recs):
    for r in recs:
        r["model"]["loss"]["pos_weight"][1] = 2.5
    return recs


bad("scheduled-lr", 6, lr_ulp, "step 3's lr one ulp above LinearLR's", run="linear-lr-bce-pos-weight")
bad("last-epoch", 6, epoch_skip, "last_epoch from step 4 on one more: 1 then 3", run="linear-lr-bce-pos-weight")
bad("pos-weight", 3, pos_weight, "pos_weight[1] 2.5 where the run's is 2.0", run="linear-lr-bce-pos-weight")
