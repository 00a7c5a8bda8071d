#!/usr/bin/env python3
"""`bp validate` vs the reference on every receipt file its package ships (fixtures/, bad/, external/):
same verdict, and under --json the same instancePath and message for the first error.
Files the reference cannot read (multi-record JSONL, not JSON) must make ours exit 2.
Exit 77 when the reference is not installed (unless CI=true).

usage: bp_validate_compare.py --bp BP --node NODE --reference PKG_DIR"""
import argparse
import json
import os
import subprocess
import sys

from reference_gate import reference_missing

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bp", required=True)
    ap.add_argument("--node", default="node")
    ap.add_argument("--reference", required=True)
    args = ap.parse_args()
    missing = reference_missing(args.reference, args.node)
    if missing is not None:
        return missing
    ref = subprocess.run([args.node, os.path.join(HERE, "bp_validate_reference.js"), args.reference],
                         capture_output=True, check=True, text=True)
    failures, count = [], 0
    for line in ref.stdout.splitlines():
        want = json.loads(line)
        count += 1
        p = subprocess.run([args.bp, "validate", want["file"], "--json"], capture_output=True)
        if "read_error" in want:
            if p.returncode != 2:
                failures.append("%s: the reference cannot read it (%s); ours exited %d" % (
                    want["file"], want["read_error"], p.returncode))
            continue
        try:
            got = json.loads(p.stdout)
        except ValueError:
            failures.append("%s: ours exited %d with non-JSON stdout %r" % (want["file"], p.returncode, p.stdout[:200]))
            continue
        want_body = {"ok": True} if want["ok"] else {"ok": False, "errors": want["errors"]}
        if got != want_body or p.returncode != (0 if want["ok"] else 1):
            failures.append("%s: ours exit %d %s; reference %s" % (want["file"], p.returncode, json.dumps(got),
                                                                   json.dumps(want_body)))
    for f in failures:
        print("MISMATCH", f)
    print("validate: %d files, %d mismatches" % (count, len(failures)))
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
