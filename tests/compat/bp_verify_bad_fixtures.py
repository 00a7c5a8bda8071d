#!/usr/bin/env python3
"""Walks the reference's fixtures/bad: each adversarial receipt must be rejected (exit 1) by
`bp verify mazur|general|multi` (multi for files of several records, mazur for v0.1.0 receipts).

Default: reports which are rejected, and by what, and which ours still accepts (while the
reconciler rules are being written some will pass); it fails only on a crash, a hang or an exit
status other than 0 or 1.
--strict (ctest: configure with -DBP_VERIFY_BAD_FIXTURES_STRICT=ON): every fixture must exit 1,
and the rule its .meta.json names in reconciliation_check_targeted_first must be among our failures
whenever the reference's own failures include it (the reference is run on the same files, in one
node process, when --node is given).

usage: bp_verify_bad_fixtures.py <bp> <reference package dir> [--node NODE] [--strict]"""
import json
import os
import shutil
import sys

from bp_verify_common import (bad_fixtures, failing_rules, reference_present, run_ours, run_reference, targeted_rule,
                              verify_noun, workdir, all_checks)


def first_failure(report):
    for c in all_checks(report):
        if c.get("status") == "fail":
            rules = sorted(failing_rules({"checks": [c]}))
            return c["name"] + (" (rules %s)" % ",".join(map(str, rules)) if rules else "")
    return "-"


def main():
    args = sys.argv[1:]
    strict = "--strict" in args
    node = args[args.index("--node") + 1] if "--node" in args else None
    bp, pkg = args[0], args[1]
    reference_present(pkg)
    work = workdir("bp-verify-bad-")
    try:
        paths = bad_fixtures(pkg)
        commands = [["verify", verify_noun(p), p, "--json"] for p in paths]
        ref = run_reference(node, pkg, commands, work) if (strict and node) else [None] * len(paths)
        problems, accepted, rejected = [], [], 0
        for path, cmd, r in zip(paths, commands, ref):
            name = os.path.basename(path)
            rc, out, err = run_ours(bp, cmd)
            target = targeted_rule(path)
            try:
                report = json.loads(out).get("report", {})
            except ValueError:
                report = {}
            ours = failing_rules(report)
            line = "%-70s exit %d  first: %-40s targeted: Rule %s" % (name, rc, first_failure(report), target)
            if rc not in (0, 1):
                problems.append("%s: exit %d (stderr %r)" % (name, rc, err[:300]))
            elif rc == 0:
                accepted.append(name)
                line += "  ACCEPTED"
            else:
                rejected += 1
            if strict:
                if rc != 1:
                    problems.append("%s: not rejected (exit %d)" % (name, rc))
                ref_rules = set()
                if r is not None:
                    try:
                        ref_rules = failing_rules(json.loads(r[1]).get("report", {}))
                    except ValueError:
                        pass
                if target is not None and target in ref_rules and target not in ours:
                    problems.append("%s: Rule %d (targeted, fired by the reference) is not among our failures %s"
                                    % (name, target, sorted(ours)))
            print(line)
        print("%d bad fixtures: %d rejected, %d accepted%s" % (len(paths), rejected, len(accepted),
                                                             "" if strict else " (allowed without --strict)"))
        for p in problems:
            print("FAIL", p)
        return 1 if problems or not paths else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
