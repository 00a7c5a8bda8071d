"""Shared pieces of the live-helper tests: running bp, tampering with sidecars, checking verdicts."""
import base64
import copy
import hashlib
import json
import os
import struct
import subprocess
import sys

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def finish(name):
    if FAILURES:
        print(f"{name}: {len(FAILURES)} failure(s)", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: all checks passed")


def bp(binary, *args, stdin=None, env=None):
    full_env = dict(os.environ)
    full_env.setdefault("SOURCE_DATE_EPOCH", "1700000000")
    if env:
        full_env.update(env)
    return subprocess.run([binary, *args], input=stdin, capture_output=True, env=full_env, timeout=120)


def fetch_helper(binary, framework, dest_dir):
    """The helper exactly as a user gets it: `bp examples <framework> --print > <framework>_trace_helper.py`."""
    r = bp(binary, "examples", framework, "--print")
    if r.returncode != 0 or not r.stdout:
        raise SystemExit(f"bp examples {framework} --print failed ({r.returncode}): {r.stderr.decode()}")
    path_run = bp(binary, "examples", framework)
    check(path_run.returncode == 0 and path_run.stdout.decode().strip().endswith(f"/{framework}.py"),
          f"bp examples {framework} prints the helper's path")
    with open(path_run.stdout.decode().strip(), "rb") as f:
        check(f.read() == r.stdout, f"bp examples {framework} --print prints the file at that path")
    os.makedirs(dest_dir, exist_ok=True)
    with open(os.path.join(dest_dir, f"{framework}_trace_helper.py"), "wb") as f:
        f.write(r.stdout)
    sys.path.insert(0, dest_dir)


def read_lines(path):
    with open(path, "rb") as f:
        return [json.loads(line) for line in f.read().splitlines() if line.strip()]


def dump_lines(records):
    return b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in records)


def import_summary(binary, framework, payload, multi=True):
    args = ["import", framework] + (["multi"] if multi else []) + ["-", "--json"]
    r = bp(binary, *args, stdin=payload)
    try:
        summary = json.loads(r.stderr.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        summary = {"unparsed": r.stderr.decode()}
    return r.returncode, r.stdout, summary


def expect_agreement(binary, framework, path, label):
    """bp import (multi, and each line alone) agrees, and bp verify multi accepts the receipts."""
    with open(path, "rb") as f:
        payload = f.read()
    rc, receipts, summary = import_summary(binary, framework, payload)
    check(rc == 0, f"{label}: bp import {framework} multi exit {rc}: {json.dumps(summary)[:400]}")
    v = bp(binary, "verify", "multi", "-", stdin=receipts)
    check(v.returncode == 0, f"{label}: bp verify multi exit {v.returncode}: {v.stderr.decode()[-600:]}")
    first = payload.splitlines()[0] + b"\n"
    rc1, one, s1 = import_summary(binary, framework, first, multi=False)
    check(rc1 == 0 and one.count(b"\n") == 1, f"{label}: single-step import of line 0 exit {rc1}: {json.dumps(s1)[:300]}")
    return receipts


def disagreement_paths(summary):
    diff = summary.get("differential", {})
    paths = [d.get("fieldPath", "") for d in diff.get("disagreements", [])]
    for step in diff.get("steps", []) if isinstance(diff.get("steps"), list) else []:
        paths += [d.get("fieldPath", "") for d in step.get("disagreements", [])]
    return paths


def expect_caught(binary, framework, records, mutate, label, path_part):
    """A tampered copy: bp import exits 1 naming the field (Rule 14), and bp verify multi rejects it too."""
    bad = copy.deepcopy(records)
    mutate(bad)
    rc, receipts, summary = import_summary(binary, framework, dump_lines(bad))
    text = json.dumps(summary)
    check(rc == 1, f"{label}: tampered import exit {rc} (want 1): {text[:300]}")
    check(path_part in text, f"{label}: the disagreement names {path_part!r}: {text[:400]}")
    check(receipts.count(b"\n") == len(bad), f"{label}: receipts still written for audit")
    v = bp(binary, "verify", "multi", "-", stdin=receipts)
    check(v.returncode == 1, f"{label}: bp verify multi on the tampered receipts exit {v.returncode} (want 1)")


def expect_refusal(exc_type, fn, needle, label):
    try:
        fn()
    except exc_type as e:
        check(needle in str(e), f"{label}: refusal message {str(e)!r} mentions {needle!r}")
        return
    except Exception as e:  # noqa: BLE001 - any other exception is a wrong refusal
        check(False, f"{label}: raised {type(e).__name__}: {e} instead of a refusal")
        return
    check(False, f"{label}: not refused")


def retensor(t, index, factor):
    """Tensor receipt entry t with entry `index` multiplied by `factor`, its SHA-256 renewed (a
    tamper the digest cannot catch)."""
    data = bytearray(base64.b64decode(t["data"]))
    (v,) = struct.unpack_from("<f", data, 4 * index)
    struct.pack_into("<f", data, 4 * index, v * factor)
    t["data"] = base64.b64encode(bytes(data)).decode()
    t["sha256"] = hashlib.sha256(bytes(data)).hexdigest()


def largest_entry(t):
    """The index of a tensor receipt entry's largest magnitude."""
    raw = base64.b64decode(t["data"])
    vals = struct.unpack(f"<{len(raw) // 4}f", raw)
    return max(range(len(vals)), key=lambda i: abs(vals[i]))


def verify_tensor(binary, path_or_bytes, label, want=0):
    """`bp verify tensor F --json` (bytes: on stdin), its exit status checked against `want`; the
    report, or {"stderr": ...} when there is none."""
    if isinstance(path_or_bytes, bytes):
        r = bp(binary, "verify", "tensor", "-", "--json", stdin=path_or_bytes)
    else:
        r = bp(binary, "verify", "tensor", path_or_bytes, "--json")
    check(r.returncode == want, f"{label}: exit {r.returncode}, expected {want}: {r.stdout.decode()[-800:]} {r.stderr.decode()[-400:]}")
    try:
        return json.loads(r.stdout) if r.stdout else {"stderr": r.stderr.decode()}
    except ValueError:
        return {"stderr": r.stderr.decode()}


def first_failure(report):
    """The first failure record of a bp verify --json report ({} when none)."""
    return report.get("failures", [{}])[0] if report.get("failures") else {}


def mutate_line(lines, line_no, fn):
    """The JSONL of `lines` (bytes, one record each) with fn applied to record line_no."""
    out = [json.loads(line) for line in lines]
    fn(out[line_no])
    return b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in out)


def check_schema(schema, files, label):
    """Every line of `files` against the JSON Schema `schema` with Debian's jsonschema (an
    independent validator; /usr/bin/python3 has it, the venv's Python does not)."""
    r = subprocess.run(["/usr/bin/python3", "-c", """
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
bad = [f"{p}:{i}: {e.json_path}: {e.message}" for p in sys.argv[2:] for i, line in enumerate(open(p, "rb"))
       for e in v.iter_errors(json.loads(line))]
print("\\n".join(bad[:5]))
sys.exit(1 if bad else 0)
""", schema, *files], capture_output=True, timeout=300)
    check(r.returncode == 0, f"{label}: {r.stdout.decode()[:600]} {r.stderr.decode()[-300:]}")
