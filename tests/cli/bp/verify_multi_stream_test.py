#!/usr/bin/env python3
"""bp verify multi --jobs N on a stream (issue 30 #3):
- 10,000 records piped from bundle_gen into stdin with --jobs 2: exit 0, all 10,000 records in the
  report, the same --json bytes as --jobs 1 on the same stream; the peak memory of the 10,000-record
  run is within 64 MiB of the 1,000-record one's (records are released as they are folded);
- a producer that writes one record at a time with pauses (slower than the checks): the run ends
  with the bytes of --jobs 1, it does not wait for a full window that never comes;
- a reader that closes stdout after 10 bytes (bp verify multi ... | head -c 10): bp ends (SIGPIPE,
  or exit 2 with SIGPIPE ignored) instead of hanging, for --jobs 1, 2 and 8.

usage: verify_multi_stream_test.py <bp> <bundle_gen>"""
import json
import os
import signal
import subprocess
import sys
import threading
import time

from bp_cli import Failures, bp_from_argv

LONG = 10000
SHORT = 1000
# A run that hangs is killed after this long and reported as a failure, not a ctest timeout.
HANG_S = 420


def communicate(p, wait=True):
    """stdout and stderr of `p` once both are closed; with wait=False the caller reaps it."""
    out, err = [], []
    readers = [threading.Thread(target=lambda s=s, b=b: b.append(s.read()))
               for s, b in ((p.stdout, out), (p.stderr, err))]
    for t in readers:
        t.start()
    for t in readers:
        t.join(HANG_S)
    if any(t.is_alive() for t in readers):
        p.kill()
        for t in readers:
            t.join()
        return b"", b"HUNG"
    if wait:
        p.wait()
    return out[0], err[0]


def piped(bp, bundle_gen, records, jobs, env):
    """`bundle_gen records | bp verify multi - --json --jobs N`: (exit, stdout, stderr, peak RSS of
    bp in KiB, from wait4)."""
    gen = subprocess.Popen([bundle_gen, str(records)], stdout=subprocess.PIPE)
    p = subprocess.Popen([bp, "verify", "multi", "-", "--json", "--jobs", str(jobs)], stdin=gen.stdout,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    gen.stdout.close()  # bp holds the pipe's only reader
    out, err = communicate(p, wait=False)
    _, status, usage = os.wait4(p.pid, 0)
    gen.wait()
    return os.waitstatus_to_exitcode(status), out, err, usage.ru_maxrss


def main():
    bp = bp_from_argv()
    bundle_gen = sys.argv[2]
    f = Failures()

    # ASan's quarantine holds freed memory back up to 256 MiB, which the peaks below would count;
    # a build without the sanitizer ignores the setting.
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "quarantine_size_mb=1"]))

    # 10,000 records through a pipe, --jobs 2 against --jobs 1.
    runs = {jobs: piped(bp, bundle_gen, LONG, jobs, env) for jobs in (1, 2)}
    rc, out, err, long_kib = runs[2]
    f.check("10,000 records, stdin, --jobs 2: exit", rc, 0)
    f.check("10,000 records, stdin, --jobs 2: stderr", err, b"")
    try:
        report = json.loads(out)["report"]
        f.check("10,000 records, stdin, --jobs 2: record_count", report.get("record_count"), LONG)
        f.check("10,000 records, stdin, --jobs 2: per_record", len(report.get("per_record", [])), LONG)
    except ValueError:
        f.truth("10,000 records, stdin, --jobs 2: --json report", False, repr(out[:200]))
    f.truth("10,000 records, stdin: --jobs 2 gives the bytes of --jobs 1", runs[2][:3] == runs[1][:3],
            "exit %d vs %d, %d vs %d bytes" % (runs[2][0], runs[1][0], len(runs[2][1]), len(runs[1][1])))

    # Memory does not grow with the stream: 10 times the records, less than 64 MiB more at the peak
    # (holding the records would take about 70 MB of lines and about 20 times that parsed).
    rc_short, _, _, short_kib = piped(bp, bundle_gen, SHORT, 2, env)
    f.check("%d records, stdin, --jobs 2: exit" % SHORT, rc_short, 0)
    print("peak RSS, --jobs 2: %d records %d KiB, %d records %d KiB" % (SHORT, short_kib, LONG, long_kib))
    f.truth("peak RSS, --jobs 2: %d records %d KiB, %d records %d KiB" % (SHORT, short_kib, LONG, long_kib),
            long_kib < short_kib + 64 * 1024, "grows with the stream")

    # A slow producer: one record every 20 ms, fewer records than the window holds and then more.
    lines = subprocess.run([bundle_gen, "24"], check=True, capture_output=True).stdout.splitlines(keepends=True)
    slow = {}
    for jobs in (1, 2, 8):
        p = subprocess.Popen([bp, "verify", "multi", "-", "--json", "--jobs", str(jobs)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)

        def produce(pipe=p.stdin):
            for line in lines:
                pipe.write(line)
                pipe.flush()
                time.sleep(0.02)
            pipe.close()

        t = threading.Thread(target=produce)
        t.start()
        out, err = communicate(p)
        t.join()
        slow[jobs] = (p.returncode, out, err)
        f.check("slow producer --jobs %d: exit" % jobs, p.returncode, 0)
    f.truth("slow producer: --jobs 2 and 8 give the bytes of --jobs 1", slow[2] == slow[1] and slow[8] == slow[1])

    # stdout closed after 10 bytes: bp ends, by SIGPIPE or (ignored) exit 2. The report of 500
    # records (about 90 KB) is more than a pipe holds, so bp meets the closed end.
    for ignore in (False, True):
        for jobs in (1, 2, 8):
            what = "| head -c 10, --jobs %d%s" % (jobs, ", SIGPIPE ignored" if ignore else "")
            r, w = os.pipe()
            gen = subprocess.Popen([bundle_gen, "500"], stdout=subprocess.PIPE)
            p = subprocess.Popen([bp, "verify", "multi", "-", "--json", "--jobs", str(jobs)], stdin=gen.stdout,
                                 stdout=w, stderr=subprocess.PIPE, env=env,
                                 preexec_fn=(lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN)) if ignore else None)
            gen.stdout.close()
            os.close(w)
            head = os.read(r, 10)
            os.close(r)  # the reader is gone
            try:
                err = p.communicate(timeout=HANG_S)[1]
            except subprocess.TimeoutExpired:
                p.kill()
                err = b"HUNG"
            gen.wait()
            f.check(what + ": the first bytes", head, b'{"ok":true')
            f.check(what + ": ends", p.returncode, 2 if ignore else -signal.SIGPIPE)
            if ignore:
                f.truth(what + ": says stdout was lost", b"could not write" in err, repr(err))
    return f.finish()


if __name__ == "__main__":
    sys.exit(main())
