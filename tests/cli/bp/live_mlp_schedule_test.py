"""bp verify tensor on PyTorch runs with learning-rate schedulers (MlpReceiptWriter(...,
scheduler=s), `bp examples pytorch_mlp --print`), against real torch: StepLR, MultiStepLR (a
repeated milestone: gamma ** 2), ExponentialLR stepped per epoch of three optimizer steps,
CosineAnnealingLR through its trough and its restart branch, LinearLR with Adam; each run verifies,
also a run's second half alone (replayed from epoch 0) and a run split across two files; a StepLR
stepped inside the writer's step draws no torch warning about optimizer.step(). A
learning rate moved by one fp64 ulp or in its 7th significant digit, and a last_epoch that skips or
goes back, fail rule 6; the writer refuses the schedulers bp does not recompute, naming them and
listing the supported ones, and scheduler.step(epoch) when it is called (the receipts before it
verify)."""
import json
import math
import os
import sys
import warnings

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_common import check, fetch_helper, finish, first_failure, mutate_line, verify_tensor  # noqa: E402

BP, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
fetch_helper(BP, "pytorch_mlp", WORK)
from pytorch_mlp_trace_helper import MlpReceiptWriter  # noqa: E402

torch.set_num_threads(1)
sch = torch.optim.lr_scheduler


def net():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 2))


def train(path, make_opt, make_sched, epochs, per_epoch=1, model=None, opt=None, sched=None, resume_from=None, inside=False):
    """`epochs` epochs of `per_epoch` optimizer steps, the scheduler stepped after each epoch
    (inside: within the writer's step, right after optimizer.step())."""
    if model is None:
        model = net()
        opt = make_opt(model.parameters())
        sched = make_sched(opt)
    loss_fn = nn.MSELoss()
    # before="every": the second half of a run must verify alone (below)
    with MlpReceiptWriter(model, opt, loss_fn, out=path, scheduler=sched, resume_from=resume_from, before="every") as w:
        for _ in range(epochs):
            for _ in range(per_epoch):
                x, y = torch.randn(4, 4), torch.randn(4, 2)
                with w.step(x, y):
                    opt.zero_grad()
                    loss_fn(model(x), y).backward()
                    opt.step()
                    if inside:
                        sched.step()
            if not inside:
                sched.step()
    return model, opt, sched


def sgd(p):
    return torch.optim.SGD(p, lr=0.1, momentum=0.9)


runs = {
    "step": (sgd, lambda o: sch.StepLR(o, step_size=2, gamma=0.5), 6, 1),
    "multi_step": (sgd, lambda o: sch.MultiStepLR(o, milestones=[3, 1, 3], gamma=0.3), 5, 1),
    "exponential_per_epoch": (sgd, lambda o: sch.ExponentialLR(o, gamma=0.7), 3, 3),
    "cosine": (sgd, lambda o: sch.CosineAnnealingLR(o, T_max=3, eta_min=0.01), 9, 1),
    "linear": (lambda p: torch.optim.Adam(p, lr=1e-2), lambda o: sch.LinearLR(o, start_factor=0.25, total_iters=3), 5, 1),
}
lines = {}
for name, (make_opt, make_sched, epochs, per_epoch) in runs.items():
    path = os.path.join(WORK, f"{name}.jsonl")
    with warnings.catch_warnings(record=True) as caught_warnings:
        warnings.simplefilter("always")
        # StepLR steps inside the writer's step: torch's check that optimizer.step() ran first
        # must still see its own counting wrapper (no "overridden" warning).
        train(path, make_opt, make_sched, epochs, per_epoch, inside=name == "step")
    check(not [w for w in caught_warnings if "optimizer.step()" in str(w.message)],
          f"{name}: torch warns of no optimizer.step() override: {[str(w.message)[:80] for w in caught_warnings]}")
    rep = verify_tensor(BP, path, name)
    check(rep.get("receipts") == epochs * per_epoch, f"{name}: {epochs * per_epoch} receipts verified: {rep}")
    with open(path, "rb") as f:
        lines[name] = f.read().splitlines()
    recs = [json.loads(l) for l in lines[name]]
    lrs = [r["step"]["lr"] for r in recs]
    check(len(set(lrs)) >= 3, f"{name}: the learning rate changes: {lrs}")
    check([r["step"]["last_epoch"] for r in recs] == [e for e in range(epochs) for _ in range(per_epoch)],
          f"{name}: last_epoch counts the scheduler's steps: {[r['step']['last_epoch'] for r in recs]}")
    print(f"{name}: {recs[0]['model']['scheduler']} lr {lrs}")
check(json.loads(lines["multi_step"][0])["model"]["scheduler"]["milestones"] == [1, 3, 3], "multi_step: milestones sorted, repeats kept")

# The second half of a run alone: its first receipt is replayed from epoch 0.
for name in runs:
    half = b"".join(l + b"\n" for l in lines[name][3:])
    verify_tensor(BP, half, f"{name}: from receipt 3 alone")

# A run split across two files with resume_from: one stream.
part1, part2 = os.path.join(WORK, "split1.jsonl"), os.path.join(WORK, "split2.jsonl")
m, o, s = train(part1, sgd, lambda o: sch.CosineAnnealingLR(o, T_max=4), 3)
train(part2, None, None, 3, model=m, opt=o, sched=s, resume_from=part1)
with open(part1, "rb") as a, open(part2, "rb") as b:
    rep = verify_tensor(BP, a.read() + b.read(), "cosine split across two files")
check(rep.get("receipts") == 6, f"split: six receipts: {rep.get('receipts')}")


def caught(name, line_no, fn, label, tensor="lr"):
    rep = verify_tensor(BP, mutate_line(lines[name], line_no, fn), f"{name}: {label}", want=1)
    f = first_failure(rep)
    check(f.get("rule") == 6 and f.get("tensor") == tensor and f.get("step") == line_no,
          f"{name}: {label}: rule 6 on {tensor} at step {line_no}: {f}")
    print(f"{name}: {label}: rule {f.get('rule')} {f.get('tensor')} stored {f.get('stored')} recomputed {f.get('recomputed')} "
          f"bound {f.get('bound')}")


def scale_lr(factor):
    return lambda r: r["step"].__setitem__("lr", r["step"]["lr"] * factor)


def ulp_lr(r):
    r["step"]["lr"] = math.nextafter(r["step"]["lr"], math.inf)


for name in runs:
    caught(name, 4, scale_lr(1 + 1e-7), "lr moved in its 7th digit")
    caught(name, 0, scale_lr(1 + 1e-7), "first lr moved in its 7th digit")
for name in ("step", "multi_step", "exponential_per_epoch", "linear"):  # no libm call: bound 0
    caught(name, 4, ulp_lr, "lr moved by one ulp")
# cos may differ by an ulp between Python's libm and bp's: the bound is a few ulps (4 here); 1e-14 is far outside it.
caught("cosine", 2, scale_lr(1 + 1e-14), "lr moved by 1e-14 of itself")
caught("step", 3, lambda r: r["step"].__setitem__("last_epoch", 4), "last_epoch skips one", tensor="last_epoch")
caught("exponential_per_epoch", 4, lambda r: r["step"].__setitem__("last_epoch", 0), "last_epoch goes back", tensor="last_epoch")
# The scheduler's settings are part of the model: changed on one receipt, continuity (rule 2) fails.
rep = verify_tensor(BP, mutate_line(lines["step"], 2, lambda r: r["model"]["scheduler"].__setitem__("gamma", 0.6)),
                    "step: gamma changed on one receipt", want=1)
check(first_failure(rep).get("rule") == 2, f"step: gamma changed on one receipt: rule 2 first: {first_failure(rep)}")

# Malformed: a last_epoch without a scheduler, a scheduler without last_epoch, an unknown kind.
for label, fn, where in [
    ("last_epoch missing", lambda r: r["step"].pop("last_epoch"), "/step/last_epoch"),
    ("unknown kind", lambda r: r["model"]["scheduler"].__setitem__("kind", "one_cycle"), "/model/scheduler/kind"),
    ("milestones unsorted", lambda r: r["model"]["scheduler"].__setitem__("milestones", [3, 1]), "/model/scheduler/milestones/1"),
]:
    rep = verify_tensor(BP, mutate_line(lines["multi_step"], 0, fn), f"malformed: {label}", want=2)
    check(f": {where}: " in json.dumps(rep), f"malformed {label}: names {where}: {rep}")

# What the writer refuses, before training, naming it and listing what it supports.
def writer_with(make_sched, stepped=False):
    def build():
        model = net()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        s = make_sched(opt)
        if stepped:
            opt.step()
            s.step()
        MlpReceiptWriter(model, opt, nn.MSELoss(), out=os.path.join(WORK, "x.jsonl"), scheduler=s)
    return build


for label, build, needle in [
    ("LambdaLR", writer_with(lambda o: sch.LambdaLR(o, lambda e: 0.9 ** e)), "LambdaLR"),
    ("MultiplicativeLR", writer_with(lambda o: sch.MultiplicativeLR(o, lambda e: 0.9)), "MultiplicativeLR"),
    ("ChainedScheduler", writer_with(lambda o: sch.ChainedScheduler([sch.StepLR(o, 2), sch.ExponentialLR(o, 0.9)])), "ChainedScheduler"),
    ("SequentialLR", writer_with(lambda o: sch.SequentialLR(o, [sch.StepLR(o, 2), sch.ExponentialLR(o, 0.9)], milestones=[2])),
     "SequentialLR"),
    ("ReduceLROnPlateau", writer_with(lambda o: sch.ReduceLROnPlateau(o)), "ReduceLROnPlateau"),
    ("OneCycleLR", writer_with(lambda o: sch.OneCycleLR(o, max_lr=0.1, total_steps=10)), "OneCycleLR"),
    ("CyclicLR", writer_with(lambda o: sch.CyclicLR(o, base_lr=0.01, max_lr=0.1)), "CyclicLR"),
    ("a stepped StepLR", writer_with(lambda o: sch.StepLR(o, 2), stepped=True), "before training"),
    ("a StepLR with a float step_size", writer_with(lambda o: sch.StepLR(o, 2.5)), "step_size=2.5"),
    ("a CosineAnnealingLR with a float T_max", writer_with(lambda o: sch.CosineAnnealingLR(o, 4.0)), "T_max=4.0"),
    ("a StepLR on another optimizer", writer_with(lambda o: sch.StepLR(torch.optim.SGD(net().parameters(), lr=0.1), 2)),
     "not on the writer's optimizer"),
]:
    try:
        build()
        check(False, f"writer refuses {label}")
    except ValueError as e:
        check(needle in str(e) and "scheduler: none, StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LinearLR" in str(e),
              f"writer refuses {label}, naming it and listing the supported schedulers: {e}")

# scheduler.step(epoch): refused when called, before the scheduler moves; what was written verifies.
model = net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
s = sch.StepLR(opt, 2)
mse = nn.MSELoss()
epoch_path = os.path.join(WORK, "step_epoch.jsonl")
try:
    with MlpReceiptWriter(model, opt, mse, out=epoch_path, scheduler=s) as w:
        for epoch in range(3):
            x, y = torch.randn(4, 4), torch.randn(4, 2)
            with w.step(x, y):
                opt.zero_grad()
                mse(model(x), y).backward()
                opt.step()
            s.step(epoch + 1) if epoch == 1 else s.step()
    check(False, "scheduler.step(epoch) refused")
except ValueError as e:
    check("scheduler.step(epoch)" in str(e) and s.last_epoch == 1, f"scheduler.step(epoch) refused before it moved: {e}; {s.last_epoch}")
check(verify_tensor(BP, epoch_path, "the receipts before scheduler.step(epoch)").get("receipts") == 2,
      "the two receipts written before scheduler.step(epoch) verify")

# The receipts against schemas/ (Debian's jsonschema).
import jsonschema  # noqa: E402

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas")
with open(os.path.join(SCHEMAS, "tensor-step.v0.2.0.json")) as f:
    validator = jsonschema.Draft202012Validator(json.load(f))
for name in runs:
    for l in lines[name][:2]:
        errs = list(validator.iter_errors(json.loads(l)))
        check(not errs, f"tensor-step.v0.2.0.json accepts {name}: {errs[0].json_path + ': ' + errs[0].message if errs else ''}")

finish("live_mlp_schedule_test")
