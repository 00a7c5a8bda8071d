#!/usr/bin/env python3
"""Registers each doctest case of one test executable as its own ctest.

usage: doctest_ctest.py <test executable> <prefix> <working dir> <output .cmake file>

Runs `<exe> --list-test-cases` (after each build, so a new TEST_CASE needs no re-configure)
and writes one add_test per case, named "<prefix>/<case name>", running just that case. Case
names are written as CMake bracket arguments, so the semicolons, commas and quotes that
our names hold survive (CMake's own doctest_discover_tests splits names at ';'); commas are
escaped for doctest's --test-case filter. A case that prints "SUITE-SKIP: <why>" (one that
needs hardware this machine lacks, such as a CUDA device) is reported skipped, not passed."""
import os
import subprocess
import sys


def bracket(text):
    eq = "="
    while ("]" + eq + "]") in text:
        eq += "="
    return "[" + eq + "[" + text + "]" + eq + "]"


def main():
    exe, prefix, workdir, out = sys.argv[1:5]
    listing = subprocess.run([exe, "--list-test-cases", "--no-version"], capture_output=True, text=True)
    if listing.returncode != 0:
        sys.stderr.write("cannot list the test cases of %s:\n%s%s" % (exe, listing.stdout, listing.stderr))
        return 1
    names = []
    for line in listing.stdout.splitlines():
        if not line or line.startswith("[doctest]") or set(line) == {"="}:
            continue
        names.append(line)
    if not names:
        sys.stderr.write("%s lists no test case\n" % exe)
        return 1
    lines = []
    for name in names:
        test = bracket(prefix + "/" + name)
        spec = name.replace("\\", "\\\\").replace(",", "\\,")
        lines.append("add_test(%s %s %s)" % (test, bracket(exe), bracket("--test-case=" + spec)))
        # A filter that matched no case would pass silently: that is a failure.
        lines.append("set_tests_properties(%s PROPERTIES WORKING_DIRECTORY %s LABELS %s TIMEOUT 600 "
                     "FAIL_REGULAR_EXPRESSION %s SKIP_REGULAR_EXPRESSION %s)"
                     % (test, bracket(workdir), bracket("unit;" + prefix), bracket("test cases: +0 [|]"),
                        bracket("SUITE-SKIP: ")))
    with open(out + ".new", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(out + ".new", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
