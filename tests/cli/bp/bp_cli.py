"""Runs the built `bp` and checks exact stdout / stderr / exit status (tests/cli/bp/*_test.py)."""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "compat"))
from output_checks import Failures  # noqa: E402,F401  (re-exported for the bp tests)
import reference_batch  # noqa: E402


def run(bp, args, stdin=b"", env=None, cwd=None):
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    # A .js path is the reference CLI (tests/compat replays the REF cases against it).
    cmd = ["node", bp] if bp.endswith(".js") else [bp]
    p = subprocess.run(cmd + args, input=stdin, capture_output=True, env=full_env, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def run_many(bp, arg_lists):
    """run(bp, args) for each of arg_lists, in order. The reference CLI runs them all in one node
    process (tests/compat/bp_verify_reference.mjs): each start of it costs about a second."""
    if not bp.endswith(".js"):
        with ThreadPoolExecutor(max_workers=8) as pool:
            return list(pool.map(lambda args: run(bp, args), arg_lists))
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(bp))))  # <pkg>/dist/bin/bp.js
    return reference_batch.run("node", package, arg_lists, env)


def expect(f, bp, name, args, code, stdout=None, stderr=None, stdin=b"", env=None, cwd=None):
    rc, out, err = run(bp, args, stdin=stdin, env=env, cwd=cwd)
    f.check(name + " exit", rc, code)
    if stdout is not None:
        f.check(name + " stdout", out.decode("utf-8", "replace"), stdout)
    if stderr is not None:
        f.check(name + " stderr", err.decode("utf-8", "replace"), stderr)
    return rc, out, err


def bp_from_argv():
    if len(sys.argv) < 2:
        print("usage: %s <path to bp> [args]" % sys.argv[0])
        sys.exit(2)
    return sys.argv[1]
