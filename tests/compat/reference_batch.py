"""Runs many reference `bp` command lines in one node process (bp_verify_reference.mjs): each
start of the reference CLI costs about a second of CPU, most of it compiling its schemas."""
import json
import os
import subprocess
import tempfile

DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bp_verify_reference.mjs")


def start(node, package, command_lines, env=None, preload=None):
    """Starts the reference on every command line (lists of arguments after `bp`); returns a
    function that waits for it and gives [(exit code, stdout bytes, stderr bytes)] in order.
    `preload` is a script for node's -r (bp_import_pin_date.cjs pins the reference's Date)."""
    work = tempfile.TemporaryDirectory(prefix="bp_reference_batch_")
    cases, results = os.path.join(work.name, "cases.json"), os.path.join(work.name, "results.json")
    with open(cases, "w", encoding="utf-8") as fh:
        json.dump([{"args": words} for words in command_lines], fh)
    cmd = [node] + (["-r", preload] if preload else []) + [DRIVER, package, cases, results]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def wait():
        with work:
            out, err = proc.communicate()
            if proc.returncode != 0:
                raise SystemExit("reference batch failed (%d): %s" % (proc.returncode,
                                                                      (out + err)[-2000:].decode(errors="replace")))
            with open(results, encoding="utf-8") as fh:
                return [(r["code"], r["stdout"].encode(), r["stderr"].encode()) for r in json.load(fh)]
    return wait


def run(node, package, command_lines, env=None, preload=None):
    """start(...)() : every result, once all have run."""
    return start(node, package, command_lines, env, preload)()
