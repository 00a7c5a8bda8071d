#!/usr/bin/python3
"""nltrain train --trace-out: a Chrome trace (JSON that Perfetto loads) of every step's phases,
one track per batch stream and one per device; the run's metrics and checkpoint are the same
bytes with and without it; refused paths (missing directory, symbolic link, '-') write nothing;
a run stopped by SIGINT leaves a whole trace and no temporary file, and the trace is streamed to
its temporary while the run goes on.

usage: trace_test.py <nltrain>"""
import filecmp
import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

nltrain = os.path.abspath(sys.argv[1])
failures = []
SMALL = ["--d", "8", "--heads", "2", "--seq-len", "8", "--quiet", "--seed", "7", "--batch", "2", "--threads", "2"]
STEPS = 6
STEP_PHASES = ["read data", "gradient reduction", "clip+AdamW", "metrics write"]  # on the device track, every step
STREAM_PHASES = ["forward", "backward"]


def fail(msg):
    failures.append(msg)


def train(w, *args):
    return subprocess.run([nltrain, "train", *args], capture_output=True, text=True, cwd=w)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def same_tree(a, b):
    c = filecmp.dircmp(a, b)
    if c.left_only or c.right_only or c.diff_files or c.funny_files:
        return False
    if any(not filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False) for f in c.common_files):
        return False
    return all(same_tree(os.path.join(a, d), os.path.join(b, d)) for d in c.common_dirs)


def load_trace(path):
    """The trace as the trace-event format has it: {"traceEvents": [...]}, every event well formed."""
    try:
        doc = json.loads(read(path))
    except (OSError, ValueError) as e:
        fail("%s: not a JSON file: %s" % (path, e))
        return []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("%s: no traceEvents array" % path)
        return []
    for e in doc["traceEvents"]:
        if e.get("ph") not in ("X", "M") or not isinstance(e.get("pid"), int) or not isinstance(e.get("name"), str):
            fail("%s: malformed event %s" % (path, e))
        elif e["ph"] == "M" and (e["name"] not in ("process_name", "thread_name") or not isinstance(e["args"]["name"], str)):
            fail("%s: malformed metadata %s" % (path, e))
        elif e["ph"] == "X":
            ok = isinstance(e.get("tid"), int) and all(isinstance(e.get(k), (int, float)) and e[k] >= 0 for k in ("ts", "dur"))
            if not ok:
                fail("%s: malformed slice %s" % (path, e))
    return doc["traceEvents"]


def tracks(events):
    return {(e["pid"], e.get("tid")): e["args"]["name"] for e in events if e["ph"] == "M"}


def slices(events, pid, tid):
    return [e for e in events if e["ph"] == "X" and e["pid"] == pid and e["tid"] == tid]


def check_steps(path, events, steps, streams, checkpoints):
    """Each step has its slice on the cpu track, the whole-batch phases inside it, and a forward
    then a backward inside it on each stream's track; checkpoints after the listed steps."""
    want = {(2, None): "nltrain train: devices", (1, None): "nltrain train: streams", (2, 1): "cpu"}
    want.update({(1, s + 1): "stream %d" % s for s in range(streams)})
    got = tracks(events)
    if got != want:
        fail("%s: tracks %s, expected %s" % (path, got, want))
    cpu = slices(events, 2, 1)
    eps = 0.01  # microseconds: the times are printed rounded
    for n in steps:
        mine = [e for e in cpu if e.get("args", {}).get("step") == str(n)]
        step = [e for e in mine if e["name"] == "step %d" % n]
        if len(step) != 1:
            fail("%s: step %d has %d step slices" % (path, n, len(step)))
            continue
        lo, hi = step[0]["ts"] - eps, step[0]["ts"] + step[0]["dur"] + eps
        names = sorted(e["name"] for e in mine if e is not step[0])
        expected = sorted(STEP_PHASES + (["checkpoint save"] if n in checkpoints else []))
        if names != expected:
            fail("%s: step %d's phases on cpu: %s, expected %s" % (path, n, names, expected))
        for s in range(streams):
            on = [e for e in slices(events, 1, s + 1) if e.get("args", {}).get("step") == str(n)]
            if [e["name"] for e in on] != STREAM_PHASES:
                fail("%s: step %d, stream %d: %s, expected %s" % (path, n, s, [e["name"] for e in on], STREAM_PHASES))
                continue
            if on[0]["ts"] + on[0]["dur"] > on[1]["ts"] + eps:
                fail("%s: step %d, stream %d: backward starts before forward ends" % (path, n, s))
            mine = mine + on
        for e in mine:
            if e["ts"] < lo or e["ts"] + e["dur"] > hi:
                fail("%s: step %d: %s on track %d/%d lies outside the step" % (path, n, e["name"], e["pid"], e["tid"]))
    stepped = {int(e["args"]["step"]) for e in cpu if e["name"].startswith("step ")}
    if stepped != set(steps):
        fail("%s: steps drawn %s, expected %s" % (path, sorted(stepped), list(steps)))
    final = [e for e in cpu if e["name"] == "checkpoint save" and "args" not in e]
    if len(final) != 1:
        fail("%s: %d final checkpoint slices, expected 1" % (path, len(final)))


def no_temporaries(w):
    left = glob.glob(os.path.join(w, "**", "*.atomic-tmp.*"), recursive=True)
    if left:
        fail("temporary files left: %s" % left)


def refused(w, p, code, line):
    if p.returncode != code or p.stdout or p.stderr.count("\n") != 1 or line not in p.stderr:
        fail("expected exit %d and one line with %r; got exit %d, stdout %r, stderr %r" % (code, line, p.returncode, p.stdout, p.stderr))


with tempfile.TemporaryDirectory() as w:
    # With and without the trace: the same metrics and checkpoint, byte for byte.
    run = ["--steps", str(STEPS), "--checkpoint-every", "3"]
    p = train(w, *SMALL, *run, "--out", "T", "--metrics", "t.jsonl", "--trace-out", "t.json")
    if p.returncode != 0:
        fail("train --trace-out: exit %d: %s" % (p.returncode, p.stderr))
    p = train(w, *SMALL, *run, "--out", "N", "--metrics", "n.jsonl")
    if p.returncode != 0:
        fail("train: exit %d: %s" % (p.returncode, p.stderr))
    if read(os.path.join(w, "t.jsonl")) != read(os.path.join(w, "n.jsonl")):
        fail("metrics differ with --trace-out")
    if not same_tree(os.path.join(w, "T"), os.path.join(w, "N")):
        fail("run directories (checkpoint) differ with --trace-out")
    check_steps("t.json", load_trace(os.path.join(w, "t.json")), range(STEPS), 2, {2})
    no_temporaries(w)

    # A resumed run writes its own trace of the steps it trains.
    p = train(w, *SMALL[:-4], "--steps", "4", "--out", "R", "--stop-at", "2", "--batch", "3")
    p = train(w, "--resume", "R", "--quiet", "--threads", "2", "--trace-out", "r.json")
    if p.returncode != 0:
        fail("train --resume --trace-out: exit %d: %s" % (p.returncode, p.stderr))
    check_steps("r.json", load_trace(os.path.join(w, "r.json")), range(2, 4), 3, set())

    # Refusals: one line, documented exit code, nothing written (no run directory, no temporary).
    refused(w, train(w, *SMALL, *run, "--out", "X", "--trace-out", "nodir/t.json"), 2,
            "nltrain: --trace-out: nodir/t.json: the directory nodir does not exist")
    os.symlink("target.json", os.path.join(w, "link.json"))
    refused(w, train(w, *SMALL, *run, "--out", "X", "--trace-out", "link.json"), 2,
            "nltrain: --trace-out: link.json: is a symbolic link; a trace is not written through one")
    refused(w, train(w, *SMALL, *run, "--out", "X", "--trace-out", "-"), 3, "nltrain: --trace-out: a trace is a file")
    if os.path.exists(os.path.join(w, "X")) or os.path.exists(os.path.join(w, "target.json")):
        fail("a refused start wrote something")
    if not os.path.islink(os.path.join(w, "link.json")):
        fail("the symbolic link was replaced")
    no_temporaries(w)

    # SIGINT: the run stops with a checkpoint and a whole trace; while it ran, the trace was
    # growing in its temporary file (streamed, not held until the end).
    child = subprocess.Popen([nltrain, "train", *SMALL, "--steps", "1000000", "--checkpoint-every", "100", "--out", "S",
                              "--metrics", "s.jsonl", "--trace-out", "s.json"], cwd=w, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    metrics = os.path.join(w, "s.jsonl")
    for _ in range(1200):
        if os.path.exists(metrics) and read(metrics).count(b"\n") >= 8:
            break
        time.sleep(0.05)
    temps = glob.glob(os.path.join(w, "s.json.atomic-tmp.*"))
    if len(temps) != 1 or os.path.getsize(temps[0]) < 1000:
        fail("while the run goes on: temporaries %s, expected one holding the steps so far" % temps)
    if os.path.exists(os.path.join(w, "s.json")):
        fail("s.json exists before the run ended")
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    if child.returncode != 0 or "interrupted at step" not in out:
        fail("SIGINT: exit %d, stdout %r, stderr %r" % (child.returncode, out, err))
    done = read(metrics).count(b"\n")
    # A fast build is past step 100 by the time the signal lands: its periodic checkpoints are traced.
    check_steps("s.json", load_trace(os.path.join(w, "s.json")), range(done), 2,
                {n for n in range(done) if (n + 1) % 100 == 0})
    no_temporaries(w)

# Under --memory-budget at its least accepted value (the number a budget of 1 byte is refused
# with), the caches' moves out and back are drawn on the devices' "tier moves" track.
with tempfile.TemporaryDirectory() as w:
    one = train(w, *SMALL, "--steps", "2", "--out", "b1", "--memory-budget", "1")
    need = [int(t) for t in one.stderr.replace(",", " ").split() if t.isdigit() and int(t) > 1]
    if one.returncode != 3 or not need:
        fail("--memory-budget 1: exit %d, stderr %r; expected a refusal naming the bytes needed" % (one.returncode, one.stderr))
    else:
        r = train(w, *SMALL, "--steps", "2", "--out", "b2", "--memory-budget", str(max(need)), "--trace-out", "b.json")
        events = load_trace(os.path.join(w, "b.json")) if r.returncode == 0 else []
        if r.returncode != 0:
            fail("budgeted traced run: exit %d, stderr %r" % (r.returncode, r.stderr))
        tier = [k for k, name in tracks(events).items() if name == "tier moves"]
        moves = slices(events, tier[0][0], tier[0][1]) if tier else []
        if not any("ram->ssd" in e["name"] for e in moves) or not any("ssd->ram" in e["name"] for e in moves):
            fail("budgeted traced run: tier moves %s, expected caches moved out and back" % [e["name"] for e in moves][:6])
        if any(not e["name"].startswith("tape cache ") or int(e.get("args", {}).get("bytes", "0")) <= 0 for e in moves):
            fail("budgeted traced run: tier moves not named for their caches: %s" % moves[:3])

for f in failures:
    print("FAIL:", f, file=sys.stderr)
if failures:
    sys.exit(1)
print("all assertions passed")
