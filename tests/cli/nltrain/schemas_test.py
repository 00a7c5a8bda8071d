#!/usr/bin/python3
"""nltrain's --json outputs against schemas/nltrain-*.v0.1.0.json, with Python's jsonschema
(Debian's): the real outputs of train --json (fresh, resumed, with --metrics - so the summary goes
to stderr), eval --json, generate --json, gradcheck --json (one rule, --all-rules, a learned
schedule, a failing negative control), and init / grads (nltrain-state, nltrain-state-result).
A schema that rejects a real output, or accepts a hand-broken one, fails the test.

usage: schemas_test.py <nltrain> <schemas dir>"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from schema_checks import Schemas, describe, mutated  # noqa: E402

nltrain, schemas = os.path.abspath(sys.argv[1]), Schemas(sys.argv[2])
failures = []
SMALL = ["--d", "8", "--heads", "2", "--seq-len", "8", "--seed", "7"]


def valid(name, doc, what):
    errors = schemas.errors(name, doc)
    if errors:
        failures.append("%s does not match %s: %s" % (what, name, describe(errors[0])))
    return doc


def invalid(name, doc, what):
    if not schemas.errors(name, doc):
        failures.append("%s should not match %s" % (what, name))


def run(*args, rc=0, cwd=None):
    p = subprocess.run([nltrain, *args], capture_output=True, text=True, cwd=cwd)
    if p.returncode != rc:
        failures.append("%s: exit %d, want %d: %s" % (" ".join(args), p.returncode, rc, p.stderr.strip()))
    return p


def one_json(text, what):
    lines = text.splitlines()
    if len(lines) != 1:
        failures.append("%s: %d lines on its stream, want one JSON line: %r" % (what, len(lines), text[:200]))
        return {}
    return json.loads(lines[0])


with tempfile.TemporaryDirectory() as w:
    # train --json: a fresh run stopped early, its resumption, and a run whose metrics take stdout.
    run_dir = os.path.join(w, "run")
    p = run("train", *SMALL, "--steps", "12", "--stop-at", "6", "--out", run_dir, "--quiet", "--json")
    first = valid("nltrain-train-result", one_json(p.stdout, "train --json"), "train --json")
    p = run("train", "--resume", run_dir, "--quiet", "--json")
    valid("nltrain-train-result", one_json(p.stdout, "train --resume --json"), "train --resume --json")
    p = run("train", *SMALL, "--steps", "3", "--out", os.path.join(w, "m"), "--quiet", "--json", "--metrics", "-")
    valid("nltrain-train-result", one_json(p.stderr, "train --metrics - --json (stderr)"), "train --json beside --metrics -")
    invalid("nltrain-train-result", mutated(first, lambda d: d.pop("checkpoint")), "train result without checkpoint")
    invalid("nltrain-train-result", mutated(first, lambda d: d["timing"].update(outside_share=1.5)), "train result with outside_share 1.5")
    invalid("nltrain-train-result", mutated(first, lambda d: d.update(timing={})), "train result with an empty timing")
    invalid("nltrain-train-result", mutated(first, lambda d: d.update(status="done")), "train result with an unknown status")
    # The whole run again: nothing to do, still one JSON line (the deterministic part as before).
    p = run("train", "--resume", run_dir, "--quiet", "--json")
    done = valid("nltrain-train-result", one_json(p.stdout, "train --resume --json, complete"), "train --json on a complete run")
    if done.get("status") != "complete" or done.get("steps") != 0:
        failures.append("train --json on a complete run: %r" % done)

    # eval --json, on the run's own text and on a given one, all chunks or a few.
    text = os.path.join(w, "text.txt")
    with open(text, "w") as f:
        f.write("the quick brown fox jumps over the lazy dog. " * 8)
    ev = valid("nltrain-eval-result", one_json(run("eval", "--checkpoint", run_dir, "--json").stdout, "eval"), "eval --json")
    valid("nltrain-eval-result", one_json(run("eval", "--checkpoint", run_dir, "--data", text, "--max-chunks", "3",
                                              "--json").stdout, "eval --data"), "eval --data --max-chunks --json")
    invalid("nltrain-eval-result", mutated(ev, lambda d: d.update(chunks=0)), "eval result over no chunks")
    invalid("nltrain-eval-result", mutated(ev, lambda d: d.update(loss="1.2")), "eval result with a string loss")
    # On token ids (train --vocab --data-format u16) the unit is the token: bits_per_token, never both.
    ids = os.path.join(w, "ids.u16")
    with open(ids, "wb") as f:
        f.write(b"".join(((i * 337) % 1000).to_bytes(2, "little") for i in range(200)))
    tok_dir = os.path.join(w, "tok")
    run("train", *SMALL, "--vocab", "1000", "--data", ids, "--data-format", "u16", "--steps", "2", "--out", tok_dir, "--quiet")
    evt = valid("nltrain-eval-result", one_json(run("eval", "--checkpoint", tok_dir, "--json").stdout, "eval u16"), "eval --json on u16 ids")
    if "bits_per_token" not in evt or "bits_per_byte" in evt:
        failures.append("eval --json on u16 ids: %r" % evt)
    invalid("nltrain-eval-result", mutated(evt, lambda d: d.update(bits_per_byte=1.0)), "eval result with bits per byte and per token")
    invalid("nltrain-eval-result", mutated(ev, lambda d: d.pop("bits_per_byte")), "eval result without bits per byte or token")

    # generate --json: sampled and greedy.
    gen = valid("nltrain-generate-result", one_json(run("generate", "--checkpoint", run_dir, "--prompt", "the ", "--tokens",
                                                        "20", "--json").stdout, "generate"), "generate --json")
    valid("nltrain-generate-result", one_json(run("generate", "--checkpoint", run_dir, "--prompt", "a", "--tokens", "5",
                                                  "--temperature", "0", "--seed", "3", "--json").stdout, "generate greedy"),
          "generate --temperature 0 --json")
    invalid("nltrain-generate-result", mutated(gen, lambda d: d.update(temperature=-1)), "generate result with temperature -1")
    invalid("nltrain-generate-result", mutated(gen, lambda d: d.pop("text")), "generate result without text")

    # gradcheck --json: one object per rule; an array with --all-rules; a failing negative control.
    rep = valid("nltrain-gradcheck-result", json.loads(run("gradcheck", "--json").stdout), "gradcheck --json")
    valid("nltrain-gradcheck-result", json.loads(run("gradcheck", "--rule", "titans", "--levels", "3", "--stress", "--json").stdout),
          "gradcheck --stress --levels 3 --json")
    valid("nltrain-gradcheck-result", json.loads(run("gradcheck", "--levels", "2", "--schedule", "learned", "--json").stdout),
          "gradcheck --schedule learned --json")
    neg = valid("nltrain-gradcheck-result", json.loads(run("gradcheck", "--perturb-gradient", "W_O[3]+=0.01", "--json",
                                                           rc=1).stdout), "gradcheck --perturb-gradient --json")
    if not isinstance(neg, dict) or neg.get("passed") is not False or "perturbed" not in neg:
        failures.append("the negative control did not report a failure with its perturbation: %r" % (neg,))
    every = valid("nltrain-gradcheck-result", json.loads(run("gradcheck", "--all-rules", "--json").stdout),
                  "gradcheck --all-rules --json")
    if not isinstance(every, list) or len(every) != 9:
        failures.append("gradcheck --all-rules --json is not one report per rule")
    invalid("nltrain-gradcheck-result", mutated(rep, lambda d: d.update(rule="DeltaRule")), "gradcheck with a long rule name")
    invalid("nltrain-gradcheck-result", mutated(rep, lambda d: d["tensors"][0].pop("fd_worst_rel")),
            "gradcheck tensor without fd_worst_rel")
    invalid("nltrain-gradcheck-result", [], "an empty --all-rules list")

    # init / grads: the chunk state and its result (schemas of their own, nltrain_state.cpp).
    state = os.path.join(w, "state.json")
    run("init", *SMALL, "--levels", "2", "--step", "1", "--out", state)
    with open(state) as f:
        valid("nltrain-state", json.load(f), "init --out")
    for extra in ([], ["--fp64"]):
        res = valid("nltrain-state-result", one_json(run("grads", state, *extra).stdout, "grads"), "grads %s" % extra)
    invalid("nltrain-state-result", mutated(res, lambda d: d.update(format="nltrain-state-result/0.2.0")),
            "grads result of another format version")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("all nltrain --json schemas hold")
