#!/usr/bin/python3
"""nltrain train --receipts piped into bp verify nltrain, as a user would: every schedule and
level count passes all nine rules (full and compact receipts, every k-th step, across a resume);
the same run writes the same bytes; receipts moved, dropped or spliced fail (exit 1); damaged or
foreign input is refused (exit 2) and misused options are exit 3, each with one line.

usage: receipts_test.py <nltrain> <bp> <schemas dir>"""
import hashlib
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


def verify(lines, rc=0, extra=(), what=None):
    return run([bp, "verify", "nltrain", "-", *extra], rc, b"".join(lines), what)


def one_line_error(p, what, must):
    err = p.stderr.decode()
    if err.count("\n") != 1 or must not in err:
        failures.append("%s: want one line naming %r, got %r" % (what, must, err[:300]))


with tempfile.TemporaryDirectory() as w:
    data = os.path.join(w, "data.txt")
    with open(data, "wb") as f:
        f.write(bytes((i * 37 + i // 7) % 251 for i in range(3000)))

    # Every level count and schedule, piped.
    for levels, schedule, steps in [(1, "fixed", 30), (2, "fixed", 30), (4, "fixed", 70), (2, "learned", 20), (4, "learned", 20)]:
        what = "K=%d %s" % (levels, schedule)
        out = os.path.join(w, "run-%d-%s" % (levels, schedule))
        t = run([nltrain, "train", "--data", data, "--steps", str(steps), "--levels", str(levels), "--schedule", schedule,
                 "--out", out, "--receipts", "-", "--compact-receipts", *SMALL], what=what)
        lines = t.stdout.splitlines(keepends=True)
        if len(lines) != steps:
            failures.append("%s: %d receipts for %d steps" % (what, len(lines), steps))
        v = verify(lines, 0, ["--data", data, "--json"], what)
        # One thread or two (the default here): the same report, byte for byte.
        for threads in ("1", "2"):
            if verify(lines, 0, ["--data", data, "--json", "--threads", threads], what).stdout != v.stdout:
                failures.append("%s: --threads %s changes the report" % (what, threads))
        if v.returncode == 0:
            report = json.loads(v.stdout)
            if report["receipts"] != steps or any(r["checked"] < steps for r in report["rules"]):
                failures.append("%s: report %s" % (what, v.stdout[:300]))

    # Full receipts, the same bytes twice; then what a forger can do with whole lines.
    def full(out, seed="42"):
        return run([nltrain, "train", "--data", data, "--steps", "12", "--levels", "2", "--seed", seed, "--out", out,
                    "--receipts", "-", *SMALL]).stdout.splitlines(keepends=True)
    a = full(os.path.join(w, "f1"))
    if a != full(os.path.join(w, "f2")):
        failures.append("the same run wrote different receipts")
    verify(a, 0, what="full receipts")
    verify(a, 0, ["--data", data], what="full receipts with --data")
    other = full(os.path.join(w, "f3"), "43")
    reports = [verify(a, 0, ["--json"]).stdout]
    for what, lines in [("two receipts swapped", a[:4] + [a[5], a[4]] + a[6:]), ("a receipt dropped", a[:4] + a[5:]),
                        ("a receipt repeated", a[:5] + a[4:]), ("two runs spliced", a[:6] + other[6:])]:
        p = verify(lines, 1, what=what)
        if b"2 chain     FAIL" not in p.stderr:
            failures.append("%s: the chain rule did not fail: %s" % (what, p.stderr.decode()[:500]))
        reports.append(verify(lines, 1, ["--json"], what).stdout)
        if verify(lines, 1, ["--json", "--threads", "1"], what).stdout != reports[-1]:
            failures.append("%s: one thread reports otherwise than two" % what)
    # Another machine's label (a BLAS this one does not have), re-chained: the label decides
    # nothing (the bits still hold here), and the report says which BLAS made the receipts.
    relabeled, prev = [], None
    for line in a[:4]:
        text = line.decode().replace('"blas":"', '"blas":"OtherBLAS ', 1)
        if prev is not None:
            at = text.index('"previous_sha256":"') + len('"previous_sha256":"')
            text = text[:at] + hashlib.sha256(prev).hexdigest() + text[at + 64:]
        prev = text.rstrip("\n").encode()
        relabeled.append(text.encode())
    p = verify(relabeled, 0, what="receipts labelled with another BLAS")
    if b"note: the receipts were made with OtherBLAS" not in p.stderr:
        failures.append("no note about the receipts' BLAS: %s" % p.stderr.decode()[-300:])
    # A damaged line: one base64 character of a gradient changed.
    line = a[3].decode()
    at = line.index('"data":"', line.index('"gradients"')) + 20
    bad = line[:at] + ("A" if line[at] != "A" else "B") + line[at + 1:]
    p = verify(a[:3] + [bad.encode()] + a[4:], 2, what="a damaged gradient")
    one_line_error(p, "a damaged gradient", "<stdin>:4: /gradients/tensors/")
    p = verify([a[0][:-40] + b"\n"], 2, what="a truncated receipt")
    one_line_error(p, "a truncated receipt", "<stdin>:1")
    p = verify([b'{"format":"tensor-step"}\n'], 2, what="a foreign object")
    one_line_error(p, "a foreign object", "<stdin>:1")
    verify([], 2, what="no receipts")
    p = verify([a[0] + b" \n"], 2, what="a byte after the document")

    # Every 3rd step, and a resumed run whose receipts continue the chain.
    out = os.path.join(w, "every")
    t = run([nltrain, "train", "--data", data, "--steps", "12", "--out", out, "--receipts", "-", "--receipt-every", "3", *SMALL])
    if len(t.stdout.splitlines()) != 4:
        failures.append("--receipt-every 3: %d receipts for 12 steps" % len(t.stdout.splitlines()))
    verify(t.stdout.splitlines(keepends=True), 0, what="--receipt-every 3")
    out = os.path.join(w, "resumed")
    first = run([nltrain, "train", "--data", data, "--steps", "16", "--stop-at", "7", "--out", out, "--receipts", "-", *SMALL]).stdout
    second = os.path.join(w, "second.jsonl")
    run([nltrain, "train", "--resume", out, "--receipts", second, "--quiet"])
    with open(second, "rb") as f:
        rest = f.read()
    verify((first + rest).splitlines(keepends=True), 0, what="receipts across --resume")
    uninterrupted = run([nltrain, "train", "--data", data, "--steps", "16", "--out", os.path.join(w, "whole"), "--receipts", "-",
                         *SMALL]).stdout
    if hashlib.sha256(first + rest).digest() != hashlib.sha256(uninterrupted).digest():
        failures.append("a stopped and resumed run's receipts differ from an uninterrupted run's")
    # A resumed run keeps its chain's --receipt-every and --compact-receipts without restating
    # them (the bytes of an uninterrupted run), and refuses another N (its chain would not verify).
    for how in (["--receipt-every", "3"], ["--compact-receipts"], ["--receipt-every", "2", "--compact-receipts"]):
        label = " ".join(how)
        whole = run([nltrain, "train", "--data", data, "--steps", "12", "--out", os.path.join(w, "kept-whole"), "--receipts", "-",
                     "--force", *how, *SMALL]).stdout
        kept_dir, kept = os.path.join(w, "kept"), os.path.join(w, "kept.jsonl")
        run([nltrain, "train", "--data", data, "--steps", "12", "--stop-at", "5", "--out", kept_dir, "--receipts", kept, "--force",
             *how, *SMALL])
        if "--receipt-every" in how:
            before = open(kept, "rb").read()
            p = run([nltrain, "train", "--resume", kept_dir, "--receipts", kept, "--receipt-every", "5", "--quiet"], 3,
                    what="--resume with another --receipt-every (%s)" % label)
            one_line_error(p, "--resume with another --receipt-every", "--receipt-every: 5 differs from the")
            if open(kept, "rb").read() != before:
                failures.append("a refused --receipt-every changed the receipts file (%s)" % label)
        run([nltrain, "train", "--resume", kept_dir, "--receipts", kept, "--data", data, "--quiet"], what="resume (%s)" % label)
        with open(kept, "rb") as f:
            resumed = f.read()
        if resumed != whole:
            failures.append("resumed without restating %s: the receipts differ from an uninterrupted run's" % label)
        verify(resumed.splitlines(keepends=True), 0, extra=("--data", data), what="resumed chain (%s)" % label)
    # kill -9 mid-run, then --resume into the same file: the receipts past the checkpoint are
    # dropped, the chain continues, and the file ends up byte for byte an uninterrupted run's.
    import signal
    import time
    killed_dir, killed = os.path.join(w, "killed"), os.path.join(w, "killed.jsonl")
    args = ["--data", data, "--steps", "400", "--checkpoint-every", "25", *SMALL]
    proc = subprocess.Popen([nltrain, "train", *args, "--out", killed_dir, "--receipts", killed])
    while proc.poll() is None:
        if os.path.exists(killed) and os.path.getsize(killed) > 60 * len(a[1]):
            os.kill(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.01)
    proc.wait()
    if proc.returncode != -signal.SIGKILL:
        print("note: the run ended (exit %d) before it could be killed; the resume below has nothing to redo" % proc.returncode)
    run([nltrain, "train", "--resume", killed_dir, "--receipts", killed, "--quiet"], what="resume after kill -9")
    whole = os.path.join(w, "whole.jsonl")
    run([nltrain, "train", *args, "--out", os.path.join(w, "whole-run"), "--receipts", whole], what="uninterrupted")
    with open(killed, "rb") as f1, open(whole, "rb") as f2:
        if f1.read() != f2.read():
            failures.append("receipts of a run killed (-9) and resumed differ from an uninterrupted run's")
    # Resuming into a receipts file that does not end where the checkpoint's chain does.
    junk = os.path.join(w, "junk.jsonl")
    with open(junk, "wb") as f:
        f.write(a[0])
    out2 = os.path.join(w, "resumed2")
    run([nltrain, "train", "--data", data, "--steps", "16", "--stop-at", "7", "--out", out2, "--receipts", os.path.join(w, "r2.jsonl"), *SMALL])
    p = run([nltrain, "train", "--resume", out2, "--receipts", junk, "--quiet"], 2, what="resume into a foreign receipts file")
    with open(junk, "rb") as f:
        if f.read() != a[0]:
            failures.append("a refused receipts file was changed")

    # Options.
    p = run([nltrain, "train", "--data", data, "--steps", "2", "--out", os.path.join(w, "o"), "--receipts", "-", "--metrics", "-", *SMALL], 3,
            what="--receipts - with --metrics -")
    run([nltrain, "train", "--data", data, "--steps", "2", "--out", os.path.join(w, "o2"), "--receipt-every", "2", *SMALL], 3,
        what="--receipt-every without --receipts")
    run([nltrain, "train", "--data", data, "--steps", "2", "--out", os.path.join(w, "o3"), "--receipts", "-", "--receipt-every", "0", *SMALL], 3,
        what="--receipt-every 0")
    run([nltrain, "train", "--steps", "2", "--out", os.path.join(w, "o4"), "--receipts", "-", "--compact-receipts", *SMALL], 3,
        what="--compact-receipts on the embedded corpus")
    compact = run([nltrain, "train", "--data", data, "--steps", "3", "--out", os.path.join(w, "c"), "--receipts", "-", "--compact-receipts",
                   *SMALL]).stdout.splitlines(keepends=True)
    one_line_error(verify(compact, 3, what="compact without --data"), "compact without --data", "--data")
    one_line_error(verify(compact, 3, ["--data", os.path.join(w, "junk.jsonl")], what="the wrong --data"), "the wrong --data", "--data")
    run([bp, "verify", "nltrain", os.path.join(w, "missing.jsonl")], 2, what="a missing file")
    run([bp, "verify", "nltrain", "-", "--data"], 3, b"", what="--data without a file")
    for bad in (["--threads"], ["--threads", "0"], ["--threads", "3"], ["--threads=x"]):
        one_line_error(verify(compact, 3, ["--data", data, *bad], what=" ".join(bad)), " ".join(bad), "--threads")
    run([bp, "verify", "nltrain", os.path.join(w, "junk.jsonl"), os.path.join(w, "junk.jsonl")], 2, what="two files")
    # A command that only reads writes nothing.
    before = sorted(os.listdir(w))
    verify(a, 0, what="read-only")
    if sorted(os.listdir(w)) != before:
        failures.append("bp verify nltrain wrote into the directory")

    # The receipts against schemas/tensor-step.v0.1.0.json (Debian's jsonschema).
    import jsonschema
    with open(os.path.join(schemas, "tensor-step.v0.1.0.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for what, line in [("full", a[0]), ("full, chained", a[1]), ("compact", compact[1]), ("compact, first", compact[0])]:
        errs = list(validator.iter_errors(json.loads(line)))
        if errs:
            failures.append("schema rejects a %s receipt: %s: %s" % (what, errs[0].json_path, errs[0].message))
    with open(os.path.join(schemas, "bp-verify-nltrain-report.v0.1.0.json")) as f:
        report_validator = jsonschema.Draft202012Validator(json.load(f))
    for r in reports:
        errs = list(report_validator.iter_errors(json.loads(r)))
        if errs:
            failures.append("bp-verify-nltrain-report rejects a report: %s: %s" % (errs[0].json_path, errs[0].message))
    bad_report = json.loads(reports[-1])
    bad_report["failures"][0]["rule"] = 10
    if not list(report_validator.iter_errors(bad_report)):
        failures.append("bp-verify-nltrain-report accepts rule 10")
    broken = json.loads(a[1])
    broken["step"]["loss"] = "NaN"
    if not list(validator.iter_errors(broken)):
        failures.append("schema accepts a string loss")
    del broken["step"]["loss"]
    if not list(validator.iter_errors(broken)):
        failures.append("schema accepts a receipt without a loss")

for f in failures:
    print("FAIL:", f)
print("receipts_test: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
