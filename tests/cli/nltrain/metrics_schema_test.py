#!/usr/bin/python3
"""nltrain train --metrics against schemas/nltrain-metrics.v0.1.0.json (Debian's jsonschema):
every line of real runs (plain, with --metrics-timing, resumed) matches the schema; lines the
format does not allow do not; and a seeded run's metrics are the same bytes twice over, and the
same bytes when it is stopped and resumed, so they can serve as a golden.

usage: metrics_schema_test.py <nltrain> <schemas dir>"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

nltrain, schemas = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []
with open(os.path.join(schemas, "nltrain-metrics.v0.1.0.json")) as f:
    SCHEMA = json.load(f)
jsonschema.Draft202012Validator.check_schema(SCHEMA)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SMALL = ["--d", "8", "--heads", "2", "--seq-len", "8", "--quiet", "--seed", "7", "--steps", "12"]


def train(w, *args):
    p = subprocess.run([nltrain, "train", *args], capture_output=True, text=True, cwd=w)
    if p.returncode != 0:
        failures.append("train %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))


def lines(path):
    if not os.path.exists(path):
        return b"(missing)"
    with open(path, "rb") as f:
        return f.read()


def check_lines(path, timing):
    if not os.path.exists(path):
        failures.append("%s was not written" % path)
        return
    for n, line in enumerate(open(path), 1):
        doc = json.loads(line)
        errors = list(VALIDATOR.iter_errors(doc))
        if errors:
            failures.append("%s:%d does not match nltrain-metrics: %s" % (path, n, errors[0].message))
        if ("timing" in doc) != timing:
            failures.append("%s:%d: timing %s" % (path, n, "missing" if timing else "present without --metrics-timing"))


with tempfile.TemporaryDirectory() as w:
    train(w, *SMALL, "--out", "a", "--metrics", "a.jsonl")
    train(w, *SMALL, "--out", "b", "--metrics", "b.jsonl")
    train(w, *SMALL, "--out", "t", "--metrics", "t.jsonl", "--metrics-timing")
    train(w, *SMALL, "--out", "r", "--metrics", "r.jsonl", "--stop-at", "5")
    train(w, "--resume", "r", "--metrics", "r.jsonl", "--quiet")
    # Under a budget (4K: one cache of this model, so the others move) with and without the seconds.
    train(w, *SMALL, "--out", "m", "--metrics", "m.jsonl", "--memory-budget", "4K")
    train(w, *SMALL, "--out", "mt", "--metrics", "mt.jsonl", "--memory-budget", "4K", "--metrics-timing")
    a, b, r = (os.path.join(w, x) for x in ("a.jsonl", "b.jsonl", "r.jsonl"))
    check_lines(a, False)
    check_lines(r, False)
    check_lines(os.path.join(w, "t.jsonl"), True)
    check_lines(os.path.join(w, "m.jsonl"), False)
    check_lines(os.path.join(w, "mt.jsonl"), True)
    for n, line in enumerate(lines(os.path.join(w, "m.jsonl")).decode().splitlines(), 1):
        if "memory" not in json.loads(line):
            failures.append("m.jsonl:%d: no memory object under --memory-budget" % n)
    if lines(a).count(b"\n") != 12:
        failures.append("a.jsonl: %d lines, want 12" % lines(a).count(b"\n"))
    if lines(a) != lines(b):
        failures.append("two runs of the same seeded training wrote different metrics bytes")
    if lines(a) != lines(r):
        failures.append("a stopped and resumed run wrote different metrics bytes from the straight one")
    # The deterministic part of a timing run is the same too.
    stripped = b"".join((json.dumps({k: v for k, v in json.loads(l).items() if k != "timing"}, separators=(",", ":")) + "\n").encode()
                        for l in lines(os.path.join(w, "t.jsonl")).decode().splitlines() if l.startswith("{"))
    if stripped != lines(a):
        failures.append("--metrics-timing changed the deterministic fields")

# What the format does not allow.
good = {"step": 0, "loss": 5.5, "grad_norm": 0.1, "lr": 0.0}
MEMORY = {"budget_bytes": 9, "spilled_bytes": 0, "restored_bytes": 0, "stored_bytes": 0, "peak_resident_bytes": 0,
          "tier": "ssd", "codec": "zstd", "learned": False}
for ok in (MEMORY, {k: v for k, v in MEMORY.items() if k not in ("tier", "codec", "learned")}):
    if list(VALIDATOR.iter_errors(dict(good, memory=ok))):
        failures.append("nltrain-metrics refuses a good memory object: %s" % ok)
for bad, what in ((dict(good, tokens_per_s=100.0), "a wall-clock field at the top level"),
                  ({k: v for k, v in good.items() if k != "loss"}, "no loss"),
                  (dict(good, step=-1), "a negative step"),
                  (dict(good, step=1.5), "a fractional step"),
                  (dict(good, timing={"tokens_per_s": 1.0}), "timing without elapsed_s"),
                  (dict(good, timing={"tokens_per_s": 1.0, "elapsed_s": 0.5, "x": 1}), "an unknown timing field"),
                  (dict(good, memory=dict(MEMORY, budget_bytes=0)), "a budget of 0 bytes"),
                  (dict(good, memory=dict(MEMORY, tier="Fast")), "a tier label with a capital"),
                  (dict(good, memory=dict(MEMORY, codec="lz4")), "an unknown codec"),
                  (dict(good, memory=dict(MEMORY, learned=1)), "learned as a number"),
                  (dict(good, memory={"budget_bytes": 9, "spilled_bytes": 0}), "a memory object without its counts")):
    if not list(VALIDATOR.iter_errors(bad)):
        failures.append("nltrain-metrics accepts %s" % what)

for f in failures:
    print("FAIL:", f, file=sys.stderr)
print("%d failure(s)" % len(failures) if failures else "all assertions passed")
sys.exit(1 if failures else 0)
