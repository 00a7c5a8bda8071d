"""Real PyTorch steps through bp's live helper (apps/bp/extract/pytorch.py, fetched with
`bp examples pytorch --print`), imported and verified by the built bp.

For each optimizer the helper supports, a small network trains several steps; the sidecars are
imported multi-step, line by line and (plain SGD) batched, and must agree with bp's engine and
pass bp verify multi. Then one gradient, one momentum buffer and one learning rate are tampered
with in turn and each must be caught (exit 1, Rule 14 differential). The helper must refuse what
it cannot describe. Usage: live_pytorch_test.py BP WORKDIR
"""
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import live_common as lc  # noqa: E402

BP, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
lc.fetch_helper(BP, "pytorch", WORK)

import torch  # noqa: E402
import pytorch_trace_helper as helper  # noqa: E402

torch.use_deterministic_algorithms(True)
TRACE = "5e1f0c2a9b8d47e6a3c1f0e9d8b7a6c5"


def network(dtype, out_act=True, n_in=2, n_h=3, n_out=2, act=torch.nn.Sigmoid):
    torch.manual_seed(7)
    layers = [torch.nn.Linear(n_in, n_h), act(), torch.nn.Linear(n_h, n_out)]
    if out_act:
        layers.append(torch.nn.Sigmoid())
    return torch.nn.Sequential(*layers).to(dtype)


def train(path, make_opt, dtype=torch.float64, steps=4, batch=1, loss="half", warmup=0, act=torch.nn.Sigmoid,
          trace_id=TRACE, sizes=None, flush_every=256, capture=False):
    ce = loss == "ce"
    model = network(dtype, out_act=not ce, act=act, n_out=3 if ce else 2)
    opt = make_opt(model.parameters())
    loss_fn = torch.nn.CrossEntropyLoss() if ce else helper.half_squared_error
    gen = torch.Generator().manual_seed(3)
    data = []
    for k in range(steps + warmup):
        batch = sizes[k] if sizes else batch
        x = torch.rand(batch, 2, generator=gen, dtype=dtype) * 2 + 0.5
        y = torch.randint(0, 3, (batch,), generator=gen) if ce else torch.rand(batch, 2, generator=gen, dtype=dtype)
        data.append((x, y))
    for x, y in data[:warmup]:  # steps taken before recording starts
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    with helper.TraceDumper(model, opt, loss_fn, out=path, trace_id=trace_id, flush_every=flush_every,
                            capture=capture) as dumper:
        for x, y in data[warmup:]:
            with dumper.step(x, y):
                opt.zero_grad()
                out = loss_fn(model(x), y)
                out.backward()
                opt.step()
    return None if capture else lc.read_lines(path)


OPTIMIZERS = {
    "sgd": (lambda p: torch.optim.SGD(p, lr=0.5), 0),
    "sgd-weight-decay": (lambda p: torch.optim.SGD(p, lr=0.5, weight_decay=0.01), 0),
    "sgd-momentum": (lambda p: torch.optim.SGD(p, lr=0.3, momentum=0.9), 0),
    "sgd-momentum-dampening": (lambda p: torch.optim.SGD(p, lr=0.3, momentum=0.9, dampening=0.2), 1),
    "sgd-nesterov": (lambda p: torch.optim.SGD(p, lr=0.3, momentum=0.8, nesterov=True), 0),
    "sgd-momentum-weight-decay": (lambda p: torch.optim.SGD(p, lr=0.3, momentum=0.9, weight_decay=0.02), 0),
    "adam": (lambda p: torch.optim.Adam(p, lr=0.01), 0),
    "adamw": (lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.05), 0),
}

records = {}
for name, (make, warmup) in OPTIMIZERS.items():
    for dtype in (torch.float64, torch.float32):
        label = f"{name}/{str(dtype).split('.')[-1]}"
        path = os.path.join(WORK, f"{name}-{label.split('/')[1]}.jsonl")
        recs = train(path, make, dtype=dtype, warmup=warmup)
        lc.check(len(recs) == 4 and [r["step_index"] for r in recs] == [0, 1, 2, 3], f"{label}: 4 dense steps")
        lc.check(all(not any(k in str(r) for k in ("passed", "verdict", "expected_outcome")) for r in recs),
                 f"{label}: no verdict vocabulary in the sidecar")
        lc.expect_agreement(BP, "pytorch", path, label)
        records[label] = recs
lc.check(records["sgd-weight-decay/float64"][0]["format"] == "framework-trace.v0.8.0", "SGD weight decay: v0.8.0")
lc.check(records["adam/float64"][0]["format"] == "framework-trace.v0.7.0", "Adam: v0.7.0")
lc.check(records["adam/float64"][2]["optimizer"]["t"] == 3, "Adam: t counts PyTorch's steps")

# Softmax cross-entropy, ReLU hidden layer, single samples and batches (plain SGD: bp's batched engine).
for batch in (1, 6):
    for dtype in (torch.float64, torch.float32):
        label = f"ce-relu-batch{batch}/{str(dtype).split('.')[-1]}"
        path = os.path.join(WORK, label.replace("/", "-") + ".jsonl")
        recs = train(path, lambda p: torch.optim.SGD(p, lr=0.4), dtype=dtype, batch=batch, loss="ce",
                     act=torch.nn.ReLU, steps=3)
        lc.check(("batch" in recs[0]) == (batch > 1), f"{label}: batched sidecar iff batch > 1")
        if batch > 1:
            lc.check(recs[0]["batch"]["size"] == batch and len(recs[0]["per_sample"]) == batch,
                     f"{label}: every sample recorded")
        lc.expect_agreement(BP, "pytorch", path, label)
label = "half-batch5/float64"
path = os.path.join(WORK, "half-batch5.jsonl")
train(path, lambda p: torch.optim.SGD(p, lr=0.5), batch=5, steps=3)
lc.expect_agreement(BP, "pytorch", path, label)

# The helper replays the steps of a flush together, one replay per batch size: batches of mixed
# sizes across several flushes must keep their order, their sizes and their agreement.
for dtype in (torch.float64, torch.float32):
    label = f"mixed-batches/{str(dtype).split('.')[-1]}"
    path = os.path.join(WORK, label.replace("/", "-") + ".jsonl")
    sizes = [1, 5, 5, 1, 3, 5, 1, 2, 5]
    recs = train(path, lambda p: torch.optim.SGD(p, lr=0.5), dtype=dtype, steps=len(sizes), sizes=sizes,
                 flush_every=4)
    lc.check([r["step_index"] for r in recs] == list(range(len(sizes))), f"{label}: dense step_index in order")
    lc.check([r["batch"]["size"] if "batch" in r else 1 for r in recs] == sizes, f"{label}: each step's batch size")
    lc.expect_agreement(BP, "pytorch", path, label)

# capture=True: the same steps as a binary capture. bp import reads it as the sidecar bytes it
# stands for (the same receipts, byte for byte), and the helper's own expander gives those bytes.
def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


CAPTURED = {
    "sgd-mixed-batches": dict(make_opt=lambda p: torch.optim.SGD(p, lr=0.5), sizes=[1, 5, 5, 1, 3, 5, 1, 2, 5],
                              steps=9, flush_every=4),
    "sgd-momentum": dict(make_opt=OPTIMIZERS["sgd-momentum"][0], steps=5),
    "adam-float32": dict(make_opt=OPTIMIZERS["adam"][0], steps=5, dtype=torch.float32),
    "adamw-ce-relu": dict(make_opt=OPTIMIZERS["adamw"][0], steps=5, loss="ce", act=torch.nn.ReLU),
    "single-nesterov": dict(make_opt=OPTIMIZERS["sgd-nesterov"][0], steps=1, trace_id=None),
}
for label, kw in CAPTURED.items():
    text, cap = os.path.join(WORK, f"{label}.jsonl"), os.path.join(WORK, f"{label}.bpcap")
    train(text, **kw)
    train(cap, capture=True, **kw)
    sidecars, capture = read_bytes(text), read_bytes(cap)
    lc.check(capture.startswith(b"BPCAP01\n") and len(capture) < len(sidecars), f"capture {label}: a smaller capture")
    lc.check(helper.expand_capture(capture).encode() == sidecars, f"capture {label}: expands to the sidecar bytes")
    multi = kw.get("trace_id", TRACE) is not None
    args = ["import", "pytorch"] + (["multi"] if multi else [])
    a, b = lc.bp(BP, *args, text), lc.bp(BP, *args, cap)
    lc.check(a.returncode == 0 and a.stdout and (b.returncode, b.stdout) == (0, a.stdout),
             f"capture {label}: bp import gives the sidecars' receipts (exit {a.returncode}, {b.returncode})")
    expanded = lc.bp(BP, "import", "pytorch", "multi", "-", stdin=capture) if multi else None
    lc.check(expanded is None or expanded.stdout == a.stdout, f"capture {label}: read from stdin too")
    script = subprocess.run([sys.executable, helper.__file__, "expand", cap], capture_output=True)
    lc.check(script.returncode == 0 and script.stdout == sidecars, f"capture {label}: pytorch.py expand")

# A capture that lies is caught as its sidecars would be: a gradient changed in the binary.
capture = bytearray(read_bytes(os.path.join(WORK, "sgd-momentum.bpcap")))
first_step = 8 + 9 + struct.unpack_from("<Q", capture, 9)[0]  # magic, then the layout chunk, then the steps
slot = int(re.search(rb'"gradient":"\\u0000([0-9]+)"', bytes(capture)).group(1))
at = first_step + 9 + 8 + slot * 8
capture[at:at + 8] = struct.pack("<d", struct.unpack("<d", capture[at:at + 8])[0] + 1e-3)
r = lc.bp(BP, "import", "pytorch", "multi", "-", stdin=bytes(capture))
lc.check(r.returncode == 1 and b"engine_recompute_disagreed" in r.stdout, f"capture: tampered gradient caught "
         f"(exit {r.returncode})")
# A damaged capture is refused: exit 2, the byte named, nothing on stdout (--json: one line).
for cut in (9, len(capture) - 3):
    for extra in ([], ["--json"]):
        r = lc.bp(BP, "import", "pytorch", "multi", "-", *extra, stdin=bytes(capture[:cut]))
        err = r.stderr.decode()
        lc.check(r.returncode == 2 and not r.stdout and "helper capture: byte " in err and
                 (not extra or err.count("\n") == 1), f"capture cut at {cut} {extra}: refused (exit {r.returncode}: "
                 f"{err[:200]})")

# One step without a trace id: a plain single sidecar for `bp import pytorch F`.
single = os.path.join(WORK, "single.json")
recs = train(single, lambda p: torch.optim.Adam(p, lr=0.02), steps=1, trace_id=None)
lc.check("trace_id" not in recs[0] and "step_index" not in recs[0], "single: no trace_id / step_index")
r = lc.bp(BP, "import", "pytorch", single)
lc.check(r.returncode == 0 and r.stdout.count(b"\n") == 1, f"single: bp import pytorch F exit {r.returncode}")

# Same seed, same SOURCE_DATE_EPOCH: the helper writes the same bytes.
again = os.path.join(WORK, "again.jsonl")
train(again, OPTIMIZERS["adam"][0])
with open(again, "rb") as a, open(os.path.join(WORK, "adam-float64.jsonl"), "rb") as b:
    lc.check(a.read() == b.read(), "reproducible: two runs write identical sidecars")


# Tampering: each must be caught by the import's engine-recompute differential.
def bump_gradient(recs):
    recs[1]["updates"][2]["gradient"] += 1e-3


def bump_buffer_after(recs):
    recs[2]["updates"][5]["optimizer"]["state_after"]["buffer"] *= 1.5


def flip_buffer_before(recs):  # the helper bug of an un-flipped (ascent-space) momentum buffer
    for u in recs[1]["updates"]:
        u["optimizer"]["state_before"]["buffer"] = -u["optimizer"]["state_before"]["buffer"]


def bump_learning_rate(recs):
    recs[3]["learning_rate"] *= 1.1
    recs[3]["optimizer"]["learning_rate"] = recs[3]["learning_rate"]
    for u in recs[3]["updates"]:
        u["optimizer"]["learning_rate"] = recs[3]["learning_rate"]


def bump_update_learning_rate(recs):  # the reference's differential misses this one
    recs[0]["updates"][0]["optimizer"]["learning_rate"] *= 2


mom = records["sgd-momentum/float64"]
lc.expect_caught(BP, "pytorch", mom, bump_gradient, "tampered gradient", ".gradient")
lc.expect_caught(BP, "pytorch", mom, bump_buffer_after, "tampered momentum buffer", "state_after.buffer")
lc.expect_caught(BP, "pytorch", mom, flip_buffer_before, "un-flipped momentum buffer", "buffer")
lc.expect_caught(BP, "pytorch", mom, bump_learning_rate, "tampered learning rate", "updates[")
lc.expect_caught(BP, "pytorch", mom, bump_update_learning_rate, "tampered per-update learning rate",
                 "optimizer.learning_rate")
adamw = records["adamw/float32"]
lc.expect_caught(BP, "pytorch", adamw, bump_gradient, "AdamW float32: tampered gradient", ".gradient")
lc.expect_caught(BP, "pytorch", adamw, lambda r: r[2]["updates"][1]["optimizer"]["state_after"].__setitem__(
    "m", r[2]["updates"][1]["optimizer"]["state_after"]["m"] * 2 + 1e-3), "AdamW float32: tampered first moment",
    "state_after.m")
lc.expect_caught(BP, "pytorch", adamw, bump_learning_rate, "AdamW float32: tampered learning rate", "updates[")

# What the helper cannot describe, it refuses before writing anything.
m = network(torch.float64)
sgd = torch.optim.SGD(m.parameters(), lr=0.1)
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(m, sgd, torch.nn.MSELoss()), "MSELoss", "MSELoss")
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(
    m, torch.optim.Adam(m.parameters(), weight_decay=0.1), helper.half_squared_error), "AdamW", "Adam weight decay")
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(
    m, torch.optim.RMSprop(m.parameters()), helper.half_squared_error), "RMSprop", "RMSprop")
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(
    m, torch.optim.Adam(m.parameters(), amsgrad=True), helper.half_squared_error), "amsgrad", "AMSGrad")
deep = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Sigmoid(), torch.nn.Linear(3, 3), torch.nn.Sigmoid(),
                           torch.nn.Linear(3, 2)).double()
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(
    deep, torch.optim.SGD(deep.parameters(), lr=0.1), helper.half_squared_error), "one hidden layer", "two hidden layers")
tanh = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2)).double()
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(
    tanh, torch.optim.SGD(tanh.parameters(), lr=0.1), helper.half_squared_error), "Tanh", "tanh activation")
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(
    m, torch.optim.SGD(list(m.parameters())[:2], lr=0.1), helper.half_squared_error), "exactly the model",
    "optimizer over part of the model")
lc.expect_refusal(helper.HelperRefusal, lambda: helper.TraceDumper(
    m, sgd, helper.half_squared_error, trace_id="xyz"), "32 lowercase hex", "bad trace_id")


def batched_adam():
    mm = network(torch.float64)
    opt = torch.optim.Adam(mm.parameters())
    d = helper.TraceDumper(mm, opt, helper.half_squared_error, out=os.path.join(WORK, "refused.jsonl"))
    x, y = torch.rand(4, 2, dtype=torch.float64), torch.rand(4, 2, dtype=torch.float64)
    with d.step(x, y):
        opt.zero_grad()
        helper.half_squared_error(mm(x), y).backward()
        opt.step()
    d.close()


lc.expect_refusal(helper.HelperRefusal, batched_adam, "plain SGD only", "batched Adam")
lc.check(not os.path.exists(os.path.join(WORK, "refused.jsonl")), "a refused trace leaves no output file")
lc.check(not [f for f in os.listdir(WORK) if f.startswith(".bp-trace-")], "no temporary files left behind")


def dampening_first_step():
    train(os.path.join(WORK, "damp0.jsonl"), OPTIMIZERS["sgd-momentum-dampening"][0], warmup=0)


lc.expect_refusal(helper.HelperRefusal, dampening_first_step, "first step", "dampening on the first step")


def no_backward():
    mm = network(torch.float64)
    opt = torch.optim.SGD(mm.parameters(), lr=0.1)
    d = helper.TraceDumper(mm, opt, helper.half_squared_error, out=os.path.join(WORK, "nograd.jsonl"))
    with d.step(torch.rand(1, 2, dtype=torch.float64), torch.rand(1, 2, dtype=torch.float64)):
        pass


lc.expect_refusal(helper.HelperRefusal, no_backward, "loss.backward()", "step without backward")


# README "Check your own PyTorch loop": its exact script and command line, run as a new user would.
def readme_walkthrough():
    import re
    import subprocess
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "README.md")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    code = re.search(r"<!-- pytorch-loop-example -->\n```python\n(.*?)```", text, re.S)
    cmd = re.search(r"<!-- pytorch-loop-commands -->\n```\n(.*?)\n```", text, re.S)
    lc.check(code is not None and cmd is not None, "README: the PyTorch loop example and its command are marked")
    if code is None or cmd is None:
        return
    user = os.path.join(WORK, "readme-user")
    os.makedirs(user)
    shutil.copy(os.path.join(WORK, "pytorch_trace_helper.py"), user)
    with open(os.path.join(user, "train.py"), "w", encoding="utf-8") as f:
        f.write(code.group(1))
    bin_dir = os.path.join(user, "bin")  # `bp` and `python3` as the README's reader has them
    os.makedirs(bin_dir)
    os.symlink(os.path.abspath(BP), os.path.join(bin_dir, "bp"))
    os.symlink(sys.executable, os.path.join(bin_dir, "python3"))
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    r = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd.group(1)], cwd=user, env=env, capture_output=True,
                       timeout=240)
    lc.check(r.returncode == 0 and b"verify multi passed (30 record(s))" in r.stderr,
             f"README walkthrough: exit {r.returncode}: {r.stderr.decode()[-800:]}")


readme_walkthrough()


# Output targets: a device is written in place (never renamed over), a link's target is replaced.
def output_targets():
    import stat
    train("/dev/null", OPTIMIZERS["sgd"][0], steps=1)
    lc.check(stat.S_ISCHR(os.stat("/dev/null").st_mode), "out=/dev/null leaves the device node in place")
    target = os.path.join(WORK, "target.jsonl")
    link = os.path.join(WORK, "link.jsonl")
    with open(target, "w"):
        pass
    os.symlink("target.jsonl", link)
    train(link, OPTIMIZERS["sgd"][0], steps=2)
    lc.check(os.path.islink(link) and len(lc.read_lines(target)) == 2, "out=<link> writes the link's target")
    # The trace gets the mode open() would give it (the temporary's 0600 is not kept), and a file
    # written again keeps its own.
    fresh = os.path.join(WORK, "fresh.jsonl")
    old_umask = os.umask(0o022)
    try:
        train(fresh, OPTIMIZERS["sgd"][0], steps=1)
        lc.check(stat.S_IMODE(os.stat(fresh).st_mode) == 0o644, f"a new trace is 0644 under umask 022, got "
                 f"{oct(stat.S_IMODE(os.stat(fresh).st_mode))}")
        os.chmod(fresh, 0o640)
        train(fresh, OPTIMIZERS["sgd"][0], steps=1, capture=True)
        lc.check(stat.S_IMODE(os.stat(fresh).st_mode) == 0o640, "a trace written again keeps its mode")
    finally:
        os.umask(old_umask)


output_targets()


# A number a receipt cannot spell (Adam's second moment of a tiny gradient) is refused with
# exit 2, no output, and the receipt field named.
def unwritable_number():
    import copy
    recs = copy.deepcopy(records["adam/float32"])
    recs[1]["updates"][0]["optimizer"]["state_after"]["v"] = 4.9e-16
    rc, out, summary = lc.import_summary(BP, "pytorch", lc.dump_lines(recs))
    text = summary.get("error", {}).get("message", "")
    lc.check(rc == 2 and out == b"", f"unwritable number: exit {rc} (want 2) and no receipts")
    lc.check("record 2" in text and "receipt field /updates/0/optimizer/state_after/v" in text,
             f"unwritable number: the message names the record and field: {text}")


unwritable_number()

# The helper copies the parameters afresh on entry to every step. A loop that changes them
# between steps, outside the optimizer, must find each change in the next step's
# parameters_before (reusing the last step's "after" copy would record a stale "before"):
# an in-place write through param.data (it bumps no version counter), a tensor assigned to
# param.data (new storage), the storage of a square weight reassigned transposed (same
# address, new layout), a copy_ under no_grad, new gradient tensors every step
# (zero_grad(set_to_none=True)) and momentum buffers replaced by load_state_dict. The values
# recorded before, after and as gradients must be the true ones, bit for bit (float64).
def mutated_between_steps():
    import copy
    model = network(torch.float64, n_in=3, n_h=3, n_out=2)
    w1, b1, w2, b2 = model[0].weight, model[0].bias, model[2].weight, model[2].bias
    opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
    gen = torch.Generator().manual_seed(11)

    def named(tensors):
        a, b, c, d = (t.detach().tolist() for t in tensors)
        out = {f"w_i{i + 1}_h{h + 1}": a[h][i] for i in range(3) for h in range(3)}
        out.update({f"b_h{h + 1}": b[h] for h in range(3)})
        out.update({f"w_h{h + 1}_o{o + 1}": c[o][h] for h in range(3) for o in range(2)})
        out.update({f"b_o{o + 1}": d[o] for o in range(2)})
        return out

    def mutate(k):
        if k == 1:
            w1.data.add_(0.25)
        elif k == 2:
            b2.data = b2.data + 1.0
        elif k == 3:
            w1.data = w1.data.t()
        elif k == 4:
            with torch.no_grad():
                w2.copy_(torch.linspace(-1.0, 1.0, 6, dtype=torch.float64).view(2, 3))
        elif k == 5:
            sd = copy.deepcopy(opt.state_dict())
            for entry in sd["state"].values():
                entry["momentum_buffer"].mul_(-0.5)
            opt.load_state_dict(sd)

    path = os.path.join(WORK, "mutated.jsonl")
    truth = []
    with helper.TraceDumper(model, opt, helper.half_squared_error, out=path, trace_id=TRACE) as dumper:
        for k in range(7):
            mutate(k)
            x = torch.rand(1, 3, generator=gen, dtype=torch.float64)
            y = torch.rand(1, 2, generator=gen, dtype=torch.float64)
            before = named((w1, b1, w2, b2))
            buf_before = [opt.state[q]["momentum_buffer"].clone() if q in opt.state else None for q in (w1, b1, w2, b2)]
            with dumper.step(x, y):
                opt.zero_grad(set_to_none=True)
                helper.half_squared_error(model(x), y).backward()
                opt.step()
            grads = named([-q.grad for q in (w1, b1, w2, b2)])
            truth.append((before, named((w1, b1, w2, b2)), grads, buf_before))
    recs = lc.read_lines(path)
    lc.check(len(recs) == 7, "mutated between steps: 7 steps recorded")
    for k, (rec, (before, after, grads, buf_before)) in enumerate(zip(recs, truth)):
        lc.check(rec["parameters_before"] == before, f"mutated between steps: step {k} records the true parameters before")
        lc.check(rec["parameters_after"] == after, f"mutated between steps: step {k} records the true parameters after")
        lc.check({u["parameter_id"]: u["gradient"] for u in rec["updates"]} == grads,
                 f"mutated between steps: step {k} records the true gradients")
        if k in (1, 2, 3, 4):  # the parameters were changed before this step
            lc.check(rec["parameters_before"] != recs[k - 1]["parameters_after"],
                     f"mutated between steps: step {k} begins elsewhere than step {k - 1} ended (the test can fail)")
        if k == 5:  # the momentum buffers were replaced before this step
            lc.check([u["optimizer"]["state_before"] for u in rec["updates"]]
                     != [u["optimizer"]["state_after"] for u in recs[4]["updates"]],
                     "mutated between steps: step 5's buffers begin elsewhere than step 4's ended (the test can fail)")
        if buf_before[0] is not None:
            want = named([-b for b in buf_before])
            got = {u["parameter_id"]: u["optimizer"]["state_before"]["buffer"] for u in rec["updates"]}
            lc.check(got == want, f"mutated between steps: step {k} records the true momentum buffers before")
    for k in range(7):  # each step alone is an honest step: bp's engine agrees with it
        rc, _, summary = lc.import_summary(BP, "pytorch", lc.dump_lines([recs[k]]), multi=False)
        lc.check(rc == 0, f"mutated between steps: step {k} imports and agrees: {str(summary)[:300]}")


mutated_between_steps()

lc.finish("live_pytorch_test")
