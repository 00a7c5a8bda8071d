#!/usr/bin/env python3
"""`bp verify multi` derives every number of every record (issue 22, finding 2).

Each tamper the attack found is exit 1: a forward value with a changed learning rate, a changed
post_update_forward / post_update_loss, a deleted target, a chain broken through a parameter missing
from one record, and an imported bundle stripped of its import markers, relabelled
engine_generated and tampered. A bundle whose trace_id was removed (which switches Rule 10 off)
warns, and --strict refuses it. A property sweep changes every number of xor.multi-step one at a
time; only the fields the README names descriptive may pass. The reference's goldens still pass.

usage: bp_verify_multi_tamper.py BP REFERENCE_PACKAGE_DIR
"""
import copy
import json
import os
import subprocess
import sys

DESCRIPTIVE = {("step",), ("numeric_policy", "precision_significant_digits"),
               ("numeric_policy", "tolerance", "atol"), ("numeric_policy", "tolerance", "rtol")}


def verify(bp, records):
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    p = subprocess.run([bp, "verify", "multi", "-"], input=text.encode(), capture_output=True)
    return p.returncode, p.stderr.decode(errors="replace")


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def leaves(v, path=()):
    if isinstance(v, dict):
        for k, c in v.items():
            yield from leaves(c, path + (k,))
    elif isinstance(v, list):
        for i, c in enumerate(v):
            yield from leaves(c, path + (i,))
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        yield path, v


def set_at(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def first_unit(section):
    return next(k for k, v in section.items() if isinstance(v, dict) and "net" in v)


def main():
    bp, ref = sys.argv[1], sys.argv[2]
    fx = os.path.join(ref, "fixtures")
    if not os.path.isdir(fx):
        if os.environ.get("CI") == "true":
            sys.exit(f"reference fixtures missing at {fx}")
        sys.exit(77)
    failures = []

    def expect(name, records, code):
        rc, err = verify(bp, records)
        if rc != code:
            failures.append(f"{name}: exit {rc}, expected {code}\n{err[-600:]}")

    xor = load(os.path.join(fx, "xor.multi-step.jsonl"))
    for name in sorted(os.listdir(fx)):
        if name.endswith(".multi-step.jsonl"):
            expect("golden " + name, load(os.path.join(fx, name)), 0)

    t = copy.deepcopy(xor)
    unit = first_unit(t[0]["forward"])
    t[0]["forward"][unit]["net"] += 0.1
    t[0]["learning_rate"] *= 10
    expect("forward net + learning_rate", t, 1)

    t = copy.deepcopy(xor)
    puf = t[0]["post_update_forward"]
    units = puf.get("units", puf)
    units[first_unit(units)]["out"] += 0.01
    expect("post_update_forward", t, 1)

    t = copy.deepcopy(xor)
    t[1]["post_update_loss"]["total"] *= 1.01
    expect("post_update_loss", t, 1)

    t = copy.deepcopy(xor)
    del t[0]["targets"][next(iter(t[0]["targets"]))]
    expect("deleted target", t, 1)

    # A chain break the cross-record rule cannot see: the parameter is missing from record 0, and
    # record 1 starts (and ends) 0.3 away from where record 0 left it.
    t = copy.deepcopy(xor)
    pid = t[0]["topology"]["parameter_order"][0]
    del t[0]["parameters_after"][pid]
    t[1]["parameters_before"][pid] += 0.3
    t[1]["parameters_after"][pid] += 0.3
    expect("chain break through a parameter missing from the prior record", t, 1)

    t = copy.deepcopy(xor)
    t[1]["parameters_before"]["not_a_parameter"] = 0.5
    expect("parameter not in parameter_order", t, 1)

    imported = load(os.path.join(fx, "external", "pytorch.adam.multi-step.golden.jsonl"))
    expect("imported golden", imported, 0)
    for r in imported:
        for key in ("attestor", "source_framework", "bundle_root_digest"):
            r.pop(key, None)
        r["fixture_status"]["authoring_state"] = "engine_generated"
    unit = first_unit(imported[0]["forward"])
    imported[0]["forward"][unit]["net"] += 0.1
    expect("imported bundle downgraded to engine_generated and tampered", imported, 1)

    t = copy.deepcopy(xor)
    for r in t:
        del r["trace_id"], r["step_index"]  # the schema ties one to the other
    rc, err = verify(bp, t)
    if rc != 0 or "trace-identity" not in err:
        failures.append(f"bundle without trace_id: exit {rc}, expected 0 with a trace-identity warning\n{err[-600:]}")
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in t)
    strict = subprocess.run([bp, "verify", "multi", "-", "--strict"], input=text.encode(), capture_output=True)
    if strict.returncode != 1:
        failures.append(f"bundle without trace_id under --strict: exit {strict.returncode}, expected 1")

    swept = accepted = 0
    for ri, record in enumerate(xor):
        for path, value in list(leaves(record)):
            if path in DESCRIPTIVE:
                continue
            t = copy.deepcopy(xor)
            set_at(t[ri], path, value + 1 if isinstance(value, int) else value * 1.5 + (1 if value == 0 else 0))
            rc, _ = verify(bp, t)
            swept += 1
            if rc == 0:
                accepted += 1
                failures.append(f"tamper of record {ri} at {'.'.join(map(str, path))} accepted")
    print(f"{swept} single-number tampers of xor.multi-step, {accepted} accepted")
    if failures:
        print("\n".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
