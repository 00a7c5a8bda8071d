#!/usr/bin/env python3
"""bp import: streams, exit codes, SOURCE_DATE_EPOCH, multi-step sequencing and the bundle digest,
and the fields our differential compares that the reference's does not (bp(1), IMPORT).
Sidecars are built from our own engine's receipts (`bp generate`), so no reference is needed.

usage: import_test.py <bp> <scratch dir> <schemas dir>"""
import hashlib
import json
import os
import re
import subprocess
import sys

from bp_cli import Failures, bp_from_argv, expect, run

EPOCH0 = {"SOURCE_DATE_EPOCH": "0"}


def receipts(bp, name):
    rc, out, err = run(bp, ["generate", name])
    assert rc == 0, err
    return [json.loads(line) for line in out.decode().splitlines()]


def to_sidecar(receipt, allowed, fmt, framework="pytorch", keep_sequence=True):
    s = {"format": fmt, "source_framework": {"name": framework, "version": "2.5.0"}}
    for key, value in receipt.items():
        if key in allowed and key not in s and (keep_sequence or key not in ("trace_id", "step_index")):
            s[key] = value
    return s


def write(path, docs, lines=True):
    with open(path, "w", encoding="utf-8") as fh:
        if lines:
            fh.write("".join(json.dumps(d) + "\n" for d in docs))
        else:
            fh.write(json.dumps(docs[0], indent=2))
    return path


def sha256_file(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def main():
    bp = bp_from_argv()
    scratch, schemas = sys.argv[2], sys.argv[3]
    os.makedirs(scratch, exist_ok=True)
    allowed = {}
    for v in ("0.1.0", "0.2.0"):
        with open(os.path.join(schemas, "framework-trace.v%s.json" % v), encoding="utf-8") as fh:
            allowed[v] = set(json.load(fh)["properties"])
    f = Failures()

    # --- single step -------------------------------------------------------------------------------
    sidecar = to_sidecar(receipts(bp, "softmax-ce")[0], allowed["0.1.0"], "framework-trace.v0.1.0")
    path = write(os.path.join(scratch, "softmax.sidecar.json"), [sidecar], lines=False)
    rc, out, err = expect(f, bp, "single", ["import", "pytorch", path], 0, stderr="", env=EPOCH0)
    receipt = json.loads(out)
    f.check("single one line", out.count(b"\n"), 1)
    f.check("single timestamp", receipt["attestor"]["import_provenance"]["import_timestamp"], "1970-01-01T00:00:00.000Z")
    f.check("single source_hash", receipt["attestor"]["import_provenance"]["source_hash"], "sha256:" + sha256_file(path))
    f.check("single state", receipt["fixture_status"]["verification_state"], "engine_recompute_matched_within_tolerance")
    f.check("single schema_version", receipt["schema_version"], "0.4.0")
    f.check("single fixture", receipt["fixture"], "pytorch-imported-step")
    with open(path, "rb") as fh:
        expect(f, bp, "single stdin", ["import", "pytorch", "-"], 0, stdout=out.decode(), stderr="", stdin=fh.read(),
               env=EPOCH0)
    expect(f, bp, "single json", ["import", "pytorch", path, "--json"], 0, stdout=out.decode(),
           stderr='{"ok":true,"differential":{"passed":true,"disagreements":[]}}\n', env=EPOCH0)
    # Two documents, or a malformed one after blank lines: the refusal names the file's line.
    one = json.dumps(sidecar, separators=(",", ":")).encode() + b"\n"
    for name, text, line in (("two documents", one + one, 2), ("after blank lines", b"\n\n" + one[:-3] + b"\n", 3)):
        bad = os.path.join(scratch, "bad-%s.json" % name.replace(" ", "-"))
        with open(bad, "wb") as fh:
            fh.write(text)
        rc, _, err = expect(f, bp, "single " + name, ["import", "pytorch", bad], 2, stdout="")
        f.truth("single %s: one line naming line %d" % (name, line),
                err.count(b"\n") == 1 and (b"not valid JSON at line %d: " % line) in err, repr(err[:300]))
    out_file = os.path.join(scratch, "single.receipt.jsonl")
    expect(f, bp, "single --out", ["import", "pytorch", path, "--out", out_file], 0, stdout="",
           stderr="import ok: differential check passed; wrote %s\n" % out_file, env=dict(EPOCH0, NO_COLOR="1"))
    with open(out_file, "rb") as fh:
        f.check("single --out bytes", fh.read(), out)
    # A device is written in place, never replaced by a regular file (rename over /dev/full).
    if os.path.exists("/dev/full") and os.path.exists("/dev/null"):
        expect(f, bp, "--out /dev/null", ["import", "pytorch", path, "--out", "/dev/null"], 0, stdout="", env=EPOCH0)
        expect(f, bp, "--out /dev/full", ["import", "pytorch", path, "--out", "/dev/full"], 2, stdout="", env=EPOCH0)
        f.truth("/dev/full is still a device", not os.path.isfile("/dev/full"))
        f.truth("/dev/null is still a device", not os.path.isfile("/dev/null"))
    expect(f, bp, "single verbose", ["import", "pytorch", path, "-V"], 0,
           stderr="bp: importing %s via bp import pytorch\n" % path, env=EPOCH0)
    _, later, _ = run(bp, ["import", "pytorch", path], env={"SOURCE_DATE_EPOCH": "1700000000"})
    f.check("SOURCE_DATE_EPOCH", json.loads(later)["attestor"]["import_provenance"]["import_timestamp"],
            "2023-11-14T22:13:20.000Z")
    _, padded, _ = run(bp, ["import", "pytorch", path], env={"SOURCE_DATE_EPOCH": "00000000000000000001700000000"})
    f.check("SOURCE_DATE_EPOCH with leading zeros", padded, later)
    rc, clock, _ = run(bp, ["import", "pytorch", path])  # the clock, or SOURCE_DATE_EPOCH if CI sets one
    f.truth("wall clock timestamp", re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",
            json.loads(clock)["attestor"]["import_provenance"]["import_timestamp"]) is not None)
    for bad in ("abc", "-1", "1.5", "", "99999999999999", "0099999999999999", "+1"):
        expect(f, bp, "bad SOURCE_DATE_EPOCH %r" % bad, ["import", "pytorch", path], 3, stdout="",
               env={"SOURCE_DATE_EPOCH": bad})

    # Refused sidecars: exit 2, no receipt, the reason on stderr ("import failed") or as JSON on stderr.
    rc, o, e = expect(f, bp, "wrong framework", ["import", "jax", path], 2, stdout="", env=dict(EPOCH0, NO_COLOR="1"))
    f.truth("wrong framework message", e.startswith(("bp: %s: bp import jax: sidecar declares "
                                                     "source_framework.name='pytorch'" % path).encode())
            and e.count(b"\n") == 1, repr(e[:300]))
    # One line naming the file, also for a schema refusal and from stdin.
    no_framework = os.path.join(scratch, "no-framework.json")
    with open(no_framework, "w") as g:
        g.write('{"format":"framework-trace.v0.7.0"}')
    expect(f, bp, "schema refusal", ["import", "pytorch", no_framework], 2, stdout="",
           stderr="bp: %s: bp import pytorch: sidecar failed framework-trace.v0.7.0 validation: /: must have "
                  "required property 'source_framework'\n" % no_framework, env=dict(EPOCH0, NO_COLOR="1"))
    expect(f, bp, "schema refusal from stdin", ["import", "pytorch", "-"], 2, stdout="",
           stderr="bp: <stdin>: bp import pytorch: sidecar failed framework-trace.v0.7.0 validation: /: must have "
                  "required property 'source_framework'\n", stdin=b'{"format":"framework-trace.v0.7.0"}',
           env=dict(EPOCH0, NO_COLOR="1"))
    rc, o, e = expect(f, bp, "wrong framework json", ["import", "tensorflow", path, "--json"], 2, stdout="", env=EPOCH0)
    f.check("wrong framework json kind", json.loads(e)["error"]["kind"], "IMPORT_FAILED")
    for name, text in (("empty", "  \n"), ("not json", "{"), ("array", "[]"), ("nan", '{"format": NaN}')):
        rc, o, e = expect(f, bp, "refused " + name, ["import", "pytorch", "-"], 2, stdout="", stdin=text.encode(),
                          env=EPOCH0)
    multi_format = dict(sidecar, format="framework-trace.v0.2.0")
    rc, o, e = expect(f, bp, "v0.2.0 single", ["import", "pytorch", "-"], 2, stdout="",
                      stdin=json.dumps(multi_format).encode(), env=EPOCH0)
    f.truth("v0.2.0 single hint", b"bp import pytorch multi <file>" in e, repr(e[:300]))
    dropped = json.loads(json.dumps(sidecar))
    del dropped["parameters_after"][next(iter(dropped["parameters_after"]))]
    expect(f, bp, "parameters_after incomplete", ["import", "pytorch", "-"], 2, stdout="",
           stdin=json.dumps(dropped).encode(), env=EPOCH0)
    lion = dict(sidecar, optimizer={"name": "lion", "learning_rate": 0.5})
    rc, o, e = expect(f, bp, "unsupported optimizer", ["import", "pytorch", "-"], 2, stdin=json.dumps(lion).encode(),
                      env=EPOCH0)
    f.truth("unsupported optimizer names the set", b"Supported optimizers: sgd, sgd_momentum, adam, adamw" in e)

    # Stricter than the reference: each field, moved, is caught (exit 1) and the receipt is still written.
    def bump(path_keys):
        doc = json.loads(json.dumps(sidecar))
        node = doc
        for k in path_keys[:-1]:
            node = node[k]
        node[path_keys[-1]] += 0.5
        return doc
    first_update = sidecar["updates"][0]["parameter_id"]
    stricter = [
        (["loss", "total"], "loss.total"),
        (["loss", "per_output", "o1"], "loss.per_output.o1"),
        (["backward", "hidden_error_signals", "h1", "downstream_contributions", 0, "value"],
         "backward.hidden_error_signals.h1.downstream_contributions[0].value"),
        (["backward", "output_error_signals", "o1", "dual_form", "summed_value"],
         "backward.output_error_signals.o1.dual_form.summed_value"),
        (["updates", 0, "weight_before"], "updates[%s].weight_before" % first_update),
        (["updates", 0, "optimizer", "learning_rate"], "updates[%s].optimizer.learning_rate" % first_update),
        (["updates", 0, "optimizer", "factors", 0, "value"], "updates[%s].optimizer.factors[0].value" % first_update),
        (["post_update_forward", "o1", "net"], "post_update_forward.o1.net"),
        (["post_update_loss", "total"], "post_update_loss.total"),
    ]
    for keys, field in stricter:
        try:
            doc = bump(keys)
        except (KeyError, IndexError, TypeError):
            f.truth("stricter %s: the generated sidecar has the field" % field, False)
            continue
        rc, o, e = expect(f, bp, "stricter " + field, ["import", "pytorch", "-", "--json"], 1,
                          stdin=json.dumps(doc).encode(), env=EPOCH0)
        summary = json.loads(e)
        found = [d for d in summary["differential"]["disagreements"] if d["fieldPath"] == field]
        f.truth("stricter %s reported as extended" % field, found and found[0].get("extended") is True, e[:300])
        f.check("stricter %s receipt state" % field, json.loads(o)["fixture_status"]["verification_state"],
                "engine_recompute_disagreed")
    # Human rendering of a disagreement (a field the reference compares too).
    doc = bump(["forward", "o1", "out"])
    rc, o, e = expect(f, bp, "human disagreement", ["import", "pytorch", "-"], 1, stdin=json.dumps(doc).encode(),
                      env=dict(EPOCH0, NO_COLOR="1"))
    f.truth("human disagreement text", e.startswith(b"import warning: engine-recompute differential DISAGREED on ")
            and b"\n  disagree forward.o1.out: stored=" in e, repr(e[:300]))

    # --- multi-step ----------------------------------------------------------------------------------
    steps = receipts(bp, "xor-multi-step")
    trace = "0123456789abcdef0123456789abcdef"
    records = []
    for r in steps:
        s = to_sidecar(r, allowed["0.2.0"], "framework-trace.v0.2.0")
        s["trace_id"] = trace
        records.append(s)
    mpath = write(os.path.join(scratch, "xor.multi.sidecar.jsonl"), records)
    rc, out, err = expect(f, bp, "multi", ["import", "pytorch", "multi", mpath], 0, stderr="", env=EPOCH0)
    lines = out.decode().splitlines()
    f.check("multi records", len(lines), len(records))
    digests = set()
    unbound = ""
    for i, line in enumerate(lines):
        r = json.loads(line)
        f.check("multi step_index %d" % i, (r["step_index"], r["step"], r["trace_id"]), (i, i + 1, trace))
        f.check("multi fixture %d" % i, r["fixture"], "pytorch-imported-multi-step-step-%d" % i)
        digests.add(r["attestor"]["bundle_root_digest"])
        unbound += re.sub(r',"bundle_root_digest":"sha256:[0-9a-f]{64}"', "", line) + "\n"
    f.check("multi one bundle digest", digests, {"sha256:" + hashlib.sha256(unbound.encode()).hexdigest()})
    rc, o, e = expect(f, bp, "multi json", ["import", "pytorch", "multi", mpath, "--json"], 0, stdout=out.decode(),
                      env=EPOCH0)
    f.check("multi json summary", json.loads(e), {"ok": True, "steps": len(records),
                                                  "bundle_root_digest": digests.pop() if digests else None,
                                                  "differential": {"all_passed": True}})
    # No trace_id / step_index anywhere: synthesized from the source hash, 0..N-1.
    bare = [to_sidecar(r, allowed["0.2.0"], "framework-trace.v0.2.0", keep_sequence=False) for r in steps]
    bpath = write(os.path.join(scratch, "xor.bare.sidecar.jsonl"), bare)
    rc, out, err = expect(f, bp, "multi synthesized", ["import", "pytorch", "multi", bpath], 0, env=EPOCH0)
    got = [json.loads(l) for l in out.decode().splitlines()]
    f.check("multi synthesized trace_id", {r["trace_id"] for r in got}, {sha256_file(bpath)[:32]})
    f.check("multi synthesized step_index", [r["step_index"] for r in got], list(range(len(bare))))
    # Sequencing and homogeneity are refused (exit 2), naming the line.
    gap = [dict(records[0], step_index=0), dict(records[1], step_index=2)] if len(records) > 1 else []
    mixed = [records[0], dict(records[1], source_framework={"name": "pytorch", "version": "9.9.9"})]
    partial = [records[0], {k: v for k, v in records[1].items() if k not in ("trace_id", "step_index")}]
    other = [records[0], dict(records[1], trace_id="f" * 32)]
    for name, docs, needle in (("step_index gap", gap, b"step_index sequence violated at line 2"),
                               ("mixed versions", mixed, b"framework mismatch at sidecar line 2"),
                               ("trace_id co-presence", partial, b"trace_id co-presence violated"),
                               ("trace_id mismatch", other, b"trace_id mismatch at line 2"),
                               ("v0.1.0 record", [sidecar], b"Use the single-step subcommand")):
        p = write(os.path.join(scratch, "bad.multi.jsonl"), docs)
        rc, o, e = expect(f, bp, "multi " + name, ["import", "pytorch", "multi", p], 2, stdout="",
                          env=dict(EPOCH0, NO_COLOR="1"))
        f.truth("multi %s message" % name, e.startswith(("bp: %s: bp import pytorch multi: " % p).encode()) and
                needle in e and e.count(b"\n") == 1, repr(e[:300]))
    rc, o, e = expect(f, bp, "multi wrong framework json", ["import", "jax", "multi", mpath, "--json"], 2, stdout="",
                      env=EPOCH0)
    f.check("multi failure kind", json.loads(e)["error"]["kind"], "IMPORT_STREAM_FAILED")
    # One tampered step: every receipt is still written, exit 1, that step named.
    tampered = json.loads(json.dumps(records))
    tampered[-1]["updates"][0]["gradient"] += 0.5
    tpath = write(os.path.join(scratch, "xor.tampered.sidecar.jsonl"), tampered)
    rc, o, e = expect(f, bp, "multi tampered", ["import", "pytorch", "multi", tpath, "--json"], 1, env=EPOCH0)
    f.check("multi tampered receipts", len(o.decode().splitlines()), len(records))
    f.check("multi tampered step", json.loads(e)["differential"]["disagreed_step_indices"], [len(records) - 1])

    # The receipts verify: bp verify re-runs Rule 14 independently (stdin pipeline, as bp(1) shows).
    _, bundle, _ = run(bp, ["import", "pytorch", "multi", mpath], env=EPOCH0)
    expect(f, bp, "import multi | verify multi -", ["verify", "multi", "-"], 0, stdin=bundle)
    _, single_receipt, _ = run(bp, ["import", "pytorch", path], env=EPOCH0)
    expect(f, bp, "import | verify general -", ["verify", "general", "-"], 0, stdin=single_receipt)
    # An imported receipt's labels are the engine's for its own topology (bp(1), DIFFERENCES): a
    # moved name fails verify (Rule 14), though every number still matches; reconcile keeps the
    # reference's verdict.
    honest = json.loads(single_receipt)
    hidden = sorted(honest["backward"]["hidden_error_signals"])
    relabels = {
        "via_weight": lambda r: r["backward"]["hidden_error_signals"][hidden[0]]["downstream_contributions"][0].update(
            via_weight=r["backward"]["hidden_error_signals"][hidden[1]]["downstream_contributions"][0]["via_weight"]),
        "from_unit": lambda r: r["updates"][0].update(from_unit="zz"),
        "parameter_role": lambda r: r["updates"][0].update(parameter_role="zz_to_yy"),
        "factors[0].name": lambda r: next(iter(r["backward"]["output_error_signals"].values()))["factors"][0].update(
            name="zz"),
        "layers": lambda r: r["topology"]["layers"].__setitem__(-1, "outputs"),
    }
    for name, edit in relabels.items():
        r = json.loads(single_receipt)
        edit(r)
        text = (json.dumps(r, separators=(",", ":")) + "\n").encode()
        rc, o, e = expect(f, bp, "relabelled " + name + " | verify general -", ["verify", "general", "-", "--json"], 1,
                          stdin=text)
        f.truth("relabelled %s: a Rule 14 label failure" % name,
                b"label: the receipt says" in o and name.encode() in o, repr(o[:300]))
        expect(f, bp, "relabelled " + name + " | reconcile receipt -", ["reconcile", "receipt", "-"], 0, stdin=text)
    # A batched step is re-run without its optimizer (the reference's batched engine applies plain
    # SGD, and so does ours): a batched momentum step (a real PyTorch one, buffers empty) imports and
    # verifies, as with the reference; its updates' optimizer labels are not judged, the rest are.
    src = os.path.dirname(os.path.abspath(schemas))
    with open(os.path.join(src, "tests", "bench", "data", "pytorch_sgd_momentum_step.sidecar.json"),
              encoding="utf-8") as fh:
        step = json.load(fh)
    step["batch"] = {"size": 2, "sample_order": ["s1", "s2"], "reduction": "mean"}
    step["per_sample"] = {sid: {k: step[k] for k in ("inputs", "targets", "forward", "loss")} for sid in ("s1", "s2")}
    batched_path = write(os.path.join(scratch, "batched.momentum.sidecar.json"), [step], lines=False)
    _, batched_receipt, _ = expect(f, bp, "batched momentum", ["import", "pytorch", batched_path], 0, env=EPOCH0)
    expect(f, bp, "batched momentum | verify general -", ["verify", "general", "-"], 0, stdin=batched_receipt)
    r = json.loads(batched_receipt)
    r["updates"][0]["from_unit"] = "zz"
    text = (json.dumps(r, separators=(",", ":")) + "\n").encode()
    rc, o, e = expect(f, bp, "batched relabelled from_unit | verify general -", ["verify", "general", "-", "--json"],
                      1, stdin=text)
    f.truth("batched relabelled from_unit: a Rule 14 label failure",
            b"label: the receipt says" in o and b"from_unit" in o, repr(o[:300]))
    _, tampered_bundle, _ = run(bp, ["import", "pytorch", "multi", tpath], env=EPOCH0)
    expect(f, bp, "tampered import | verify multi -", ["verify", "multi", "-"], 1, stdin=tampered_bundle)

    # A trace is streamed (bp(1), IMPORT): read twice, from a pipe through a temporary copy, from
    # stdin where it stands, with the same bytes out as from the file.
    expect(f, bp, "multi piped", ["import", "pytorch", "multi", "-"], 0, stdout=bundle.decode(), stdin=open(
        mpath, "rb").read(), env=EPOCH0)
    prefixed = os.path.join(scratch, "prefixed.multi.jsonl")
    with open(prefixed, "wb") as fh:
        fh.write(b"not a sidecar\n" + open(mpath, "rb").read())
    with open(prefixed, "rb") as fh:
        os.lseek(fh.fileno(), len(b"not a sidecar\n"), os.SEEK_SET)
        p = subprocess.run([bp, "import", "pytorch", "multi", "-"], stdin=fh, capture_output=True,
                           env=dict(os.environ, **EPOCH0))
    f.check("multi stdin read into: exit", p.returncode, 0)
    f.truth("multi stdin read into: the rest's receipts", p.stdout == bundle, repr(p.stdout[:200]))
    rc, o, e = expect(f, bp, "multi TMPDIR missing", ["import", "pytorch", "multi", mpath], 2, stdout="",
                      env=dict(EPOCH0, TMPDIR=os.path.join(scratch, "no-such-dir")))
    f.truth("multi TMPDIR missing: one line", e.count(b"\n") == 1 and b"TMPDIR" in e, repr(e[:300]))

    # --jobs N (bp(1), IMPORT): the same receipts and the same first error on any number of threads.
    for jobs in ("1", "2", "5"):
        expect(f, bp, "multi --jobs " + jobs, ["import", "pytorch", "multi", mpath, "--jobs", jobs], 0,
               stdout=bundle.decode(), env=EPOCH0)
        expect(f, bp, "tampered multi --jobs " + jobs, ["import", "pytorch", "multi", tpath, "--jobs", jobs], 1,
               stdout=tampered_bundle.decode(), env=EPOCH0)
    late = [dict(r) for r in records] + [dict(records[-1], step_index=len(records) + 3)]
    lpath = write(os.path.join(scratch, "late-gap.multi.jsonl"), late)
    _, _, one_job = expect(f, bp, "late gap --jobs 1", ["import", "pytorch", "multi", lpath, "--jobs", "1"], 2,
                           stdout="", env=EPOCH0)
    f.truth("late gap named", b"step_index sequence violated at line %d" % len(late) in one_job, repr(one_job[:300]))
    expect(f, bp, "late gap --jobs 3", ["import", "pytorch", "multi", lpath, "--jobs", "3"], 2, stdout="",
           stderr=one_job.decode(), env=EPOCH0)
    for bad in ("0", "257", "two", "-1", ""):
        rc, o, e = expect(f, bp, "--jobs %r" % bad, ["import", "pytorch", "multi", mpath, "--jobs", bad], 3, stdout="")
        f.truth("--jobs %r message" % bad, b"bp import pytorch multi runs on 1 to 256 jobs" in e or
                b"--jobs needs a number" in e, repr(e[:200]))
    rc, o, e = expect(f, bp, "one step --jobs", ["import", "pytorch", os.path.join(scratch, "softmax.sidecar.json"), "--jobs", "2"], 3, stdout="")
    f.truth("one step --jobs message", b"--jobs is for a trace of many steps" in e, repr(e[:200]))

    # --- grammar ----------------------------------------------------------------------------------
    for args in (["import", "pytorch", "--help"], ["import", "jax", "multi", "-h"], ["import", "--help"]):
        rc, o, e = expect(f, bp, "help " + " ".join(args), args, 0, stderr="")
        f.truth("help %s text" % args, o.startswith(b"Usage: bp import"), repr(o[:60]))
    expect(f, bp, "flag-like file", ["import", "pytorch", "-x"], 3, stdout="")
    rc, o, e = expect(f, bp, "missing file", ["import", "tensorflow", "multi"], 2, stdout="")
    f.truth("missing file usage", e.startswith(b"Usage: bp import tensorflow multi"), repr(e[:60]))
    return f.finish()


if __name__ == "__main__":
    sys.exit(main())
