#!/usr/bin/env python3
"""Differential test: ours vs the reference on random topology+input documents.

1. bp_differential_configs.py writes --count documents (seeded).
2. bp_differential_reference.js runs the reference library over all of them in ONE node process.
3. Our `bp generate from-config` runs on each; where the reference emitted a receipt, our stdout
   must be byte-identical and our exit 0; where it refused, we must refuse too (exit 2, nothing on
   stdout).
4. A few cases (small receipts: the reference CLI truncates piped output at 64 KiB) also go
   through the reference's real CLI, whose stdout must equal ours.
Fails when any case disagrees or fewer than --min-receipts receipts were compared.

Exit 77 (ctest: skipped) when the reference is not installed and CI is not "true".

usage: bp_differential.py --bp BP --node NODE --reference PKG_DIR --work DIR [--count N] [--seed S]
"""
import argparse
import os
import shutil
import subprocess
import sys

import reference_batch
from reference_gate import reference_missing

HERE = os.path.dirname(os.path.abspath(__file__))


def first_difference(a, b):
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bp", required=True)
    ap.add_argument("--node", default="node")
    ap.add_argument("--reference", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--min-receipts", type=int, default=200)
    ap.add_argument("--cli-cases", type=int, default=5)
    args = ap.parse_args()

    missing = reference_missing(args.reference, args.node, "(run the bp_reference_install test with npm)")
    if missing is not None:
        return missing

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    subprocess.run([sys.executable, os.path.join(HERE, "bp_differential_configs.py"), "--count", str(args.count),
                    "--seed", str(args.seed), "--out", args.work], check=True)
    subprocess.run([args.node, os.path.join(HERE, "bp_differential_reference.js"), args.reference, args.work],
                   check=True)

    failures = []
    compared = refused = 0
    small_ok = []
    for i in range(args.count):
        base = os.path.join(args.work, "case_%04d" % i)
        ours = subprocess.run([args.bp, "generate", "from-config", base + ".json"], capture_output=True)
        if os.path.exists(base + ".ref.jsonl"):
            with open(base + ".ref.jsonl", "rb") as f:
                want = f.read()
            if ours.returncode != 0 or ours.stdout != want:
                off = first_difference(ours.stdout, want)
                failures.append("%s.json: exit %d, %d bytes vs reference %d bytes, first difference at byte %d: "
                                "ours %r reference %r; stderr: %s" % (
                                    base, ours.returncode, len(ours.stdout), len(want), off,
                                    ours.stdout[max(0, off - 40):off + 40], want[max(0, off - 40):off + 40],
                                    ours.stderr.decode(errors="replace").strip()))
            else:
                compared += 1
                if len(want) < 60000:
                    small_ok.append((base, want))
        else:
            with open(base + ".ref.err", encoding="utf-8") as f:
                why = f.read().strip()
            if ours.returncode != 2 or ours.stdout:
                failures.append("%s.json: the reference refused (%s) but ours exited %d with %d bytes on stdout" % (
                    base, why[:200], ours.returncode, len(ours.stdout)))
            else:
                refused += 1

    # A few through the reference's CLI too, in one node process (reference_batch.py).
    cli_cases = small_ok[:args.cli_cases]
    cli_results = reference_batch.run(args.node, args.reference,
                                      [["generate", "from-config", base + ".json"] for base, _ in cli_cases])
    for (base, want), (code, got, _) in zip(cli_cases, cli_results):
        if code != 0 or got != want:
            failures.append("%s.json: reference CLI (exit %s, %d bytes) disagrees with the receipt ours matched" % (
                base, code, len(got)))

    for line in failures[:20]:
        print("MISMATCH", line)
    print("differential: %d cases, %d receipts byte-identical, %d refused by both, %d mismatches, "
          "%d checked through the reference CLI" % (args.count, compared, refused, len(failures),
                                                     min(len(small_ok), args.cli_cases)))
    if failures:
        return 1
    if compared < args.min_receipts:
        print("FAIL: only %d receipts compared; at least %d are required" % (compared, args.min_receipts))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
