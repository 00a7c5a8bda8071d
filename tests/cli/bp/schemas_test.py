#!/usr/bin/python3
"""bp's --json outputs against schemas/bp-*.v0.1.0.json, with Python's jsonschema (Debian's): the
real outputs of verify general / mazur / multi (passing, warning, failing and skipped checks of
every kind: schema, schema-dispatch, reconcile, math-gate, engine-reproduce, topology,
byte-equal-vs-golden, published-anchor-drift, trace-identity), verify of many receipts at once
(pass, fail, unreadable, bundle, summary lines), reconcile, validate, validate-input, import
(stderr; one step and a run; agreed, disagreed, refused), generate --check / --out, scaffold --out,
and the error envelope. Every line the command writes on the stream is validated. A schema that
rejects a real output, or accepts a hand-broken one, fails the test.

usage: schemas_test.py <bp> <fixtures dir> <schemas dir>"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from schema_checks import Schemas, describe, mutated  # noqa: E402

bp, fixtures, schemas_dir = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
schemas = Schemas(schemas_dir)
errors_of = schemas.errors
failures = []
seen = {}  # schema -> the real outputs that matched it, for the mutations below


def run(what, args, rc, schema, stream="stdout", env=None, stdin=b"", lines=1):
    """Runs bp; every line of `stream` must match `schema` (the other stream may hold only text)."""
    full = dict(os.environ, SOURCE_DATE_EPOCH="0")
    full.pop("NO_COLOR", None)
    full.update(env or {})
    p = subprocess.run([bp, *args], input=stdin, capture_output=True, env=full)
    if p.returncode != rc:
        failures.append("%s: exit %d, want %d: %s" % (what, p.returncode, rc, p.stderr.decode()[:300]))
    text = (p.stdout if stream == "stdout" else p.stderr).decode()
    docs = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            doc = json.loads(line)
        except ValueError:
            failures.append("%s: line %d of %s is not JSON: %r" % (what, n, stream, line[:120]))
            continue
        errs = errors_of(schema, doc)
        if errs:
            failures.append("%s: line %d does not match %s: %s" % (what, n, schema, describe(errs[0])))
        seen.setdefault(schema, []).append(doc)
        docs.append(doc)
    if lines is not None and len(docs) != lines:
        failures.append("%s: %d JSON line(s) on %s, want %d" % (what, len(docs), stream, lines))
    return docs


def expect(cond, what):
    if not cond:
        failures.append(what)


def rejects(schema, doc, what):
    if not errors_of(schema, doc):
        failures.append("%s: a hand-broken output matches %s" % (what, schema))


def checks(doc):
    return {c["name"]: c for c in doc["report"]["checks"]}


work = tempfile.mkdtemp(prefix="bp-schemas-test-")
try:
    def path(name):
        return os.path.join(work, name)

    def write(name, text):
        with open(path(name), "w") as f:
            f.write(text)
        return path(name)

    def fixture(name):
        with open(os.path.join(fixtures, name)) as f:
            return f.read()

    xor_path, multi_path = os.path.join(fixtures, "xor.golden.jsonl"), os.path.join(fixtures, "xor.multi-step.jsonl")
    mazur_path = os.path.join(fixtures, "mazur.golden.jsonl")
    xor = json.loads(fixture("xor.golden.jsonl"))
    multi = [json.loads(l) for l in fixture("xor.multi-step.jsonl").splitlines()]
    R, M, B = "bp-verify-report", "bp-verify-multi-report", "bp-verify-batch-record"

    # --- verify general / mazur: pass, and each check failing, warning or skipped ------------------
    run("general xor", ["verify", "general", xor_path, "--json"], 0, R)
    for g in ("iris.golden.jsonl", "softmax-ce.golden.jsonl", "xor-per-neuron-bias.golden.jsonl"):
        run("general " + g, ["verify", "general", os.path.join(fixtures, g), "--json"], 0, R)
    run("mazur", ["verify", "mazur", "--json"], 0, R)
    [d] = run("general on v0.1.0", ["verify", "general", mazur_path, "--json"], 1, R)
    expect("schema-dispatch" in checks(d), "general on a v0.1.0 receipt: no schema-dispatch check")
    bad_schema = write("bad-schema.jsonl", json.dumps(dict(xor, step="x")))
    [d] = run("schema failure", ["verify", "general", bad_schema, "--json"], 1, R)
    expect(checks(d)["schema"]["status"] == "fail", "schema failure: the schema check did not fail")
    moved = copy.deepcopy(xor)
    moved["loss"]["total"] *= 1.5
    moved_path = write("moved.jsonl", json.dumps(moved))
    [d] = run("engine-reproduce failure", ["verify", "general", moved_path, "--json"], 1, R)
    expect(checks(d)["engine-reproduce"]["status"] == "fail", "moved loss: engine-reproduce did not fail")
    loose = copy.deepcopy(xor)
    loose["numeric_policy"]["tolerance"] = 1e-7
    loose_path = write("loose.jsonl", json.dumps(loose))
    [d] = run("reconcile failure", ["verify", "general", loose_path, "--json"], 1, R)
    expect(checks(d)["reconcile"]["status"] == "fail", "loose tolerance: reconcile did not fail")
    tampered = json.loads(fixture("mazur.golden.jsonl"))
    tampered["topology"]["hidden_size"] = 3
    [d] = run("mazur topology", ["verify", "mazur", write("topology.jsonl", json.dumps(tampered)), "--json"], 1, R)
    expect(checks(d).get("topology", {}).get("status") == "fail", "tampered topology: no failing topology check")

    # Observer-mode receipts (bp import): engine-reproduce skipped by design; a skipped math gate.
    allowed = set(json.load(open(os.path.join(schemas_dir, "framework-trace.v0.1.0.json")))["properties"])
    softmax = json.loads(subprocess.run([bp, "generate", "softmax-ce"], capture_output=True).stdout.decode().splitlines()[0])
    sidecar = {"format": "framework-trace.v0.1.0", "source_framework": {"name": "pytorch", "version": "2.5.0"}}
    sidecar.update({k: v for k, v in softmax.items() if k in allowed and k not in sidecar})
    side_path = write("side.json", json.dumps(sidecar))
    imported = subprocess.run([bp, "import", "pytorch", side_path], capture_output=True,
                              env=dict(os.environ, SOURCE_DATE_EPOCH="0")).stdout.decode()
    imported_path = write("imported.jsonl", imported)
    [d] = run("observer receipt", ["verify", "general", imported_path, "--json"], 0, R)
    expect(checks(d)["engine-reproduce"].get("strictExempt") is True, "observer receipt: engine-reproduce not exempt")
    run("observer receipt --strict", ["verify", "general", imported_path, "--json", "--strict"], 0, R)
    skipped = json.loads(imported)
    skipped["fixture_status"]["verification_state"] = "engine_recompute_skipped_with_basis"
    skipped["attestor"]["skip_basis"] = "hardware_nondeterminism"
    skipped_path = write("skipped.jsonl", json.dumps(skipped))
    [d] = run("math gate", ["verify", "general", skipped_path, "--json"], 1, R)
    expect(d["report"].get("math_gate_skipped") is True and "math-gate" in checks(d), "skipped basis: no math gate")

    # The Mazur ledger: a soft drift warns, a hard one fails, no claims skips (and fails --strict);
    # a golden that drifts fails byte-equal-vs-golden.
    fx = path("fixtures")
    os.mkdir(fx)
    shutil.copy(mazur_path, fx)
    ledger = json.loads(fixture("mazur.published.json"))

    def ledger_with(claims):
        with open(os.path.join(fx, "mazur.published.json"), "w") as f:
            json.dump(dict(ledger, claims=claims), f)

    env = {"BP_FIXTURES_DIR": fx}
    ledger_with([dict(ledger["claims"][0], value=0.2911)])
    [d] = run("soft drift", ["verify", "mazur", "--json"], 0, R, env=env)
    expect(d["report"]["overall"] == "warn", "soft drift: overall is not warn")
    run("soft drift --warn-as-fail", ["verify", "mazur", "--json", "--warn-as-fail"], 1, R, env=env)
    ledger_with([dict(ledger["claims"][0], value=0.2911, hard_gate=True), dict(ledger["claims"][0], id="unknown_claim")])
    [d] = run("hard drift", ["verify", "mazur", "--json"], 1, R, env=env)
    expect(isinstance(checks(d)["published-anchor-drift"].get("evidence"), dict), "hard drift: evidence is not an object")
    ledger_with([])
    run("no claims", ["verify", "mazur", "--json"], 0, R, env=env)
    run("no claims --strict", ["verify", "mazur", "--json", "--strict"], 1, R, env=env)
    ledger_with(ledger["claims"])
    with open(os.path.join(fx, "mazur.golden.jsonl"), "w") as f:
        f.write(fixture("mazur.golden.jsonl").replace("0.", "1.", 1))
    [d] = run("golden drift", ["verify", "mazur", mazur_path, "--json"], 1, R, env=env)
    expect(checks(d)["byte-equal-vs-golden"]["status"] == "fail", "a drifted golden: byte-equal did not fail")

    # --- verify multi ---------------------------------------------------------------------------------
    run("multi", ["verify", "multi", multi_path, "--json"], 0, M)
    loose_multi = [mutated(r, lambda d: d["numeric_policy"].update(tolerance=1e-7)) for r in multi]
    run("multi failures", ["verify", "multi", write("loose-multi.jsonl", "".join(json.dumps(r) + "\n" for r in loose_multi)),
                           "--json"], 1, M)
    [d] = run("multi, a record off schema", ["verify", "multi", write("bad-multi.jsonl", json.dumps(multi[0]) + "\n" +
                                                                      json.dumps(dict(multi[1], step="x")) + "\n"), "--json"], 1, M)
    expect(d["report"]["per_record"][1]["reconcile"]["status"] == "skip", "multi: the off-schema record was reconciled")
    [d] = run("multi without trace_id", ["verify", "multi", write("untraced.jsonl", (json.dumps(xor) + "\n") * 2), "--json"],
              1, M)  # two copies of one step also break the Rule 9 chain
    expect([c["name"] for c in d["report"]["cross_record_checks"]] == ["multi-step-rules-9-10", "trace-identity"],
           "untraced bundle: no trace-identity warning")
    [d] = run("multi math gate", ["verify", "multi", write("skipped-multi.jsonl", (json.dumps(skipped) + "\n") * 2), "--json"],
              1, M)
    expect("math-gate" in [c["name"] for c in d["report"]["cross_record_checks"]], "skipped bundle: no math gate")

    # --- many receipts at once: pass, fail, unreadable, a bundle, the summary --------------------------
    tree = path("tree")
    os.mkdir(tree)
    shutil.copy(multi_path, tree)
    shutil.copy(loose_path, tree)
    docs = run("many", ["verify", "general", xor_path, mazur_path, moved_path, path("nope.jsonl"), tree, "--json"], 2, B,
               lines=7)
    kinds = sorted({next(k for k in ("report", "error", "bundle", "summary") if k in d) for d in docs})
    expect(kinds == ["bundle", "error", "report", "summary"], "many: not every kind of line was seen: %s" % kinds)
    run("many, all pass", ["verify", "general", xor_path, multi_path, "--json"], 0, B, lines=3)

    # --- reconcile ----------------------------------------------------------------------------------
    C = "bp-reconcile-result"
    run("reconcile ok", ["reconcile", "receipt", xor_path, "--json"], 0, C)
    run("reconcile Rule 0", ["reconcile", "receipt", write("rule0.json", '{"updates":[]}'), "--json"], 1, C)
    run("reconcile failures", ["reconcile", "receipt", moved_path, "--json"], 1, C)
    [d] = run("reconcile math gate only", ["reconcile", "receipt", skipped_path, "--json"], 1, C)
    expect(d.get("failures") == [], "reconcile on a skipped basis: not the gate-only result")
    both = copy.deepcopy(skipped)
    both["numeric_policy"]["tolerance"] = 1e-7
    run("reconcile failures and the gate", ["reconcile", "receipt", write("both.jsonl", json.dumps(both)), "--json"], 1, C)

    # --- validate / validate-input --------------------------------------------------------------------
    V = "bp-validate-result"
    run("validate", ["validate", xor_path, "--json"], 0, V)
    run("validate v0.1.0", ["validate", mazur_path, "--json"], 0, V)
    run("validate invalid", ["validate", bad_schema, "--json"], 1, V)
    cfg = os.path.join(fixtures, "configs", "xor.json")
    run("validate-input", ["validate-input", cfg, "--json"], 0, V)
    bad_cfg = json.load(open(cfg))
    bad_cfg["surplus"] = 1
    run("validate-input invalid", ["validate-input", write("bad-input.json", json.dumps(bad_cfg)), "--json"], 1, V)

    # --- import (its summary is on stderr) --------------------------------------------------------------
    I = "bp-import-report"
    run("import", ["import", "pytorch", side_path, "--json"], 0, I, stream="stderr")
    bumped = copy.deepcopy(sidecar)
    bumped["loss"]["total"] += 0.5
    run("import disagreeing", ["import", "pytorch", write("bumped.json", json.dumps(bumped)), "--json"], 1, I, stream="stderr")
    run("import refused", ["import", "jax", side_path, "--json"], 2, I, stream="stderr")
    allowed2 = set(json.load(open(os.path.join(schemas_dir, "framework-trace.v0.2.0.json")))["properties"])
    records = []
    for r in multi:
        s = {"format": "framework-trace.v0.2.0", "source_framework": {"name": "pytorch", "version": "2.5.0"}}
        s.update({k: v for k, v in r.items() if k in allowed2 and k not in s})
        s["trace_id"] = "0123456789abcdef0123456789abcdef"
        records.append(s)
    run_path = write("run.jsonl", "".join(json.dumps(s) + "\n" for s in records))
    run("import multi", ["import", "pytorch", "multi", run_path, "--json"], 0, I, stream="stderr")
    records[-1]["updates"][0]["gradient"] += 0.5
    run("import multi disagreeing", ["import", "pytorch", "multi", write("run-bad.jsonl", "".join(
        json.dumps(s) + "\n" for s in records)), "--json"], 1, I, stream="stderr")
    run("import multi refused", ["import", "jax", "multi", run_path, "--json"], 2, I, stream="stderr")

    # --- generate, scaffold ---------------------------------------------------------------------------
    G = "bp-generate-result"
    run("generate --check", ["generate", "xor", "--check", "--json"], 0, G)
    run("generate --check drifted", ["generate", "mazur", "--check", "--json"], 1, G, env=env)
    run("generate --out", ["generate", "iris", "--out", path("iris.jsonl"), "--json"], 0, G)
    run("scaffold --out", ["scaffold", "topology", "--topology", "xor", "--out", path("xor.topology.json"), "--json"],
        0, "bp-scaffold-result")

    # --- the error envelope ---------------------------------------------------------------------------
    E = "bp-error"
    run("missing file", ["verify", "general", path("nope.jsonl"), "--json"], 2, E)
    run("unknown command", ["frobnicate", "--json"], 2, E)
    run("empty multi", ["verify", "multi", "-", "--json"], 2, E, stdin=b"\n")
    run("unknown flag", ["validate", xor_path, "--json", "--frob"], 3, E)
    run("multi-record into validate", ["validate", "-", "--json"], 2, E, stdin=fixture("xor.multi-step.jsonl").encode())

    # --- hand-broken outputs are refused --------------------------------------------------------------
    def first(schema, pred=lambda d: True):
        return next((d for d in seen.get(schema, []) if pred(d)), None)

    passing = first(R, lambda d: d["ok"])
    failing = first(R, lambda d: any(c["name"] == "reconcile" and c["status"] == "fail" for c in d["report"]["checks"]))
    rejects(R, mutated(passing, lambda d: d.update(ok=False)), "ok false on a passing report")
    rejects(R, mutated(passing, lambda d: d["report"].update(overall="ok")), "an unknown overall verdict")
    rejects(R, mutated(passing, lambda d: d["report"]["checks"][0].update(status="passed")), "an unknown check status")
    rejects(R, mutated(passing, lambda d: d["report"]["checks"][0].update(message="fine")), "a message on a passing check")
    rejects(R, mutated(passing, lambda d: d["report"].pop("gated_off")), "rules_evaluated without gated_off")
    rejects(R, mutated(failing, lambda d: [c for c in d["report"]["checks"] if c["name"] == "reconcile"][0]["evidence"][0]
                       .update(rule=27)), "a failure of rule 27")
    rejects(R, mutated(failing, lambda d: [c for c in d["report"]["checks"] if c["name"] == "reconcile"][0].pop("message")),
            "a failed check without a message")
    rejects(R, mutated(passing, lambda d: d["report"]["checks"].append({"name": "vibes", "status": "pass"})),
            "a check of no known name")
    m = first(M)
    rejects(M, mutated(m, lambda d: d["report"]["per_record"][0].update(extra=1)), "an unknown per-record key")
    rejects(M, mutated(m, lambda d: d["report"].update(cross_record_checks=[])), "no cross-record checks")
    rejects(B, mutated(first(B, lambda d: "summary" in d), lambda d: d["summary"].pop("errors")), "a summary without errors")
    rejects(B, mutated(first(B, lambda d: "error" in d), lambda d: d.update(ok=True)), "an unreadable file that is ok")
    rejects(C, {"ok": False, "failures": []}, "a failed reconcile with no failures and no math gate")
    rejects(C, mutated(first(C, lambda d: d.get("failures")), lambda d: d["failures"][0].pop("field_path")),
            "a failure without field_path")
    rejects(V, {"ok": False, "errors": []}, "an invalid document with no errors")
    rejects(I, mutated(first(I, lambda d: "steps" in d and not d["ok"]), lambda d: d.update(bundle_root_digest="abc")),
            "an import run with a malformed digest")
    rejects(I, mutated(first(I, lambda d: "error" in d), lambda d: d["error"].update(code=d["error"].pop("kind"))),
            "an import refusal with code instead of kind")
    rejects(G, {"ok": True, "drift_offset": 3, "emitted_length": 5, "golden_length": 5}, "a drift that is ok")
    rejects(E, mutated(first(E), lambda d: d["error"].update(code="usage")), "a lowercase error code")
    rejects(E, {"ok": True, "error": {"code": "USAGE", "message": "x"}}, "an error that is ok")
finally:
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("all bp --json schemas hold")
