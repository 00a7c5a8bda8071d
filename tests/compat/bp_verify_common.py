"""Shared by tests/compat/bp_verify_*.py: the reference's receipts (goldens, bad fixtures), which
`bp verify` command reads each, running many reference command lines in one node process
(bp_verify_reference.mjs), and running ours."""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def reference_present(package_dir):
    """Exits 77 (ctest: Skipped) when the reference is not installed, or 1 when CI=true demands it."""
    if os.path.isfile(os.path.join(package_dir, "package.json")):
        return
    if os.environ.get("CI") == "true":
        print("FAIL: CI=true but the reference is not installed at %s" % package_dir)
        sys.exit(1)
    print("SKIP: the reference is not installed at %s (see the bp_reference_install test)" % package_dir)
    sys.exit(77)


def records_of(path):
    """The JSON records of a .jsonl file, one per non-blank line; None when some line is not JSON on
    its own (a pretty-printed document, read whole by the single-receipt commands)."""
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f.read().splitlines() if l.strip()]
    out = []
    for l in lines:
        try:
            out.append(json.loads(l))
        except ValueError:
            return None
    return out


def verify_noun(path):
    """multi for a file of two or more records, mazur for a v0.1.0 receipt, else general."""
    recs = records_of(path)
    if recs is not None and len(recs) > 1:
        return "multi"
    try:
        doc = recs[0] if recs else json.load(open(path, encoding="utf-8"))
    except ValueError:
        return "general"
    if isinstance(doc, dict) and doc.get("schema_version") == "0.1.0":
        return "mazur"
    return "general"


def goldens(package_dir):
    """Every golden receipt the reference ships: fixtures/*.golden.jsonl, fixtures/*.multi-step.jsonl and
    fixtures/external/*.golden.jsonl."""
    fx = os.path.join(package_dir, "fixtures")
    out = []
    for d in (fx, os.path.join(fx, "external")):
        for name in sorted(os.listdir(d)):
            if name.endswith(".golden.jsonl") or (d == fx and name.endswith(".multi-step.jsonl")):
                out.append(os.path.join(d, name))
    return out


def bad_fixtures(package_dir):
    d = os.path.join(package_dir, "fixtures", "bad")
    return [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".jsonl")]


def targeted_rule(bad_path):
    """The rule number a bad fixture's .meta.json names in reconciliation_check_targeted_first (None if none)."""
    meta = bad_path[: -len(".jsonl")] + ".meta.json"
    try:
        with open(meta, encoding="utf-8") as f:
            text = json.load(f).get("reconciliation_check_targeted_first", "")
    except (OSError, ValueError):
        return None
    m = re.search(r"Rule (\d+)", text or "")
    return int(m.group(1)) if m else None


def run_reference(node, package_dir, arg_lists, work):
    """[(code, stdout, stderr)] of the reference CLI for each argument list, in one node process."""
    cases = os.path.join(work, "reference-cases.json")
    results = os.path.join(work, "reference-results.json")
    with open(cases, "w") as f:
        json.dump([{"args": a} for a in arg_lists], f)
    subprocess.run([node, os.path.join(HERE, "bp_verify_reference.mjs"), package_dir, cases, results], check=True)
    with open(results) as f:
        return [(r["code"], r["stdout"], r["stderr"]) for r in json.load(f)]


def run_ours(bp, args, stdin=None):
    p = subprocess.run([bp] + args, input=stdin, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def failing_rules(report):
    """Rule numbers of every reconcile failure a verify --json report (single or multi) carries."""
    rules = set()
    checks = list(report.get("checks", []))
    for rec in report.get("per_record", []):
        checks += [rec["schema"], rec["reconcile"]]
    checks += report.get("cross_record_checks", [])
    for c in checks:
        if c.get("status") == "fail" and isinstance(c.get("evidence"), list):
            for e in c["evidence"]:
                if isinstance(e, dict) and "rule" in e:
                    rules.add(e["rule"])
    return rules


def all_checks(report):
    checks = list(report.get("checks", []))
    for rec in report.get("per_record", []):
        checks += [rec["schema"], rec["reconcile"]]
    return checks + report.get("cross_record_checks", [])


def workdir(prefix):
    return tempfile.mkdtemp(prefix=prefix)
