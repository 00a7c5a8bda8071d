#!/usr/bin/python3
"""nltrain train --fp64 as a user runs it: the receipts of DeltaRule and Titans at K = 1, 2 (fixed)
and K = 2 (learned) pass bp verify nltrain under all nine rules, bit for bit and with --cross-machine
(way (b)'s binary64 bounds alone); the same run writes the same
bytes; a run stopped and resumed (--fp64 again) ends in the run directory and receipts of an
uninterrupted one, byte for byte; the receipts are f64 and valid tensor-step v0.1.0; a forged
rate fails rule 7 (exit 1); a change of precision on --resume and --fp64 with --memory-budget are
refused with one line (exit 3).

usage: fp64_test.py <nltrain> <bp> <schemas dir>"""
import filecmp
import json
import os
import subprocess
import sys
import tempfile

nltrain, bp, schemas = sys.argv[1:4]
failures = []
SMALL = ["--d", "8", "--heads", "2", "--seq-len", "8", "--window", "8", "--quiet"]


def run(cmd, rc=0, stdin=None, what=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True)
    if p.returncode != rc:
        failures.append("%s: exit %d, want %d: %s" % (what or " ".join(cmd[1:4]), p.returncode, rc, p.stderr.decode()[-400:]))
    return p


def one_line_error(p, what, must):
    err = p.stderr.decode()
    if err.count("\n") != 1 or must not in err:
        failures.append("%s: want one line naming %r, got %r" % (what, must, err[:300]))


def same_tree(a, b):
    c = filecmp.dircmp(a, b)
    if c.left_only or c.right_only or c.diff_files or c.funny_files:
        return False
    return all(same_tree(os.path.join(a, d), os.path.join(b, d)) for d in c.common_dirs)


with tempfile.TemporaryDirectory(prefix="fp64-") as w:
    data = os.path.join(w, "data.txt")
    with open(data, "wb") as f:
        f.write(bytes((i * 37 + i // 7) % 251 for i in range(3000)))

    def train(out, *extra, rc=0, what=None):
        return run([nltrain, "train", "--fp64", "--data", data, "--out", os.path.join(w, out), *extra, *SMALL], rc, what=what)

    lines = {}
    for rule in ("delta", "titans"):
        for levels, schedule in ((1, "fixed"), (2, "fixed"), (2, "learned")):
            what = "%s K=%d %s" % (rule, levels, schedule)
            args = ["--rule", rule, "--levels", str(levels), "--schedule", schedule, "--steps", "20", "--receipts", "-"]
            t = train("run-%s-%d-%s" % (rule, levels, schedule), *args, what=what)
            got = t.stdout.splitlines(keepends=True)
            lines[what] = got
            if len(got) != 20:
                failures.append("%s: %d receipts for 20 steps" % (what, len(got)))
            v = run([bp, "verify", "nltrain", "-", "--json"], 0, t.stdout, what)
            if v.returncode == 0:
                report = json.loads(v.stdout)
                if report["receipts"] != 20 or any(r["checked"] < 20 for r in report["rules"]):
                    failures.append("%s: report %s" % (what, v.stdout[:300]))
            run([bp, "verify", "nltrain", "-", "--cross-machine"], 0, t.stdout, what + " --cross-machine")
    a = lines["delta K=2 fixed"]
    if train("again", "--levels", "2", "--steps", "20", "--receipts", "-").stdout.splitlines(keepends=True) != a:
        failures.append("the same fp64 run wrote different receipts")
    first = json.loads(a[0])
    if first["model"].get("precision") != "fp64" or first["kernels"]["gradient_path"] != "hand_written":
        failures.append("an fp64 receipt's model and kernels: %s %s" % (first["model"].get("precision"), first["kernels"]))
    if {t["dtype"] for s in ("before", "gradients", "after") for t in first[s]["tensors"]} != {"f64"}:
        failures.append("an fp64 receipt holds tensors that are not f64")

    # Stopped at 7, resumed with --fp64: the receipts and the run directory of an uninterrupted run.
    head = train("resumed", "--steps", "16", "--stop-at", "7", "--receipts", "-").stdout
    rest = os.path.join(w, "rest.jsonl")
    run([nltrain, "train", "--resume", os.path.join(w, "resumed"), "--fp64", "--receipts", rest, "--quiet"], what="resume --fp64")
    whole = train("whole", "--steps", "16", "--receipts", "-").stdout
    with open(rest, "rb") as f:
        if head + f.read() != whole:
            failures.append("a stopped and resumed fp64 run's receipts differ from an uninterrupted run's")
    if not same_tree(os.path.join(w, "resumed"), os.path.join(w, "whole")):
        failures.append("a stopped and resumed fp64 run's directory differs from an uninterrupted run's")
    run([bp, "verify", "nltrain", "-"], 0, whole, "receipts across an fp64 resume")

    # A forged rate in the last receipt (the shortest decimal of another double: still canonical).
    last = json.loads(a[-1])
    lr = last["step"]["lr"]
    forged = a[-1].decode().replace('"lr":%s,' % json.dumps(lr), '"lr":%s,' % json.dumps(lr * (1 + 1e-12)), 1).encode()
    if forged == a[-1]:
        failures.append("could not forge the rate")
    p = run([bp, "verify", "nltrain", "-"], 1, b"".join(a[:-1] + [forged]), "a forged fp64 rate")
    if b"7 schedule  FAIL" not in p.stderr:
        failures.append("a forged fp64 rate: rule 7 did not fail: %s" % p.stderr.decode()[:500])

    # Across a resume and a context reset too, way (b) alone holds every value of an honest run.
    run([bp, "verify", "nltrain", "-", "--cross-machine"], 0, whole, "--cross-machine on fp64 receipts")
    # Refusals: one line, exit 3, nothing trained.
    stopped = os.path.join(w, "stopped32")
    run([nltrain, "train", "--data", data, "--steps", "6", "--stop-at", "3", "--out", stopped, *SMALL], what="an fp32 run")
    one_line_error(run([nltrain, "train", "--resume", stopped, "--fp64", "--quiet"], 3, what="fp32 run resumed with --fp64"),
                   "fp32 run resumed with --fp64", "trains in fp32")
    one_line_error(run([nltrain, "train", "--resume", os.path.join(w, "resumed"), "--quiet"], 3, what="fp64 run resumed without --fp64"),
                   "fp64 run resumed without --fp64", "trains in fp64")
    one_line_error(train("budget", "--memory-budget", "1M", "--steps", "2", rc=3, what="--fp64 --memory-budget"),
                   "--fp64 --memory-budget", "--memory-budget")

    # The receipts against schemas/tensor-step.v0.1.0.json (Debian's jsonschema).
    import jsonschema
    with open(os.path.join(schemas, "tensor-step.v0.1.0.json")) as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
    for what, line in [("fp64, first", a[0]), ("fp64, chained", a[1])]:
        errs = list(validator.iter_errors(json.loads(line)))
        if errs:
            failures.append("schema rejects an %s receipt: %s: %s" % (what, errs[0].json_path, errs[0].message))
    broken = json.loads(a[1])
    broken["model"]["precision"] = "fp16"
    if not list(validator.iter_errors(broken)):
        failures.append("schema accepts precision fp16")

for f in failures:
    print("FAIL:", f)
print("fp64_test: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
