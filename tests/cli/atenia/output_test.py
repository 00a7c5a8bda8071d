#!/usr/bin/env python3
"""atenia's outputs (atenia(1) OUTPUT FILES): a lost write to stdout (/dev/full) is exit 2 with one
line on stderr for every subcommand and for --help; --trace-out / --plans-out through a symlink
replace the link's target and keep the link, to a FIFO or a device they write in place; SIGTERM
during a run leaves no temporary file.

usage: output_test.py <atenia> <fixtures/atenia dir>"""
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from output_checks import Failures, read_fifo_while, run_to_dev_full, scratch_device, temporaries  # noqa: E402

FULL_LINE = "atenia: cannot write to stdout: No space left on device\n"


def run(atenia, args):
    p = subprocess.run([atenia] + args, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def slurp(path):
    try:
        with open(path, "rb") as g:
            return g.read()
    except OSError as e:
        return "unreadable: %s" % e


def main():
    atenia, fix = sys.argv[1], sys.argv[2]
    scenario = os.path.join(fix, "replan_next_tick.json")
    f = Failures()
    work = tempfile.mkdtemp(prefix="atenia-output-test-")
    try:
        def w(name):
            return os.path.join(work, name)

        with open(w("e.jsonl"), "w") as g:
            g.write('{"gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.1,"backend":"gpu",'
                    '"success":true,"score":9,"had_drift":false}\n')
        with open(w("t.json"), "w") as g:
            g.write('{"tensors":[{"id":"w1","bytes":16,"tier":"ram"}]}')
        with open(w("snap.json"), "w") as g:
            g.write('{"cpu":{"physical_cores":4,"logical_cores":8,"simd":[]},"gpus":[],'
                    '"ram":{"total_bytes":1000,"free_bytes":900},"pressure":{"ram_pressure":0.1,"vram_pressure":null}}')
        rc, out, err = run(atenia, ["learn", w("e.jsonl"), "--table", w("table")])
        f.check("learn (setup)", rc, 0)
        rc, out, err = run(atenia, ["checkpoint", "save", w("root"), "--tensors", w("t.json")])
        f.check("checkpoint save (setup)", rc, 0)

        # --- every subcommand, and --help, with stdout on /dev/full: exit 2, one line.
        explain = ["explain", "--gpu-available=true", "--vram-band=0", "--ram-band=0"]
        printing = [
            ["--help"], ["--version"], ["checkpoint", "--help"], ["simulate", "--help"], ["explain", "--help"],
            ["profile", "--cache-dir", w("cache")], ["profile", "--cache-dir", w("cache"), "--json"],
            ["place", "--bytes", "1024", "--snapshot", w("snap.json")],
            ["place", "--bytes", "1024", "--snapshot", w("snap.json"), "--json"],
            ["simulate", scenario], ["simulate", scenario, "--json"],
            ["stats", "--table", w("table")], ["stats", "--table", w("table"), "--json"],
            ["checkpoint", "restore", w("root")], ["checkpoint", "restore", w("root"), "--json"],
            ["checkpoint", "inspect", w("root")], ["checkpoint", "inspect", w("root"), "--json"],
            explain, explain + ["--json"], explain + ["--table", w("table")],
        ]
        for args in printing:
            name = "atenia " + " ".join(a.replace(work, "W").replace(fix, "F") for a in args)
            rc, err = run_to_dev_full(atenia, args)
            f.check(name + " >/dev/full", (rc, err), (2, FULL_LINE))
        # Commands that commit to disk before they report: the exit status tells the truth about
        # the commit (0), and the lost report is a one-line warning.
        committed = [
            (["learn", w("e.jsonl"), "--table", w("table2")], "the table was written"),
            (["learn", w("e.jsonl"), "--table", w("table2"), "--json"], "the table was written"),
            (["checkpoint", "save", w("root2"), "--tensors", w("t.json")], "the checkpoint was saved"),
            (["checkpoint", "save", w("root2"), "--tensors", w("t.json"), "--json"], "the checkpoint was saved"),
            (["checkpoint", "recover", w("root2")], "the root was recovered"),
        ]
        for args, what in committed:
            name = "atenia " + " ".join(a.replace(work, "W").replace(fix, "F") for a in args)
            rc, err = run_to_dev_full(atenia, args)
            want = ("atenia: warning: %s, but its report could not be written to stdout: No space left on device\n"
                    % what)
            f.check(name + " >/dev/full", (rc, err), (0, want))
        rc, out, err = run(atenia, ["checkpoint", "inspect", w("root2")])
        f.check("the save reported to /dev/full committed", (rc, out.count(b"ENTRY ")), (0, 1))
        rc, out, err = run(atenia, ["--help"])
        f.check("--help to a working stdout", rc, 0)

        # --- --trace-out / --plans-out through a symlink, to a FIFO, to a device.
        rc, _, err = run(atenia, ["simulate", scenario, "--trace-out", w("trace.json"), "--plans-out", w("plans.jsonl")])
        f.check("simulate with regular output files", (rc, err), (0, b""))
        with open(w("trace.json"), "rb") as g:
            trace = g.read()
        with open(w("plans.jsonl"), "rb") as g:
            plans = g.read()
        os.mkdir(w("real"))
        with open(w("real/trace.json"), "w") as g:
            g.write("old")
        os.symlink("real/trace.json", w("trace-link.json"))
        os.symlink(w("real/plans.jsonl"), w("plans-link.jsonl"))  # dangling, absolute
        rc, _, err = run(atenia, ["simulate", scenario, "--trace-out", w("trace-link.json"),
                                  "--plans-out", w("plans-link.jsonl")])
        f.check("--trace-out symlink: exit", (rc, err), (0, b""))
        f.truth("--trace-out symlink: still a link", os.path.islink(w("trace-link.json")))
        f.truth("--plans-out dangling symlink: still a link", os.path.islink(w("plans-link.jsonl")))
        f.check("--trace-out symlink: the target holds the trace", slurp(w("real/trace.json")), trace)
        f.check("--plans-out symlink: the target holds the plans", slurp(w("real/plans.jsonl")), plans)
        f.check("symlinks: no temporary", temporaries(work) + temporaries(w("real")), [])

        os.mkfifo(w("pipe"))
        (rc, _, err), got = read_fifo_while(w("pipe"), lambda: run(atenia, ["simulate", scenario, "--trace-out", w("pipe")]))
        f.check("--trace-out FIFO: exit", (rc, err), (0, b""))
        f.check("--trace-out FIFO: the reader got the trace", got, trace)
        f.truth("--trace-out FIFO: still a FIFO", stat.S_ISFIFO(os.stat(w("pipe")).st_mode))

        null = scratch_device(work, "null", 1, 3, "/dev/null")
        full = scratch_device(work, "full", 1, 7, "/dev/full")
        rc, _, err = run(atenia, ["simulate", scenario, "--trace-out", null])
        f.check("--trace-out /dev/null", (rc, err), (0, b""))
        f.truth("/dev/null is still a character device", stat.S_ISCHR(os.stat(null).st_mode))
        rc, _, err = run(atenia, ["simulate", scenario, "--trace-out", full])
        f.check("--trace-out /dev/full: exit", rc, 2)
        f.truth("--trace-out /dev/full: one line", err.startswith(("atenia: %s: write failed: " % full).encode())
                and err.count(b"\n") == 1, repr(err))
        f.truth("/dev/full is still a character device", stat.S_ISCHR(os.stat(full).st_mode))

        # --- SIGTERM at varied instants: never a temporary left, the table old or new.
        # Its scratch directory ($TMPDIR/atenia-XXXXXX) goes too (main at b687e58 left it, empty).
        os.mkdir(w("sig"))
        os.mkdir(w("tmp"))
        for delay in (0.0, 0.002, 0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08):
            p = subprocess.Popen([atenia, "simulate", scenario, "--trace-out", w("sig/trace.json"),
                                  "--plans-out", w("sig/plans.jsonl")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env=dict(os.environ, TMPDIR=w("tmp")))
            time.sleep(delay)
            p.send_signal(signal.SIGTERM)
            p.wait()
            f.check("SIGTERM after %gs: no temporary" % delay, temporaries(w("sig")), [])
            f.check("SIGTERM after %gs: no scratch directory left" % delay, os.listdir(w("tmp")), [])
            f.truth("SIGTERM after %gs: ended by it or finished" % delay, p.returncode in (0, -signal.SIGTERM),
                    str(p.returncode))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return f.finish()


if __name__ == "__main__":
    sys.exit(main())
