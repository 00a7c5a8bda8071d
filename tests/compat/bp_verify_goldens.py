#!/usr/bin/env python3
"""Every golden the reference ships verifies with ours (`verify mazur|general|multi`, exit 0, and
`reconcile receipt` for single receipts), including the two sgd*-coupled-l2 goldens the reference's
own `verify general` rejects (bp(1) BUGS FIXED); and a receipt's verdict is the same read from its
file, from stdin, and as a record of a bundle.

usage: bp_verify_goldens.py <bp> <reference package dir>"""
import json
import os
import shutil
import sys

from bp_verify_common import goldens, reference_present, records_of, run_ours, verify_noun, workdir


def main():
    bp, pkg = sys.argv[1], sys.argv[2]
    reference_present(pkg)
    work = workdir("bp-verify-goldens-")
    failures = []
    count = 0
    try:
        for path in goldens(pkg):
            noun = verify_noun(path)
            name = os.path.relpath(path, pkg)
            rc, out, err = run_ours(bp, ["verify", noun, path, "--json"])
            count += 1
            if rc != 0:
                failures.append("%s: verify %s exit %d: %s" % (name, noun, rc, out[:400]))
                continue
            if noun == "multi":
                continue
            rc2, out2, _ = run_ours(bp, ["reconcile", "receipt", path, "--json"])
            if (rc2, out2) != (0, "{\"ok\":true}\n"):
                failures.append("%s: reconcile receipt exit %d: %s" % (name, rc2, out2[:400]))
            with open(path, "rb") as f:
                text = f.read()
            rc3, out3, _ = run_ours(bp, ["verify", noun, "-", "--json"], stdin=text)
            if (rc3, out3) != (rc, out):
                failures.append("%s: stdin verdict differs from the file's" % name)
            if noun == "general":
                rc4, out4, _ = run_ours(bp, ["verify", "multi", "-", "--json"], stdin=text)
                single = {c["name"]: c for c in json.loads(out)["report"]["checks"]}
                rec = json.loads(out4)["report"]["per_record"][0]
                if rec["schema"]["status"] != single["schema"]["status"] or \
                        rec["reconcile"]["status"] != single["reconcile"]["status"]:
                    failures.append("%s: verdict inside a bundle differs: %r" % (name, rec))
        for f in failures:
            print("FAIL", f)
        print("%d goldens verified, %d failures" % (count, len(failures)))
        return 1 if failures or count == 0 else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
