#!/usr/bin/env python3
"""`bp import` against the reference CLI, both with import_timestamp pinned by SOURCE_DATE_EPOCH
(ours reads it; the reference is run with bp_import_pin_date.cjs preloaded, which pins its
`new Date()`), so the whole output is compared byte for byte, bundle_root_digest included.

1. Every sidecar in the reference's fixtures/external/ (real framework output): same exit code,
   same receipt bytes on stdout, same --json summary on stderr.
2. The reference's bad fixtures of the import families (external, multi-step-external,
   pytorch-helper, jax, tensorflow): same verdict (exit code), same receipt bytes, and every
   disagreement the reference reports is among ours with the same numbers. Documented
   deliberate differences (DIFFERENCES below) must differ exactly as documented.
3. Stricter than the reference (bp(1), IMPORT): each field in STRICTER, moved by 0.5 in a real
   sidecar, is accepted by the reference (exit 0) and rejected by ours (exit 1, that field named).
Exit 77 when the reference is not installed (1 under CI=true).

usage: bp_import_compare.py --bp BP --node NODE --reference PKG_DIR"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import reference_batch
from reference_gate import reference_missing

HERE = os.path.dirname(os.path.abspath(__file__))
EPOCH = "1700000000"
FAMILIES = {"external": "pytorch", "multi-step-external": "pytorch", "pytorch-helper": "pytorch",
            "jax": "jax", "tensorflow": "tensorflow"}
# Deliberate differences (bp(1), IMPORT, "Stricter than the reference"): file -> (our exit, reference exit,
# a field path our differential must report).
DIFFERENCES = {
    # The reference's single-step differential never compares loss; the stale loss passes it.
    "pytorch-helper.bad-loss-stale.jsonl": (1, 0, "loss.total"),
}


# Field the reference's differential skips -> (sidecar in fixtures/external, mutation, path ours reports).
def _bump(path):
    def mutate(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] += 0.5
    return mutate


STRICTER = {
    "downstream contribution": ("pytorch.softmax-ce.sidecar.jsonl",
                                _bump(["backward", "hidden_error_signals", "h1", "downstream_contributions", 0, "value"]),
                                "backward.hidden_error_signals.h1.downstream_contributions[0].value"),
    "downstream signal": ("pytorch.softmax-ce.sidecar.jsonl",
                          _bump(["backward", "hidden_error_signals", "h1", "downstream_contributions", 0,
                                 "downstream_signal"]),
                          "backward.hidden_error_signals.h1.downstream_contributions[0].downstream_signal"),
    "downstream weight value": ("pytorch.softmax-ce.sidecar.jsonl",
                                _bump(["backward", "hidden_error_signals", "h1", "downstream_contributions", 0,
                                       "weight_value"]),
                                "backward.hidden_error_signals.h1.downstream_contributions[0].weight_value"),
    "dual form Jacobian term": ("pytorch.softmax-ce.sidecar.jsonl",
                                _bump(["backward", "output_error_signals", "o1", "dual_form", "jacobian_terms", 0,
                                       "term_value"]),
                                "backward.output_error_signals.o1.dual_form.jacobian_terms[0].term_value"),
    "dual form Jacobian factor": ("pytorch.softmax-ce.sidecar.jsonl",
                                  _bump(["backward", "output_error_signals", "o1", "dual_form", "jacobian_terms", 1,
                                         "factors", 1, "value"]),
                                  "backward.output_error_signals.o1.dual_form.jacobian_terms[1].factors[1].value"),
    "dual form summed value": ("pytorch.softmax-ce.sidecar.jsonl",
                               _bump(["backward", "output_error_signals", "o1", "dual_form", "summed_value"]),
                               "backward.output_error_signals.o1.dual_form.summed_value"),
    "batched loss per-sample map": ("pytorch.softmax-ce.batched.sidecar.jsonl", _bump(["loss", "per_sample", "s1"]),
                                    "loss.per_sample.s1"),
    "output signal factor": ("pytorch.adam.sidecar.jsonl",
                             _bump(["backward", "output_error_signals", "o1", "factors", 0, "value"]),
                             "backward.output_error_signals.o1.factors[0].value"),
    "loss total (unbatched)": ("pytorch.softmax-ce.sidecar.jsonl", _bump(["loss", "total"]), "loss.total"),
    "loss per output (unbatched)": ("pytorch.softmax-ce.sidecar.jsonl", _bump(["loss", "per_output", "o1"]),
                                    "loss.per_output.o1"),
    "weight_before": ("pytorch.softmax-ce.sidecar.jsonl", _bump(["updates", 0, "weight_before"]),
                      "updates[w_x1_h1].weight_before"),
    "per-update learning rate": ("pytorch.softmax-ce.sidecar.jsonl", _bump(["updates", 0, "optimizer", "learning_rate"]),
                                 "updates[w_x1_h1].optimizer.learning_rate"),
    "update gradient factor": ("pytorch.softmax-ce.sidecar.jsonl", _bump(["updates", 0, "optimizer", "factors", 0, "value"]),
                               "updates[w_x1_h1].optimizer.factors[0].value"),
    "post-update forward": ("pytorch.adam.sidecar.jsonl", _bump(["post_update_forward", "o1", "net"]),
                            "post_update_forward.o1.net"),
    "post-update loss": ("pytorch.adam.sidecar.jsonl", _bump(["post_update_loss", "total"]), "post_update_loss.total"),
    "extra forward unit": ("pytorch.softmax-ce.sidecar.jsonl",
                           lambda d: d["forward"].__setitem__("zz", {"net": 1.0, "out": 0.5}), "forward.zz"),
    "dropped update": ("pytorch.softmax-ce.sidecar.jsonl", lambda d: d["updates"].pop(0), "updates[w_x1_h1]"),
    "batched top-level forward net": ("pytorch.softmax-ce.batched.sidecar.jsonl", _bump(["forward", "o1", "net"]),
                                      "forward.o1.net"),
}


def framework_and_mode(name):
    family = name.split(".", 1)[0]
    multi = "multi-step" in name
    return FAMILIES.get(family, family), multi


def run(cmd, env):
    p = subprocess.run(cmd, capture_output=True, env=env)
    return p.returncode, p.stdout, p.stderr


def json_or_none(raw):
    try:
        return json.loads(raw)
    except ValueError:
        return None


def disagreements(summary):
    """fieldPath -> numbers, over single- and multi-step summaries."""
    out = {}
    if not isinstance(summary, dict):
        return out
    diff = summary.get("differential", {})
    lists = [diff.get("disagreements", [])]
    if lists[0] and isinstance(lists[0][0], dict) and "step_index" in lists[0][0]:
        lists = [[dict(d, fieldPath="%d:%s" % (s["step_index"], d["fieldPath"])) for d in s["disagreements"]]
                 for s in lists[0]]
    for lst in lists:
        for d in lst:
            out[d["fieldPath"]] = (d["delta"], d["appliedTolerance"], d["stored"], d["recomputed"])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bp", required=True)
    ap.add_argument("--node", default="node")
    ap.add_argument("--reference", required=True)
    args = ap.parse_args()
    missing = reference_missing(args.reference, args.node)
    if missing is not None:
        return missing
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, NO_COLOR="1")
    work = tempfile.mkdtemp(prefix="bp_import_compare_")
    try:
        return compare(args, env, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def compare(args, env, work):
    external = sorted(glob.glob(os.path.join(args.reference, "fixtures", "external", "*.sidecar.jsonl")))
    bad = sorted(f for f in glob.glob(os.path.join(args.reference, "fixtures", "bad", "*.jsonl"))
                 if os.path.basename(f).split(".", 1)[0] in FAMILIES)
    cases = []
    for f in external + bad:
        fw, multi = framework_and_mode(os.path.basename(f))
        words = ["import", fw] + (["multi"] if multi else []) + [f, "--json"]
        cases.append((f, words))
    # Ours reads the mutated sidecars below from stdin; the reference, run in one batch, from a
    # file of the same bytes (its stdin is its own process's).
    stdin_cases = []
    for label, (fname, mutate, path) in STRICTER.items():
        with open(os.path.join(args.reference, "fixtures", "external", fname), encoding="utf-8") as fh:
            doc = json.loads(fh.read())
        mutate(doc)
        stdin_cases.append((label, ["import", "pytorch", "-", "--json"], json.dumps(doc).encode(), path))
    # A sidecar string that spells the bundle digest's placeholder is carried as it is: only the
    # digest field gets the digest (bp once rewrote every occurrence in the bundle's bytes).
    trace = os.path.join(args.reference, "fixtures", "external", "pytorch.sgd-momentum.multi-step.sidecar.jsonl")
    with open(trace, encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    for record in records:
        record["source_framework"]["version"] = "sha256:" + "0" * 64
    text = "".join(json.dumps(record) + "\n" for record in records).encode()
    stdin_cases.append(("placeholder-spelling version", ["import", "pytorch", "multi", "-"], text, None))
    from_files = []
    for i, (_, words, text, _) in enumerate(stdin_cases):
        name = os.path.join(work, "stdin_%02d.jsonl" % i)
        with open(name, "wb") as fh:
            fh.write(text)
        from_files.append([name if w == "-" else w for w in words])
    # One node process for all of them (reference_batch.py), its Date pinned, while ours run.
    reference = reference_batch.start(args.node, args.reference, [words for _, words in cases] + from_files, env,
                                      os.path.join(HERE, "bp_import_pin_date.cjs"))

    with ThreadPoolExecutor(max_workers=2) as pool:
        ours_cases = list(pool.map(lambda case: run([args.bp] + case[1], env), cases))
        ours_stdin = list(pool.map(lambda case: subprocess.run([args.bp] + case[1], input=case[2], capture_output=True,
                                                                env=env), stdin_cases))
    ref_results = reference()
    results = list(zip(ours_cases, ref_results[:len(cases)]))
    ref_stdin = ref_results[len(cases):]
    failures = []
    counts = {"external": [0, 0], "bad": [0, 0]}
    for (f, words), ((rc, out, err), (ref_rc, ref_out, ref_err)) in zip(cases, results):
        name = os.path.basename(f)
        kind = "external" if f in external else "bad"
        counts[kind][0] += 1
        problems = []
        summary, ref_summary = json_or_none(err), json_or_none(ref_err)
        if name in DIFFERENCES:
            want_rc, want_ref_rc, path = DIFFERENCES[name]
            if (rc, ref_rc) != (want_rc, want_ref_rc):
                problems.append("documented difference: expected ours %d / reference %d, got %d / %d"
                                % (want_rc, want_ref_rc, rc, ref_rc))
            if path not in disagreements(summary):
                problems.append("documented difference: ours does not report %s" % path)
            ref_out = ref_out.replace(b"engine_recompute_matched_within_tolerance", b"engine_recompute_disagreed")
        elif rc != ref_rc:
            problems.append("exit %d, reference %d" % (rc, ref_rc))
        if out != ref_out:
            problems.append("stdout differs (%d vs %d bytes)" % (len(out), len(ref_out)))
        if ref_rc == 2:
            ok = isinstance(summary, dict) and summary.get("ok") is False and \
                summary.get("error", {}).get("kind") == ref_summary.get("error", {}).get("kind")
            if not ok:
                problems.append("failure summary %r, reference %r" % (err[:200], ref_err[:200]))
        elif name not in DIFFERENCES:
            ours, theirs = disagreements(summary), disagreements(ref_summary)
            for path, numbers in theirs.items():
                if ours.get(path) != numbers:
                    problems.append("reference disagreement %s %r, ours %r" % (path, numbers, ours.get(path)))
            if ref_rc == 0 and summary != ref_summary:
                problems.append("summary %r, reference %r" % (err[:200], ref_err[:200]))
        if problems:
            failures.append("%s (%s): %s" % (name, " ".join(words[:3]), "; ".join(problems)))
        else:
            counts[kind][1] += 1
    stricter_ok = 0
    for (label, words, _, path), ours, (ref_rc, ref_out, _) in zip(stdin_cases, ours_stdin, ref_stdin):
        if path is None:  # the placeholder spelling: the same bytes
            if (ours.returncode, ours.stdout) != (ref_rc, ref_out) or ref_rc != 0:
                failures.append("%s: exit %d, reference %d; stdout %s" % (
                    label, ours.returncode, ref_rc, "same" if ours.stdout == ref_out else "differs"))
            continue
        reported = disagreements(json_or_none(ours.stderr))
        if ref_rc != 0 or ours.returncode != 1 or path not in reported:
            failures.append("stricter %s: reference exit %d (want 0), ours %d (want 1), ours reports %s: %s"
                            % (label, ref_rc, ours.returncode, path, path in reported))
        else:
            stricter_ok += 1
    for line in failures:
        print("MISMATCH", line)
    print("stricter: %d/%d fields the reference accepts are rejected by ours" % (stricter_ok, len(STRICTER)))
    print("import: %d/%d external sidecars match the reference's bytes and exit code; "
          "%d/%d import-family bad fixtures get the reference's verdict (%d documented differences)"
          % (counts["external"][1], counts["external"][0], counts["bad"][1], counts["bad"][0], len(DIFFERENCES)))
    return 1 if failures or counts["external"][0] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
