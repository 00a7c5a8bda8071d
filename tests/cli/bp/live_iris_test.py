"""The 100-step iris pipeline: an ordinary PyTorch loop (live_iris_train.py) on Fisher's iris
data, its sidecars piped through `bp import pytorch multi - | bp verify multi -`, exactly as a
user runs it. Also checks the bundle: 100 receipts, one trace, dense steps, the loss going down.
Usage: live_iris_test.py BP WORKDIR
"""
import json
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import live_common as lc  # noqa: E402

BP, WORK = os.path.abspath(sys.argv[1]), sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..", "..", "fixtures")
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
lc.fetch_helper(BP, "pytorch", WORK)

train = f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'live_iris_train.py'))} " \
        f"{shlex.quote(WORK)} {shlex.quote(FIXTURES)}"
receipts = os.path.join(WORK, "receipts.jsonl")
bp = shlex.quote(BP)
pipeline = (f"set -o pipefail; {train} | {bp} import pytorch multi - | tee {shlex.quote(receipts)} "
            f"| {bp} verify multi -")
r = subprocess.run(["bash", "-c", pipeline], capture_output=True, timeout=240)
err = r.stderr.decode()
lc.check(r.returncode == 0, f"pipeline exit {r.returncode}: {err[-1500:]}")
lc.check("verify multi passed (100 record(s))" in err, "bp verify multi passed all 100 records")
lc.check("iris: 100 steps" in err, "the training loop ran to the end")

with open(receipts, "rb") as f:
    bundle = [json.loads(line) for line in f.read().splitlines() if line.strip()]
lc.check(len(bundle) == 100, f"100 receipts (got {len(bundle)})")
if len(bundle) == 100:
    lc.check([b["step_index"] for b in bundle] == list(range(100)), "dense step_index 0..99")
    lc.check(len({b["trace_id"] for b in bundle}) == 1, "one trace_id")
    states = {b["fixture_status"]["verification_state"] for b in bundle}
    lc.check(states == {"engine_recompute_matched_within_tolerance"}, f"every step matched the engine: {states}")
    first, last = float(bundle[0]["loss"]["total"]), float(bundle[-1]["loss"]["total"])
    lc.check(last < first, f"the loss went down ({first} -> {last})")
    lc.check(bundle[0]["batch"]["size"] == 15, "mini-batches of 15 flowers")

lc.finish("live_iris_test")
