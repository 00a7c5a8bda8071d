#!/usr/bin/env python3
"""bp verify multi --jobs N: for passing, warning and failing bundles (bad JSON at several
positions, two bad lines, a schema failure, a tampered number, a step out of order, no trace_id),
stdin and file input, an empty stream and a line too long, --jobs 2, 3, 8 and the default give the
stdout, stderr and exit status of --jobs 1, byte for byte, with and without --json; bad --jobs
values are exit 3 with one line; the default runs as many jobs as the process has cores (its CPU
affinity), counted by its threads.

usage: verify_multi_jobs_test.py <bp> <bundle_gen>"""
import json
import os
import subprocess
import sys
import tempfile
import time

from bp_cli import Failures, bp_from_argv, run

RECORDS = 30
JOBS = (["--jobs", "2"], ["--jobs", "3"], ["--jobs=8"], [])


def threads_while_reading(bp, line, cpus, jobs):
    """The threads of `bp verify multi - [--jobs N]` run on the CPUs `cpus` (sched_setaffinity, as
    taskset does), counted while it waits for its second record on stdin; the most of a few looks.
    The looks start once its main thread blocks reading descriptor 0 (/proc/PID/syscall): OpenBLAS
    starts its workers as the binary loads and bp ends them as it starts, and an ASan binary under
    a loaded -j2 run was seen taking 0.45 s to get there, so a fixed wait raced with it."""
    p = subprocess.Popen([bp, "verify", "multi", "-", "--json"] + jobs, stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         preexec_fn=lambda: os.sched_setaffinity(0, cpus))
    p.stdin.write(line + b"\n")
    p.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with open("/proc/%d/syscall" % p.pid) as s:
            if s.read().startswith("0 0x0 "):  # read(0, ...)
                break
        time.sleep(0.02)
    most = 0
    for _ in range(5):
        time.sleep(0.05)
        most = max(most, len(os.listdir("/proc/%d/task" % p.pid)))
    p.stdin.close()
    p.wait()
    return most


def main():
    bp = bp_from_argv()
    bundle_gen = sys.argv[2]
    f = Failures()
    lines = subprocess.run([bundle_gen, str(RECORDS)], check=True, capture_output=True).stdout.decode().splitlines()
    f.check("bundle_gen records", len(lines), RECORDS)

    def edited(k, change):
        out = list(lines)
        d = json.loads(out[k])
        change(d)
        out[k] = json.dumps(d)
        return out

    def text(ls):
        return ("\n".join(ls) + "\n").encode()

    def bad_at(*positions):
        out = list(lines)
        for k in positions:
            out[k] = "{not json" if k == positions[0] else "[1,"
        return out

    def untraced(ls):
        # Without trace_id (and step_index, which needs it): trace-identity WARN.
        out = []
        for line in ls:
            d = json.loads(line)
            d.pop("trace_id")
            d.pop("step_index")
            out.append(json.dumps(d))
        return out

    def tamper_number(d):
        d["loss"]["total"] = d["loss"]["total"] * 1.5

    # (what, input bytes, exit status of --jobs 1, whether the input goes to stdin)
    cases = [("passing", text(lines), 0, False),
             ("passing, stdin", text(lines), 0, True),
             ("no trace_id (warn)", text(untraced(lines)), 0, False),
             ("schema failure at 11", text(edited(11, lambda d: d.pop("updates"))), 1, False),
             ("tampered loss at 17", text(edited(17, tamper_number)), 1, False),
             ("step out of order at 5", text(edited(5, lambda d: d.update(step_index=9))), 1, False),
             ("two bad lines, 10 and 12", text(bad_at(9, 11)), 2, False),
             ("two bad lines, stdin", text(bad_at(9, 11)), 2, True),
             ("empty", b"", 2, False),
             ("blank lines only, stdin", b"\n \n\t\n", 2, True)]
    for k in (0, 1, 7, RECORDS - 1):
        cases.append(("bad JSON at record %d" % k, text(bad_at(k)), 2, False))
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "bundle.jsonl")
        for what, data, want, stdin in cases:
            with open(path, "wb") as g:
                g.write(data)
            # --warn-as-fail changes only the exit of a warning: it runs on the warning's case.
            for mode in (["--json"], []) + ((["--warn-as-fail"],) if "warn" in what else ()):
                args = ["verify", "multi", "-" if stdin else path] + mode
                one = run(bp, args + ["--jobs", "1"], stdin=data if stdin else b"")
                name = "%s %s" % (what, " ".join(mode))
                if mode != ["--warn-as-fail"]:
                    f.check(name + ": exit with --jobs 1", one[0], want)
                for jobs in JOBS:
                    f.check("%s %s: same as --jobs 1" % (name, " ".join(jobs) or "(default)"),
                            run(bp, args + jobs, stdin=data if stdin else b""), one)
        # The warning is a warning: --warn-as-fail turns it into exit 1 for every N.
        with open(path, "wb") as g:
            g.write(text(untraced(lines)))
        for jobs in (["--jobs", "1"],) + JOBS:
            f.check("warn --warn-as-fail %s" % jobs, run(bp, ["verify", "multi", path, "--warn-as-fail"] + jobs)[0], 1)
        # The first bad line in input order is the one named, whatever the number of jobs.
        with open(path, "wb") as g:
            g.write(text(bad_at(9, 11)))
        for jobs in (["--jobs", "1"],) + JOBS:
            rc, out, err = run(bp, ["verify", "multi", path, "--json"] + jobs)
            f.truth("line 10 named %s" % jobs, json.loads(out)["error"]["message"].startswith("Invalid JSON at line 10:"),
                    out[:200])
        # A line over the 256 MiB record limit after the records: its error, after every record was
        # read; and a bad line before it wins over it. The long line is a 300 MiB hole (NUL bytes,
        # no newline among them), so the file costs no disk.
        for what, head, code in (("too long", text(lines[:6]), "INPUT_TOO_LARGE"),
                                 ("bad line before too long", text(bad_at(3)[:6]), "BP_JSONL_PARSE_ERROR")):
            with open(path, "wb") as g:
                g.write(head)
                g.seek(len(head) + (300 << 20))
                g.write(b"\n" + text(lines[6:]))
            one = run(bp, ["verify", "multi", path, "--json", "--jobs", "1"])
            f.check(what + ": exit", one[0], 2)
            f.check(what + ": code", json.loads(one[1])["error"]["code"], code)
            for jobs in (["--jobs", "2"], ["--jobs", "8"]):
                f.check("%s %s: same as --jobs 1" % (what, jobs), run(bp, ["verify", "multi", path, "--json"] + jobs), one)
        os.remove(path)
        # Bad values: one line naming --jobs, exit 3, nothing on stdout, whatever the input.
        ok = os.path.join(work, "ok.jsonl")
        with open(ok, "wb") as g:
            g.write(text(lines[:2]))
        for bad in (["--jobs"], ["--jobs="], ["--jobs", "0"], ["--jobs", "-2"], ["--jobs", "x"], ["--jobs=1.5"],
                    ["--jobs", "257"], ["--jobs", "99999999999999999999999"], ["--jobs=+2"]):
            rc, out, err = run(bp, ["verify", "multi", ok] + bad)
            what = " ".join(bad)
            f.check(what + ": exit", rc, 3)
            f.check(what + ": stdout", out, b"")
            e = err.decode()
            f.truth(what + ": one line naming --jobs", e.count("\n") == 1 and "--jobs" in e, repr(e))
            rc, out, err = run(bp, ["verify", "multi", ok, "--json"] + bad)
            f.check(what + " --json: exit", rc, 3)
            f.truth(what + " --json: the error names --jobs", "--jobs" in json.loads(out)["error"]["message"], repr(out))
        # The default is the cores this process may run on (its affinity, as nproc counts them), at
        # most 8: on one core, the threads of --jobs 1; on two, those of --jobs 2.
        cpus = sorted(os.sched_getaffinity(0))
        f.check("default on one core: the threads of --jobs 1",
                threads_while_reading(bp, lines[0].encode(), cpus[:1], []),
                threads_while_reading(bp, lines[0].encode(), cpus[:1], ["--jobs", "1"]))
        if len(cpus) >= 2:
            # OpenBLAS starts a worker per further core when it is loaded, and each spins for
            # 0.1 s: bp ends them as it starts (common/blas_server.hpp).
            f.check("--jobs 1 on two cores: one thread, no idle BLAS workers",
                    threads_while_reading(bp, lines[0].encode(), cpus[:2], ["--jobs", "1"]), 1)
            f.check("default on two cores: the threads of --jobs 2",
                    threads_while_reading(bp, lines[0].encode(), cpus[:2], []),
                    threads_while_reading(bp, lines[0].encode(), cpus[:2], ["--jobs", "2"]))
        f.check("nothing written beside the input", sorted(os.listdir(work)), ["ok.jsonl"])
    return f.finish()


if __name__ == "__main__":
    sys.exit(main())
