"""What the CLI tests of every tool share: a list of named checks that reports all failures at
the end, and the pieces of the OUTPUT FILES tests (stdout on /dev/full, scratch device nodes,
leftover temporaries, a FIFO's reader).

Import it from a test under tests/cli/<tool>/ with
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
"""
import os
import stat
import subprocess
import threading


class Failures:
    def __init__(self):
        self.items = []
        self.count = 0

    def check(self, name, got, want):
        self.count += 1
        if got != want:
            self.items.append("%s:\n  got:  %r\n  want: %r" % (name, got, want))

    def truth(self, name, cond, detail=""):
        self.count += 1
        if not cond:
            self.items.append("%s: %s" % (name, detail or "condition is false"))

    def finish(self):
        for f in self.items:
            print("FAIL", f)
        print("%d checks, %d failed" % (self.count, len(self.items)))
        return 1 if self.items else 0


def run_to_dev_full(tool, args, stdin=b""):
    """Runs `tool args` with stdout on /dev/full; returns (exit status, stderr text)."""
    with open("/dev/full", "wb") as full:
        p = subprocess.run([tool] + args, input=stdin, stdout=full, stderr=subprocess.PIPE)
    return p.returncode, p.stderr.decode("utf-8", "replace")


def scratch_device(work, name, major, minor, system_path):
    """A character device node of our own (as root), so that a regressed binary replacing its
    --out target by rename damages only the scratch directory, never the system's /dev entry.
    Without the right to create one, the system's node (which a non-root run cannot replace)."""
    path = os.path.join(work, name)
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
        with open(path, "wb"):
            pass  # a nodev mount refuses to open it
        return path
    except OSError:
        if os.path.exists(path):
            os.remove(path)
        return system_path


def temporaries(directory):
    """The temporary files of an atomic write left in `directory`."""
    return sorted(n for n in os.listdir(directory) if ".atomic-tmp." in n or ".tmp." in n)


def read_fifo_while(fifo, action):
    """Reads `fifo` to its end in a thread while `action()` runs; returns (action's result, the
    bytes read, or None when the reader got nothing within a minute)."""
    got = {}

    def reader():
        with open(fifo, "rb") as p:
            got["bytes"] = p.read()

    t = threading.Thread(target=reader)
    t.start()
    result = action()
    t.join(60)
    return result, got.get("bytes")
