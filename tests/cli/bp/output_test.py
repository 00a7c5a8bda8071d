#!/usr/bin/env python3
"""bp's outputs (bp(1) OUTPUT FILES): --out through a symlink replaces the link's target and keeps
the link; --out to a FIFO or a device writes in place (the device stays a device); a lost write to
stdout (/dev/full) is exit 2 with one line on stderr, for every command that prints; SIGTERM /
SIGINT / SIGHUP during --out leave no temporary file, and one left by SIGKILL goes with the next
write to the same target.

usage: output_test.py <bp> <repo fixtures dir> <tests/cli/bp/data dir>"""
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

from bp_cli import Failures, bp_from_argv, run
from output_checks import read_fifo_while, run_to_dev_full, scratch_device, temporaries

FULL_LINE = "bp: could not write to stdout: No space left on device\n"


def main():
    bp = bp_from_argv()
    fixtures, data = sys.argv[2], sys.argv[3]
    tiny = os.path.join(data, "tiny.input.json")
    xor_golden = os.path.join(fixtures, "xor.golden.jsonl")
    f = Failures()
    work = tempfile.mkdtemp(prefix="bp-output-test-")
    try:
        rc, xor, err = run(bp, ["generate", "xor"])
        f.check("generate xor to stdout", rc, 0)

        # --- stdout that cannot be written: every command that prints, exit 2, one line.
        with open(xor_golden, "rb") as g:
            golden = g.read()
        printing = [
            ["--help"], ["-h"], ["--version"],
            ["generate", "xor"], ["generate", "mazur", "--json"], ["generate", "xor", "--check", "--json"],
            ["generate", "from-config", tiny], ["generate", "--help"],
            ["scaffold", "topology", "--topology", "xor"], ["scaffold", "topology", "--topology", "xor", "--json"],
            ["scaffold", "--help"],
            ["validate", xor_golden], ["validate", xor_golden, "--json"], ["validate", "--help"],
            ["validate-input", tiny], ["validate-input", tiny, "--json"], ["validate-input", "--help"],
            ["reconcile", "--help"], ["verify", "--help"], ["import", "--help"], ["examples", "--help"],
            # Errors that go to stdout under --json.
            ["validate", os.path.join(work, "missing.json"), "--json"], ["nonsense", "--json"],
        ]
        for args in printing:
            name = "bp " + " ".join(a.replace(work, "W").replace(fixtures, "F").replace(data, "D") for a in args)
            rc, err = run_to_dev_full(bp, args)
            f.check(name + " >/dev/full: exit", rc, 2)
            f.check(name + " >/dev/full: the one stdout line, no line of the command's own", err, FULL_LINE)
        rc, err = run_to_dev_full(bp, ["validate", "-"], stdin=golden)
        f.check("validate - >/dev/full", (rc, err), (2, FULL_LINE))
        # The verify reports under --json: the one line with the system's reason, not a second
        # line of the command's own before it.
        for args in (["verify", "general", os.path.join(fixtures, "mazur.published.json"), "--json"],
                     ["verify", "multi", xor_golden, "--json"]):
            rc, err = run_to_dev_full(bp, args)
            f.check("bp " + " ".join(args[:2]) + " --json >/dev/full", (rc, err), (2, FULL_LINE))
        # Failing verdicts keep their own output when stdout works, and become 2 when it does not.
        rc, out, err = run(bp, ["--help"])
        f.check("--help to a working stdout", rc, 0)

        # --- --out through a symbolic link: the target is replaced, the link stays a link.
        os.mkdir(os.path.join(work, "real"))
        target = os.path.join(work, "real", "xor.jsonl")
        with open(target, "w") as g:
            g.write("old\n")
        link = os.path.join(work, "link.jsonl")
        os.symlink(os.path.join("real", "xor.jsonl"), link)
        rc, out, err = run(bp, ["generate", "xor", "--out", link])
        f.check("--out symlink: exit", (rc, err), (0, b""))
        f.truth("--out symlink: still a link", os.path.islink(link))
        with open(target, "rb") as g:
            f.check("--out symlink: target holds the receipt", g.read(), xor)
        f.check("--out symlink: no temporary", temporaries(os.path.join(work, "real")) + temporaries(work), [])
        dangling = os.path.join(work, "dangling.jsonl")
        os.symlink(os.path.join("real", "new.jsonl"), dangling)
        rc, out, err = run(bp, ["generate", "xor", "--out", dangling])
        f.check("--out dangling symlink: exit", rc, 0)
        f.truth("--out dangling symlink: target created", os.path.isfile(os.path.join(work, "real", "new.jsonl")))
        f.truth("--out dangling symlink: still a link", os.path.islink(dangling))

        # --- --out to a FIFO: written in place for its reader; the FIFO stays.
        fifo = os.path.join(work, "pipe")
        os.mkfifo(fifo)
        (rc, out, err), got = read_fifo_while(fifo, lambda: run(bp, ["generate", "xor", "--out", fifo]))
        f.check("--out FIFO: exit", (rc, err), (0, b""))
        f.check("--out FIFO: the reader got the receipt", got, xor)
        f.truth("--out FIFO: still a FIFO", stat.S_ISFIFO(os.stat(fifo).st_mode))
        f.check("--out FIFO: nothing else in the directory", temporaries(work), [])

        # --- --out to a device: written in place; the device is never replaced.
        null = scratch_device(work, "null", 1, 3, "/dev/null")
        full = scratch_device(work, "full", 1, 7, "/dev/full")
        rc, out, err = run(bp, ["generate", "xor", "--out", null])
        f.check("--out /dev/null: exit", (rc, out, err), (0, b"", b""))
        f.truth("--out /dev/null: still a character device", stat.S_ISCHR(os.stat(null).st_mode))
        rc, out, err = run(bp, ["generate", "xor", "--out", full])
        f.check("--out /dev/full: exit", rc, 2)
        f.truth("--out /dev/full: one line naming the device",
                err.startswith(("bp: could not write %s: " % full).encode()) and err.count(b"\n") == 2, repr(err))
        f.truth("--out /dev/full: still a character device", stat.S_ISCHR(os.stat(full).st_mode))

        # --- signals during --out: no temporary is left behind, the target is old or new.
        # A large config makes the run long enough for the signal to land at varied instants.
        big_dir = os.path.join(work, "sig")
        os.mkdir(big_dir)
        out_path = os.path.join(big_dir, "out.jsonl")
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            for delay in (0.0, 0.002, 0.005, 0.01, 0.02, 0.05):
                with open(out_path, "wb") as g:
                    g.write(b"old\n")
                p = subprocess.Popen([bp, "generate", "xor", "--out", out_path],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(delay)
                p.send_signal(sig)
                p.wait()
                name = "%s after %gs" % (signal.Signals(sig).name, delay)
                f.check(name + ": no temporary", temporaries(big_dir), [])
                with open(out_path, "rb") as g:
                    content = g.read()
                f.truth(name + ": target is old or new", content in (b"old\n", xor), repr(content[:40]))
                f.truth(name + ": the signal ended it or it finished",
                        p.returncode in (0, -sig), str(p.returncode))
        # SIGKILL cannot be caught: a temporary left by it is removed by the next write.
        stale = out_path + ".atomic-tmp.0"
        with open(stale, "wb") as g:
            g.write(b"partial receipt from a killed run")
        rc, out, err = run(bp, ["generate", "xor", "--out", out_path])
        f.check("write after a SIGKILLed one: exit", rc, 0)
        f.check("write after a SIGKILLed one: its temporary is gone", temporaries(big_dir), [])
        for delay in (0.0, 0.005, 0.02):
            p = subprocess.Popen([bp, "generate", "xor", "--out", out_path],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(delay)
            p.kill()
            p.wait()
            rc, out, err = run(bp, ["generate", "xor", "--out", out_path])
            f.check("SIGKILL after %gs, then a write: no temporary" % delay, (rc, temporaries(big_dir)), (0, []))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return f.finish()


if __name__ == "__main__":
    sys.exit(main())
