"""Whether a differential test can run: the reference package and node must be there. Without
them a test is SKIPPED (exit 77), except under CI=true, where their absence is a failure."""
import os
import shutil


def reference_missing(reference, node, hint=""):
    """None when the reference at `reference` and `node` are usable; else the exit status to
    return (77: skipped, 1: CI=true requires them), after saying why."""
    if os.path.isfile(os.path.join(reference, "package.json")) and shutil.which(node):
        return None
    if os.environ.get("CI") == "true":
        print("FAIL: CI=true but the reference package or node is missing at", reference)
        return 1
    print("SKIP: reference not installed at", reference, *([hint] if hint else []))
    return 77
