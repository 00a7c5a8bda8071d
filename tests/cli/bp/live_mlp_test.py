"""bp verify tensor against real PyTorch runs written by the shipped MlpReceiptWriter
(`bp examples pytorch_mlp --print`): a short run per activation (GELU exact and tanh included),
loss (BCEWithLogitsLoss with and without pos_weight, the half squared error, weighted, label-smoothed and ignore_index cross entropy),
LayerNorm and Dropout placement, and optimizer verifies; a gradient entry moved in its 7th
significant digit is caught on each new kind; a flipped Dropout mask entry and a changed pos_weight fail the loss;
a gradient moved in one entry, a parameter changed between steps, a learning rate changed and two
steps swapped are each caught by their rule; malformed receipts exit 2 naming the JSON path; the
writer refuses what bp cannot recompute; a 784-256-10 batch-64 Adam loop split across two files
verifies as one stream; the writer's default leaves `before` out after the first receipt (a later receipt
alone exits 2 naming /before), before="every" keeps it on each."""
import base64
import copy
import hashlib
import json
import math
import os
import struct
import sys
import time

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_common import bp, check, fetch_helper, finish, first_failure, largest_entry, mutate_line, retensor, verify_tensor  # noqa: E402

BP, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
fetch_helper(BP, "pytorch_mlp", WORK)
from pytorch_mlp_trace_helper import HalfSquaredError, MlpReceiptWriter  # noqa: E402

torch.set_num_threads(1)


def train(path, widths, acts, loss_fn, make_opt, steps=3, batch=8, seed=0, resume_from=None, model=None, opt=None, clip=None,
          before="first"):
    torch.manual_seed(seed)
    if model is None:
        mods = []
        for i in range(len(widths) - 1):
            mods.append(nn.Linear(widths[i], widths[i + 1]))
            if acts[i] is not None:  # a module, or a list of them (LayerNorm, activation)
                mods.extend(acts[i] if isinstance(acts[i], list) else [acts[i]])
        model = nn.Sequential(*mods)
    if opt is None:
        opt = make_opt(model.parameters())
    with MlpReceiptWriter(model, opt, loss_fn, out=path, resume_from=resume_from, before=before) as w:
        for _ in range(steps):
            x = torch.randn(batch, widths[0])
            y = (torch.randint(0, widths[-1], (batch,)) if type(loss_fn) is nn.CrossEntropyLoss
                 else torch.rand(batch, widths[-1]) if type(loss_fn) is nn.BCEWithLogitsLoss
                 else torch.randn(batch, widths[-1]))
            if getattr(loss_fn, "ignored_every", 0):  # padding-like samples, left out by the loss
                y[::loss_fn.ignored_every] = loss_fn.ignore_index
            with w.step(x, y):
                opt.zero_grad()
                loss = loss_fn(model(x), y)
                loss.backward()
                if clip is not None:
                    w.clip_grad_norm_(clip)
                opt.step()
    return model, opt


def ignoring(loss_fn, every):
    """loss_fn whose targets train() sets to its ignore_index on every `every`-th sample."""
    loss_fn.ignored_every = every
    return loss_fn


def verify(path_or_bytes, label, want=0):
    return verify_tensor(BP, path_or_bytes, label, want)


def adam(p):
    return torch.optim.Adam(p, lr=1e-2)


# A short run per activation, per loss and per optimizer.
runs = {
    "relu": ([6, 12, 3], [nn.ReLU(), None], nn.CrossEntropyLoss(), adam),
    "leaky_relu": ([6, 12, 3], [nn.LeakyReLU(0.1), None], nn.CrossEntropyLoss(), adam),
    "sigmoid": ([6, 12, 3], [nn.Sigmoid(), None], nn.CrossEntropyLoss(), adam),
    "tanh": ([6, 12, 3], [nn.Tanh(), None], nn.CrossEntropyLoss(), adam),
    "silu": ([6, 12, 3], [nn.SiLU(), None], nn.CrossEntropyLoss(), adam),
    "identity": ([6, 12, 3], [nn.Identity(), None], nn.CrossEntropyLoss(), adam),
    "gelu": ([6, 12, 3], [nn.GELU(), None], nn.CrossEntropyLoss(), adam),
    "gelu_tanh": ([6, 12, 3], [nn.GELU(approximate="tanh"), None], nn.CrossEntropyLoss(), adam),
    "deep": ([5, 9, 7, 11, 4], [nn.Tanh(), nn.ReLU(), nn.SiLU(), None], nn.CrossEntropyLoss(), adam),
    "ce_sum": ([6, 12, 3], [nn.ReLU(), None], nn.CrossEntropyLoss(reduction="sum"), adam),
    "mse_mean": ([6, 12, 3], [nn.Tanh(), None], nn.MSELoss(), adam),
    "mse_sum": ([6, 12, 3], [nn.Tanh(), None], nn.MSELoss(reduction="sum"), adam),
    "half_mean": ([6, 12, 3], [nn.Tanh(), None], HalfSquaredError(), adam),
    "half_sum": ([6, 12, 3], [nn.GELU(), None], HalfSquaredError(reduction="sum"), adam),
    "ce_smooth": ([6, 12, 3], [nn.ReLU(), None], nn.CrossEntropyLoss(label_smoothing=0.1), adam),
    "ce_weight": ([6, 12, 3], [nn.Tanh(), None], nn.CrossEntropyLoss(weight=torch.tensor([0.2, 1.0, 3.5])), adam),
    "ce_weight_smooth": ([6, 12, 3], [nn.GELU(), None],
                         nn.CrossEntropyLoss(weight=torch.tensor([0.7, 1.3, 2.1]), label_smoothing=0.2), adam),
    "ce_weight_smooth_sum": ([6, 12, 3], [nn.SiLU(), None],
                             nn.CrossEntropyLoss(weight=torch.tensor([0.7, 1.3, 2.1]), label_smoothing=0.05, reduction="sum"),
                             lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9)),
    "ce_ignore": ([6, 12, 3], [nn.ReLU(), None], ignoring(nn.CrossEntropyLoss(), 3), adam),  # torch's -100
    "ce_ignore_class": ([6, 12, 3], [nn.GELU(), None],
                        ignoring(nn.CrossEntropyLoss(weight=torch.tensor([0.7, 1.3, 2.1]), label_smoothing=0.1, ignore_index=1), 2),
                        adam),
    "ce_ignore_sum": ([6, 12, 3], [nn.Tanh(), None], ignoring(nn.CrossEntropyLoss(label_smoothing=0.2, reduction="sum"), 3),
                      lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)),
    "layer_norm": ([6, 12, 3], [[nn.LayerNorm(12), nn.ReLU()], None], nn.CrossEntropyLoss(), adam),
    "layer_norm_plain": ([6, 12, 3], [[nn.LayerNorm(12, eps=1e-3, elementwise_affine=False), nn.Tanh()], None], nn.MSELoss(),
                         lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)),
    "layer_norm_deep": ([5, 16, 9, 4], [[nn.LayerNorm(16), nn.GELU()], [nn.LayerNorm(9)], None], nn.CrossEntropyLoss(),
                        lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=0.1)),
    "dropout": ([6, 12, 3], [[nn.GELU(), nn.Dropout(0.3)], None], nn.CrossEntropyLoss(), adam),
    "dropout_ln": ([6, 16, 8, 3], [[nn.LayerNorm(16), nn.ReLU(), nn.Dropout(0.5)], [nn.Tanh(), nn.Dropout(0.2)], None],
                   nn.CrossEntropyLoss(label_smoothing=0.1), lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)),
    "dropout_last": ([6, 12, 3], [nn.Tanh(), nn.Dropout(0.25)], nn.MSELoss(), adam),
    "bce_mean": ([6, 12, 3], [nn.ReLU(), None], nn.BCEWithLogitsLoss(), adam),
    "bce_sum": ([6, 12, 3], [nn.SiLU(), None], nn.BCEWithLogitsLoss(reduction="sum"),
                lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)),
    "bce_pos_weight": ([6, 12, 3], [nn.ReLU(), None], nn.BCEWithLogitsLoss(pos_weight=torch.tensor([0.3, 1.0, 4.5])), adam),
    "bce_pos_weight_sum": ([6, 12, 3], [nn.Tanh(), None], nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 0.5, 1.7]), reduction="sum"),
                           lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)),
    "sgd_plain": ([6, 12, 3], [nn.ReLU(), None], nn.CrossEntropyLoss(), lambda p: torch.optim.SGD(p, lr=0.1)),
    "sgd_momentum": ([6, 12, 3], [nn.ReLU(), None], nn.CrossEntropyLoss(),
                     lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.1, weight_decay=1e-3)),
    "sgd_nesterov": ([6, 12, 3], [nn.Tanh(), None], nn.CrossEntropyLoss(),
                     lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-3)),
    "adam_wd_amsgrad": ([6, 12, 3], [nn.ReLU(), None], nn.CrossEntropyLoss(),
                        lambda p: torch.optim.Adam(p, lr=1e-2, weight_decay=1e-2, amsgrad=True)),
    "adamw": ([6, 12, 3], [nn.SiLU(), None], nn.CrossEntropyLoss(), lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=0.1)),
    "adamw_amsgrad": ([6, 12, 3], [nn.Sigmoid(), None], nn.MSELoss(),
                      lambda p: torch.optim.AdamW(p, lr=1e-2, amsgrad=True)),
}
runs["clip_acts"] = ([6, 12, 3], [nn.ReLU(), None], nn.CrossEntropyLoss(), adam, 0.05)  # clips every step
runs["clip_idle"] = ([6, 12, 3], [nn.Tanh(), None], nn.CrossEntropyLoss(),
                     lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), 1e6)  # never clips
for name, (widths, acts, loss_fn, make_opt, *clip) in runs.items():
    path = os.path.join(WORK, f"{name}.jsonl")
    train(path, widths, acts, loss_fn, make_opt, clip=clip[0] if clip else None)
    rep = verify(path, name)
    check(rep.get("receipts") == 3, f"{name}: three receipts verified: {rep}")

# Tampering, on the relu run: each is caught by its own rule, and the failure names the place.
with open(os.path.join(WORK, "relu.jsonl"), "rb") as f:
    lines = f.read().splitlines()


def mutated(line_no, fn):
    return mutate_line(lines, line_no, fn)


def seventh_digit_caught(name, tensor=2, steps=(1,)):
    """The largest entry of a gradient (default: the last layer's weight, the best conditioned)
    moved by 5 units of its 7th significant digit, on each given step, is caught at that entry:
    by rule 4 where the backward's bound is that tight, else by rule 5, whose update starts from
    the stored gradient (the optimizer state after the step is torch's, from the true one)."""
    with open(os.path.join(WORK, f"{name}.jsonl"), "rb") as f:
        recs = [json.loads(l) for l in f.read().splitlines()]
    for step in steps:
        moved = copy.deepcopy(recs)
        t = moved[step]["gradients"]["tensors"][tensor]
        at = largest_entry(t)
        data = bytearray(base64.b64decode(t["data"]))
        (v,) = struct.unpack_from("<f", data, 4 * at)
        w = v + math.copysign(5 * 10.0 ** (math.floor(math.log10(abs(v))) - 6), v)
        struct.pack_into("<f", data, 4 * at, w)
        t["data"], t["sha256"] = base64.b64encode(bytes(data)).decode(), hashlib.sha256(bytes(data)).hexdigest()
        rep = verify(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in moved), f"{name}: 7th digit moved", want=1)
        f = first_failure(rep)
        check(f.get("rule") in (4, 5) and f.get("tensor", "").endswith(t["name"]) and f.get("index") == at and f.get("step") == step,
              f"{name}: {t['name']}[{at}] {v!r} -> {struct.unpack('<f', struct.pack('<f', w))[0]!r} (7th digit) caught: {f}")
        print(f"{name}: step {step} {t['name']}[{at}] moved in its 7th digit: rule {f.get('rule')} on {f.get('tensor')}, "
              f"bound {f.get('bound')}")


for name in ("relu", "gelu", "gelu_tanh", "half_mean", "bce_mean", "bce_pos_weight", "bce_pos_weight_sum", "ce_smooth", "ce_weight",
             "ce_weight_smooth", "ce_ignore", "ce_ignore_class"):
    seventh_digit_caught(name)
seventh_digit_caught("layer_norm", tensor=4)  # layers.1.weight: layer 0 has weight, bias, norm.weight, norm.bias
seventh_digit_caught("layer_norm", tensor=2)  # layers.0.norm.weight
seventh_digit_caught("layer_norm_plain")
seventh_digit_caught("dropout")
seventh_digit_caught("dropout_ln", tensor=4)

# Dropout's mask: recorded, used by the recomputed forward; one kept entry marked dropped is
# caught by the loss (rule 3, the first the changed forward reaches), and a mask entry that is
# neither 0 nor 1 is malformed.
with open(os.path.join(WORK, "dropout.jsonl"), "rb") as f:
    drop_lines = f.read().splitlines()
mask0 = json.loads(drop_lines[1])["batch"]["tensors"][2]
check(mask0["name"] == "mask.layers.0" and mask0["shape"] == [8, 12], f"dropout: the mask is recorded: {mask0['name']} {mask0['shape']}")
mask_vals = struct.unpack("<96f", base64.b64decode(mask0["data"]))
check(set(mask_vals) == {0.0, 1.0} and 0 < mask_vals.count(0.0) < 96, f"dropout: the mask holds 0s and 1s: {mask_vals.count(0.0)} dropped")
kept = mask_vals.index(1.0)
flipped = [json.loads(l) for l in drop_lines]
retensor(flipped[1]["batch"]["tensors"][2], kept, 0.0)
rep = verify(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in flipped), "dropout mask entry flipped", want=1)
f = first_failure(rep)
check(f.get("rule") == 3 and f.get("step") == 1, f"dropout mask entry {kept} flipped: rule 3 (loss) at step 1: {f}")
print(f"dropout: mask entry {kept} of step 1 flipped: rule {f.get('rule')} {f.get('tensor')}, stored {f.get('stored')}, "
      f"recomputed {f.get('recomputed')}, bound {f.get('bound')}")
halved = [json.loads(l) for l in drop_lines]
retensor(halved[1]["batch"]["tensors"][2], kept, 0.5)
r = bp(BP, "verify", "tensor", "-", stdin=b"".join(json.dumps(x, separators=(",", ":")).encode() + b"\n" for x in halved))
check(r.returncode == 2 and b"/batch/tensors/2/data" in r.stderr and b"neither 0 nor 1" in r.stderr,
      f"dropout mask entry 0.5: malformed, exit 2: {r.returncode} {r.stderr.decode()[-300:]}")

# BCEWithLogitsLoss's pos_weight: recorded; one weight changed in the receipt, the loss fails.
with open(os.path.join(WORK, "bce_pos_weight.jsonl"), "rb") as f:
    pw_lines = f.read().splitlines()
pw = json.loads(pw_lines[0])["model"]["loss"]
check(pw.get("pos_weight") == [float(torch.tensor(v)) for v in (0.3, 1.0, 4.5)], f"bce_pos_weight: recorded as fp32 values: {pw}")
pw_moved = mutate_line(pw_lines, 0, lambda r: r["model"]["loss"].__setitem__("pos_weight", [0.3125, 1.0, 4.5]))
f = first_failure(verify(pw_moved, "pos_weight changed", want=1))
check(f.get("rule") == 3 and f.get("step") == 0, f"pos_weight changed: rule 3 (loss) at step 0: {f}")
r = bp(BP, "verify", "tensor", "-", stdin=mutate_line(lines, 0, lambda r: r["model"]["loss"].__setitem__("pos_weight", [1.0, 1.0, 1.0])))
check(r.returncode == 2 and b"/model/loss/pos_weight" in r.stderr and b"bce_with_logits only" in r.stderr,
      f"pos_weight on cross_entropy: malformed: {r.returncode} {r.stderr.decode()[-300:]}")

# CrossEntropyLoss's ignore_index: recorded (torch's default -100 too); an ignored sample's
# target made a class fails the loss; without the recorded index such a target is malformed.
with open(os.path.join(WORK, "ce_ignore.jsonl"), "rb") as f:
    ig_lines = f.read().splitlines()
check(json.loads(ig_lines[0])["model"]["loss"].get("ignore_index") == -100, "ce_ignore: ignore_index -100 recorded")
ig_target = json.loads(ig_lines[1])["batch"]["tensors"][1]
check(struct.unpack("<8f", base64.b64decode(ig_target["data"]))[0] == -100.0, f"ce_ignore: sample 0 is ignored: {ig_target}")
f = first_failure(verify(mutate_line(ig_lines, 1, lambda r: retensor(r["batch"]["tensors"][1], 0, 0.0)), "ignored target counted", want=1))
check(f.get("rule") == 3 and f.get("step") == 1, f"an ignored sample's target made class 0: rule 3 (loss) at step 1: {f}")
r = bp(BP, "verify", "tensor", "-", stdin=mutate_line(ig_lines, 0, lambda r: r["model"]["loss"].pop("ignore_index")))
check(r.returncode == 2 and b"/batch/tensors/1/data" in r.stderr and b"not a class index" in r.stderr,
      f"target -100 without ignore_index: malformed, exit 2: {r.returncode} {r.stderr.decode()[-300:]}")
r = bp(BP, "verify", "tensor", "-", stdin=mutate_line(ig_lines, 0, lambda r: r["model"]["loss"].__setitem__("ignore_index", 1 << 24)))
check(r.returncode == 2 and b"/model/loss/ignore_index" in r.stderr, f"ignore_index 2^24: malformed: {r.returncode} {r.stderr.decode()[-300:]}")

# A last-layer weight gradient's largest entry, moved by 1e-4 of itself (its bound is a few 1e-6).
g = json.loads(lines[1])["gradients"]["tensors"][2]
at = largest_entry(g)
rep = verify(mutated(1, lambda r: retensor(r["gradients"]["tensors"][2], at, 1 + 1e-4)), "gradient moved", want=1)
f = first_failure(rep)
check(f.get("rule") == 4 and f.get("tensor") == "grad.layers.1.weight" and f.get("index") == at and f.get("step") == 1,
      f"gradient moved: rule 4 names step 1, grad.layers.1.weight[{at}]: {f}")
check(all(f.get(k) for k in ("stored", "recomputed", "bound")), f"gradient moved: stored, recomputed, bound given: {f}")
# The writer's default (before="first"): the state before the step on the first receipt only; a
# later receipt alone is refused naming what it misses. before="every": on each receipt, and a
# parameter changed between two steps fails continuity.
check("before" in json.loads(lines[0]) and not any("before" in json.loads(l) for l in lines[1:]),
      "before='first': only the first receipt carries the state before its step")
r = bp(BP, "verify", "tensor", "-", stdin=lines[1] + b"\n" + lines[2] + b"\n")
check(r.returncode == 2 and b"<stdin>:1: /before: missing: receipt 1 continues the previous receipt" in r.stderr
      and r.stderr.count(b"\n") == 1, f"a later receipt without its first: exit 2, one line naming /before: {r.returncode} {r.stderr.decode()[-300:]}")
every = os.path.join(WORK, "relu_every.jsonl")
train(every, *runs["relu"][:4], before="every")
with open(every, "rb") as f:
    every_lines = f.read().splitlines()
check(all("before" in json.loads(l) for l in every_lines) and len(every_lines[1]) > len(lines[1]),
      "before='every': each receipt carries the state before its step")
check(verify(every, "before='every'").get("receipts") == 3, "before='every': verifies")
try:
    MlpReceiptWriter(nn.Sequential(nn.Linear(2, 2)), torch.optim.SGD([torch.zeros(1)], lr=1), nn.MSELoss(),
                     out=os.path.join(WORK, "x.jsonl"), before="last")
    check(False, "writer refuses before='last'")
except ValueError as e:
    check("before='last'" in str(e) and "'first' or 'every'" in str(e), f"writer refuses before='last', naming the choices: {e}")
rep = verify(mutate_line(every_lines, 1, lambda r: retensor(r["before"]["tensors"][0], 0, 1.5)), "parameter changed between steps", want=1)
check(first_failure(rep).get("rule") == 2, f"parameter changed between steps: rule 2 first: {first_failure(rep)}")
rep = verify(mutated(2, lambda r: r["step"].__setitem__("lr", 0.02)), "learning rate changed", want=1)
check(first_failure(rep).get("rule") == 6, f"learning rate changed: rule 6 first: {first_failure(rep)}")
swapped = b"\n".join([lines[0], lines[2], lines[1]]) + b"\n"
with open(os.path.join(WORK, "clip_acts.jsonl"), "rb") as f:
    clip_lines = f.read().splitlines()
check(json.loads(clip_lines[0])["step"]["clip"]["total_norm"] > 0.05, "clip_acts: the norm exceeds max_norm (the clip acts)")
clip_moved = [json.loads(l) for l in clip_lines]
clip_moved[1]["step"]["clip"]["total_norm"] *= 1.001
rep = verify(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in clip_moved), "clip norm changed", want=1)
check(first_failure(rep).get("rule") == 7, f"clip norm changed: rule 7 first: {first_failure(rep)}")
clip_dropped = [json.loads(l) for l in clip_lines]
clip_dropped[1]["step"]["clip"] = None
rep = verify(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in clip_dropped), "clip unrecorded", want=1)
check(first_failure(rep).get("rule") == 5, f"clip unrecorded: the update fails: {first_failure(rep)}")
rep = verify(swapped, "two steps swapped", want=1)
check(first_failure(rep).get("rule") == 1, f"two steps swapped: rule 1 first: {first_failure(rep)}")

# Malformed receipts: exit 2, the message names the JSON path.
for label, fn, where in [
    ("dtype", lambda r: r["batch"]["tensors"][0].__setitem__("dtype", "f16"), "/batch/tensors/0/dtype"),
    ("activation", lambda r: r["model"]["layers"][0].__setitem__("activation", "elu"), "/model/layers/0/activation"),
    ("digest", lambda r: r["after"]["tensors"][1].__setitem__("sha256", "0" * 64), "/after/tensors/1/sha256"),
    ("unknown key", lambda r: r["step"].__setitem__("clip", 1.0), "/step"),
]:
    r = bp(BP, "verify", "tensor", "-", stdin=mutated(0, fn))
    check(r.returncode == 2 and where.encode() in r.stderr, f"malformed {label}: exit {r.returncode}, names {where}: {r.stderr.decode()[-300:]}")

# The writer refuses what bp cannot recompute, before training, saying what it supports.
def writer_for(model, make_opt, loss_fn):
    return lambda: MlpReceiptWriter(model, make_opt(model.parameters()), loss_fn, out=os.path.join(WORK, "x.jsonl"))


for label, build, needle in [
    ("ELU", writer_for(nn.Sequential(nn.Linear(2, 2), nn.ELU()), lambda p: torch.optim.SGD(p, lr=1), nn.MSELoss()), "ELU"),
    ("RMSprop", writer_for(nn.Sequential(nn.Linear(2, 2)), lambda p: torch.optim.RMSprop(p), nn.MSELoss()), "RMSprop"),
    ("LayerNorm after the activation", writer_for(nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.LayerNorm(2)),
                                                  lambda p: torch.optim.SGD(p, lr=1), nn.MSELoss()), "LayerNorm"),
    ("LayerNorm over two dims", writer_for(nn.Sequential(nn.Linear(2, 4), nn.LayerNorm([2, 2])), lambda p: torch.optim.SGD(p, lr=1),
                                           nn.MSELoss()), "LayerNorm"),
    ("Dropout inplace", writer_for(nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Dropout(0.5, inplace=True)),
                                   lambda p: torch.optim.SGD(p, lr=1), nn.MSELoss()), "inplace"),
    ("Dropout before the activation", writer_for(nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5), nn.ReLU()),
                                                 lambda p: torch.optim.SGD(p, lr=1), nn.MSELoss()), "ReLU"),
    ("ignore_index past 2^24", writer_for(nn.Sequential(nn.Linear(2, 2)), lambda p: torch.optim.SGD(p, lr=1),
                                          nn.CrossEntropyLoss(ignore_index=1 << 24)), "ignore_index"),
    ("BCEWithLogitsLoss pos_weight of one value", writer_for(nn.Sequential(nn.Linear(2, 2)), lambda p: torch.optim.SGD(p, lr=1),
                                                             nn.BCEWithLogitsLoss(pos_weight=torch.ones(1))), "pos_weight"),
    ("BCEWithLogitsLoss weight", writer_for(nn.Sequential(nn.Linear(2, 2)), lambda p: torch.optim.SGD(p, lr=1),
                                            nn.BCEWithLogitsLoss(weight=torch.ones(2))), "weight"),
    ("HuberLoss", writer_for(nn.Sequential(nn.Linear(2, 2)), lambda p: torch.optim.SGD(p, lr=1), nn.HuberLoss()), "HuberLoss"),
]:
    try:
        build()
        check(False, f"writer refuses {label}")
    except ValueError as e:
        check(needle in str(e) and "Supported:" in str(e), f"writer refuses {label}, naming it and listing what it supports: {e}")

# The README's MNIST-sized loop, shorter: 784-256-10, batch 64, Adam, generated data, split across
# two files that chain by digest and verify as one stream.
part1, part2 = os.path.join(WORK, "mnist1.jsonl"), os.path.join(WORK, "mnist2.jsonl")
t0 = time.perf_counter()
model, opt = train(part1, [784, 256, 10], [nn.ReLU(), None], nn.CrossEntropyLoss(), lambda p: torch.optim.Adam(p, lr=1e-3), steps=2, batch=64)
train(part2, [784, 256, 10], None, nn.CrossEntropyLoss(), lambda p: torch.optim.Adam(p, lr=1e-3), steps=1, batch=64,
      resume_from=part1, model=model, opt=opt)
with open(part1, "rb") as a, open(part2, "rb") as b:
    stream = a.read() + b.read()
t1 = time.perf_counter()
rep = verify(stream, "784-256-10 in two files")
t2 = time.perf_counter()
check(rep.get("receipts") == 3 and rep.get("first_index") == 0, f"784-256-10: three receipts from index 0: {rep.get('receipts')}")
print(f"784-256-10 batch 64 Adam: 3 steps written in {t1 - t0:.2f} s, verified in {t2 - t1:.2f} s")
rep = verify(part2, "second file alone")
check(rep.get("first_index") == 2, f"second file alone: starts at receipt 2: {rep.get('first_index')}")

# The receipts and reports against schemas/ (Debian's jsonschema).
import jsonschema  # noqa: E402

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas")
for schema_name, docs in [("tensor-step.v0.2.0.json", [json.loads(l) for l in lines] +
                           [json.loads(l) for l in open(os.path.join(WORK, "gelu_tanh.jsonl"), "rb").read().splitlines()] +
                           [json.loads(l) for l in open(os.path.join(WORK, "bce_sum.jsonl"), "rb").read().splitlines()] +
                           [json.loads(l) for l in open(os.path.join(WORK, "bce_pos_weight.jsonl"), "rb").read().splitlines()] +
                           [json.loads(l) for l in open(os.path.join(WORK, "ce_weight_smooth.jsonl"), "rb").read().splitlines()] +
                           [json.loads(l) for l in open(os.path.join(WORK, "layer_norm_deep.jsonl"), "rb").read().splitlines()] +
                           [json.loads(l) for l in open(os.path.join(WORK, "layer_norm_plain.jsonl"), "rb").read().splitlines()] +
                           [json.loads(l) for l in open(os.path.join(WORK, "dropout_ln.jsonl"), "rb").read().splitlines()] +
                           [json.loads(l) for l in open(os.path.join(WORK, "half_mean.jsonl"), "rb").read().splitlines()] +
                           [json.loads(l) for l in open(os.path.join(WORK, "sgd_momentum.jsonl"), "rb").read().splitlines()]),
                          ("bp-verify-tensor-report.v0.1.0.json", [verify(os.path.join(WORK, "relu.jsonl"), "report"),
                                                                   verify(swapped, "report of a failure", want=1)])]:
    with open(os.path.join(SCHEMAS, schema_name)) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for doc in docs:
        errs = list(validator.iter_errors(doc))
        check(not errs, f"{schema_name} accepts what bp writes/reads: {errs[0].json_path + ': ' + errs[0].message if errs else ''}")
bad = json.loads(lines[0])
bad["model"]["layers"][0]["activation"] = "elu"
check(list(jsonschema.Draft202012Validator(json.load(open(os.path.join(SCHEMAS, "tensor-step.v0.2.0.json"))))
           .iter_errors(bad)), "tensor-step.v0.2.0.json rejects an unsupported activation")

finish("live_mlp_test")
