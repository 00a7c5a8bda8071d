#!/usr/bin/env python3
"""bp verify multi --jobs N on every JSON Lines fixture there is: ours (fixtures/, goldens, nltrain
and MLP receipts, their bad mutations) and the reference's (goldens, multi-step runs, framework
sidecars and captures, every fixtures/bad/*.jsonl). Each file, read from its path, gives with
--jobs 3 (more workers than cores, and records dealt unevenly) the stdout, stderr and exit status
of --jobs 1, byte for byte, in the text report and under --json; bp_cli_verify_multi_jobs covers
--jobs 2 and 8 on chosen inputs, so this one keeps to one value to stay cheap in CI. Then the same for streams that mix them, read from stdin as well: every fixture's
records in one stream (passing, failing and schema-failing records side by side, so the
cross-record rules see many failures in a row), and each multi-step run with CRLF line ends and
blank lines.

Most of these files fail verification or are not receipts at all (sidecars, nltrain's tensor-step
receipts): what is compared is that the number of jobs changes nothing, whatever --jobs 1 says.

usage: bp_verify_multi_jobs_fixtures.py BP OUR_FIXTURES_DIR REFERENCE_PACKAGE_DIR"""
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from bp_verify_common import reference_present, workdir

JOBS = ("3",)
MODES = ((), ("--json",))


def jsonl_files(root):
    out = []
    for d, _, names in os.walk(root):
        out += [os.path.join(d, n) for n in names if n.endswith(".jsonl")]
    return sorted(out)


def json_lines(path):
    for line in open(path, "rb").read().splitlines():
        try:
            if line.strip():
                json.loads(line)
        except ValueError:
            return False
    return True


def run(bp, args, stdin):
    p = subprocess.run([bp] + args, input=stdin, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def main():
    bp, ours, pkg = sys.argv[1], sys.argv[2], sys.argv[3]
    reference_present(pkg)
    files = jsonl_files(ours) + jsonl_files(os.path.join(pkg, "fixtures"))
    bad = [p for p in files if os.sep + "bad" + os.sep in p or ".bad-" in os.path.basename(p)]
    multi_step = [p for p in files if ".multi-step" in os.path.basename(p)]
    work = workdir("bp-verify-multi-jobs-")
    try:
        streams = []  # (name, path or None for stdin, bytes for stdin)
        # Files whose every line is a JSON record (one bad fixture is a pretty-printed document,
        # which would end the stream at its second line with exit 2).
        everything = b"".join(open(p, "rb").read().rstrip(b"\n") + b"\n" for p in files if json_lines(p))
        mixed = os.path.join(work, "every-fixture.jsonl")
        with open(mixed, "wb") as g:
            g.write(everything)
        records = everything.count(b"\n")
        streams += [("every fixture, one stream (%d records)" % records, mixed, b""),
                    ("every fixture, one stream, stdin", None, everything)]
        # ... and with a record cut short halfway: the records before it are folded, then exit 2.
        lines = everything.splitlines(keepends=True)
        half = len(lines) // 2
        cut = b"".join(lines[:half]) + lines[half][: len(lines[half]) // 2] + b"\n" + b"".join(lines[half + 1:])
        streams.append(("every fixture, record %d cut short, stdin" % half, None, cut))
        for p in multi_step:
            text = open(p, "rb").read().replace(b"\n", b"\r\n\r\n")
            streams.append((os.path.basename(p) + " CRLF and blank lines, stdin", None, text))
        streams += [(os.path.relpath(p, os.path.dirname(ours)) if p.startswith(ours)
                     else os.path.relpath(p, pkg), p, b"") for p in files]

        # (case, --jobs value) -> (exit, stdout, stderr); two bp processes at a time.
        cases = [(name, path, data, mode) for name, path, data in streams for mode in MODES]
        runs = [(c, j) for c in cases for j in ("1",) + JOBS]

        def one(item):
            (name, path, data, mode), jobs = item
            return run(bp, ["verify", "multi", path or "-"] + list(mode) + ["--jobs", jobs], data)

        with ThreadPoolExecutor(max_workers=2) as pool:
            results = dict(zip(runs, pool.map(one, runs)))
        problems, codes = [], {}
        for c in cases:
            name, _, _, mode = c
            want = results[(c, "1")]
            codes[want[0]] = codes.get(want[0], 0) + 1
            for j in JOBS:
                got = results[(c, j)]
                if got != want:
                    what = [k for k, g, w in zip(("exit", "stdout", "stderr"), got, want) if g != w]
                    problems.append("%s %s --jobs %s: %s differ from --jobs 1 (exit %d vs %d; stderr %r vs %r)"
                                    % (name, " ".join(mode), j, ", ".join(what), got[0], want[0],
                                       got[2][:200], want[2][:200]))
        print("%d files (%d bad, %d multi-step), %d streams x %d modes x --jobs %s against --jobs 1; "
              "exit status of --jobs 1: %s" % (len(files), len(bad), len(multi_step), len(streams), len(MODES),
                                              ",".join(JOBS), dict(sorted(codes.items()))))
        # The comparison means something only if the fixtures reach every outcome and were found.
        for code in (0, 1, 2):
            if code not in codes:
                problems.append("no fixture gave exit %d with --jobs 1" % code)
        whole = results[(cases[0], "1")]
        if whole[0] != 1 or b"verify multi failed (%d record(s))" % records not in whole[2]:
            problems.append("every fixture in one stream: not every record was verified (exit %d, %r)"
                            % (whole[0], whole[2][:200]))
        if len(bad) < 50 or not multi_step:
            problems.append("fixtures not found: %d bad, %d multi-step" % (len(bad), len(multi_step)))
        for p in problems:
            print("FAIL", p)
        return 1 if problems else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
