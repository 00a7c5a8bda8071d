#!/usr/bin/env python3
"""The JSON reading bounds of bp(1) and atenia(1) LIMITS, end to end: a million keys in one
object and a million array elements are read (quadratic reading took 9 s for 80k keys, so a
million would run for hours, far past this test's ctest timeout); peak memory (the child's
maximum resident set, counted by the kernel, not timed) stays within the documented multiple
of the input size; running out of memory is one line and exit 2.

usage: memory_test.py <bp> <atenia> [--sanitized]

Under AddressSanitizer (--sanitized) the memory checks are skipped: its shadow memory, redzones
and quarantine change the peak, and it aborts on allocation failure by design."""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

MULTIPLE = 22            # man pages: at most about 22 times the input size
BASELINE = 48 << 20      # the process itself (code, libraries, allocator), generous


def peak_rss_of(cmd):
    """Runs cmd in a fresh Python child so RUSAGE_CHILDREN holds only cmd's own peak."""
    probe = ("import resource,subprocess,sys\n"
             "p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.PIPE)\n"
             "sys.stdout.write('%d %d\\n' % (p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
             "sys.stderr.write(p.stderr.decode('utf-8','replace'))\n")
    p = subprocess.run([sys.executable, "-c", probe] + cmd, capture_output=True, text=True)
    rc, kib = p.stdout.split()
    return int(rc), int(kib) * 1024, p.stderr


def main():
    bp, atenia = sys.argv[1], sys.argv[2]
    sanitized = "--sanitized" in sys.argv[3:]
    failures, checks = [], 0

    def check(name, cond, detail):
        nonlocal checks
        checks += 1
        if not cond:
            failures.append("%s: %s" % (name, detail))

    work = tempfile.mkdtemp(prefix="json-memory-test-")
    try:
        inputs = {}
        path = os.path.join(work, "keys.json")
        with open(path, "w") as f:
            f.write("{" + ",".join('"k%d":%d' % (i, i) for i in range(1_000_000)) + "}")
        inputs["a million keys"] = path
        path = os.path.join(work, "elements.json")
        with open(path, "w") as f:
            f.write("[" + ",".join(str(i % 10) for i in range(1_000_000)) + "]")
        inputs["a million elements"] = path
        path = os.path.join(work, "containers.json")  # the worst shape measured for the man pages
        with open(path, "w") as f:
            f.write("[" + ",".join(["{}"] * 2_000_000) + "]")
        inputs["two million empty objects"] = path

        for name, path in inputs.items():
            size = os.path.getsize(path)
            # The bp commands that read a JsonDocument (8 bytes a value, 16 a number) stay within 8 times the
            # input (issue "bp throughput" item 4; verify general and verify multi build a tree
            # only of a receipt, or a record, its schema accepts); from-config builds a tree only of a document
            # small enough to be a topology input (at most 640 Ki values: a tree under 64 MiB).
            for tool, cmd, want_rc, want_err, multiple in (
                    ("bp validate-input", [bp, "validate-input", path], 1, "input schema validation failed", 8),
                    ("bp validate", [bp, "validate", path], 1, "schema validation failed", 8),
                    ("bp verify general", [bp, "verify", "general", path], 1, "verification failed", 8),
                    ("bp verify mazur", [bp, "verify", "mazur", path], 1, "verification failed", 8),
                    ("bp verify general, two files", [bp, "verify", "general", path, path], 1, "[FAIL] " + path, 8),
                    ("bp verify multi", [bp, "verify", "multi", path], 1, "verify multi failed (1 record(s))", 8),
                    # reconcile reads a document; the rules' receipt (reconcile::ReadReceipt) builds
                    # a container's children only when a rule reads them.
                    ("bp reconcile receipt", [bp, "reconcile", "receipt", path], 1, "reconciliation failed", 8),
                    # import reads a long sidecar line as a JsonDocument and builds a tree only of
                    # one its first checks (optimizer, schema) accept.
                    ("bp import pytorch multi", [bp, "import", "pytorch", "multi", path], 2,
                     "bp: %s: bp import pytorch multi: sidecar line 1: sidecar failed framework-trace.v0.1.0 "
                     "validation: /: must " % path, 8),
                    ("bp import pytorch", [bp, "import", "pytorch", path], 2,
                     "bp: %s: bp import pytorch: sidecar " % path, 8),
                    ("bp generate from-config", [bp, "generate", "from-config", path], 2,
                     "bp: generate from-config: input rejected: ", 8),
                    # verify nltrain and verify tensor read each receipt line as a JsonDocument
                    # through the same strict reader (JsonViewFields): no tree at all.
                    ("bp verify nltrain", [bp, "verify", "nltrain", path], 2, "bp: %s:1: /" % path, 8),
                    ("bp verify tensor", [bp, "verify", "tensor", path], 2, "bp: %s:1: /" % path, 8),
                    ("atenia simulate", [atenia, "simulate", path], 2, "atenia: " + path, MULTIPLE)):
                bound = multiple * size + BASELINE
                rc, peak, err = peak_rss_of(cmd)
                label = "%s on %s (%d bytes)" % (tool, name, size)
                check(label + ": read to the end", rc == want_rc and err.startswith(want_err),
                      "exit %d, stderr %r" % (rc, err[:300]))
                if not sanitized:
                    check(label + ": peak memory within %d x input + %d MiB" % (multiple, BASELINE >> 20),
                          peak <= bound, "peak %d bytes > %d" % (peak, bound))

        # Values of 2 bytes each (nested empty arrays): the document's 8-byte slots keep bp validate
        # within 7 times the input beyond what the process takes for an empty one (16-byte nodes,
        # as the document had, took 9.4 times).
        path = os.path.join(work, "nested.json")
        with open(path, "w") as f:
            f.write("[" + ",".join(["[" * 100 + "]" * 100] * 50_000) + "]")
        tiny = os.path.join(work, "tiny.json")
        with open(tiny, "w") as f:
            f.write("[]")
        if not sanitized:
            _, base, _ = peak_rss_of([bp, "validate", tiny])
            size = os.path.getsize(path)
            rc, peak, err = peak_rss_of([bp, "validate", path])
            check("bp validate on nested empty arrays (%d bytes): read to the end" % size,
                  rc == 1 and err.startswith("schema validation failed"), "exit %d, stderr %r" % (rc, err[:300]))
            check("bp validate on nested empty arrays: within 7 x input + the process's own %d bytes" % base,
                  peak <= 7 * size + base + (4 << 20), "peak %d bytes, input %d" % (peak, size))

        # Out of memory: an address-space limit far below what the document needs.
        def limited():
            resource.setrlimit(resource.RLIMIT_AS, (96 << 20, 96 << 20))

        worst = inputs["two million empty objects"]
        # bp validate-input reads a JsonDocument (8 bytes a value, 16 a number): two million empty objects fit
        # in the limit, so it is given eight million (16 MB of text, 64 MB of slots).
        path = os.path.join(work, "more_containers.json")
        with open(path, "w") as f:
            f.write("[" + ",".join(["{}"] * 8_000_000) + "]")
        oom_cases = () if sanitized else (("bp", [bp, "validate-input", path], "bp: out of memory\n"),
                                          ("atenia", [atenia, "simulate", worst], "atenia: out of memory\n"))
        for tool, cmd, line in oom_cases:
            # One BLAS thread: OpenBLAS's worker thread (bp and atenia link it) retries a failed
            # 128 MB buffer allocation forever under this limit, and exit() waits for it.
            env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
            p = subprocess.run(cmd, capture_output=True, preexec_fn=limited, env=env, timeout=120)
            check(tool + " out of memory: exit 2, one line", (p.returncode, p.stderr.decode()) == (2, line),
                  "exit %d, stderr %r" % (p.returncode, p.stderr[:300]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL", f)
    print("%d checks, %d failed" % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
