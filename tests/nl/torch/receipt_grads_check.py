#!/usr/bin/python3
"""A step receipt's gradient against PyTorch: nltrain train --receipts, bp verify nltrain (which
re-derives every number of the receipts bit for bit, so a pass means its recomputation equals
the receipt), then torch autograd in float64 on the receipt's own state before the step, from
the model written from specs/nltrain-math.md in mag_crosscheck.py. The receipt's loss and every
gradient entry (the frozen level's as its error-buffer contribution) must agree with torch to
a tolerance scaled by each tensor's own size (a receipt's gradients are small: mag_crosscheck's
absolute floor of 1e-6 would hide a wrong entry): |ours - torch| <= 1e-4 |torch| + 1e-5 max|torch|.

Usage: receipt_grads_check.py --nltrain EXE --bp EXE --work DIR

Exit: 0 all agree; 1 a mismatch (or torch missing under CI=true); 77 torch not installed
outside CI (ctest: Skipped); 2 usage or a failing run."""
import base64
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mag_crosscheck as mc  # noqa: E402
import state_grads_check as sg  # noqa: E402

STEP = 3  # periods 1, 8: level 1 frozen at step 3, level 0's error buffer empty (it is always active)


def floats(t):
    raw = base64.b64decode(t["data"])
    return list(struct.unpack("<%df" % (len(raw) // 4), raw))


def agree(label, ours, ref_tensor):
    """Entry by entry, relative to the entry and to the tensor's largest value."""
    ref = ref_tensor.grad.reshape(-1).tolist() if ref_tensor.grad is not None else [0.0] * ref_tensor.numel()
    scale = max(abs(x) for x in ref) if ref else 0.0
    for i, (a, b) in enumerate(zip(ours, ref)):
        if abs(a - b) > 1e-4 * abs(b) + 1e-5 * scale + 1e-30:
            print(f"  MISMATCH {label}[{i}]: receipt {a!r} torch {b!r}")
            return False
    return len(ours) == len(ref)


def named(tensors, prefix):
    return {t["name"][len(prefix):]: t for t in tensors if t["name"].startswith(prefix)}


def main(argv):
    if len(argv) != 7 or argv[1] != "--nltrain" or argv[3] != "--bp" or argv[5] != "--work":
        print(__doc__, file=sys.stderr)
        return 2
    exe, bp, work = argv[2], argv[4], argv[6]
    os.makedirs(work, exist_ok=True)
    torch = mc.import_torch()
    run, _ = mc.build(torch)
    data = os.path.join(work, "data.txt")
    with open(data, "wb") as f:
        f.write(bytes((i * 53 + i // 5) % 256 for i in range(400)))
    ok = True
    for rule in ("delta", "titans"):
        receipts = os.path.join(work, f"receipts-{rule}.jsonl")
        r = subprocess.run([exe, "train", "--rule", rule, "--data", data, "--steps", str(STEP + 1), "--levels", "2", "--d", "8",
                            "--heads", "2", "--seq-len", "8", "--window", "8", "--out", os.path.join(work, f"run-{rule}"), "--force",
                            "--receipts", receipts, "--quiet"], capture_output=True, text=True)
        v = subprocess.run([bp, "verify", "nltrain", receipts, "--data", data], capture_output=True, text=True)
        if r.returncode != 0 or v.returncode != 0:
            print(f"receipt_grads_check: train exit {r.returncode}, verify exit {v.returncode}: {r.stderr}{v.stderr}", file=sys.stderr)
            return 2
        with open(receipts) as f:
            lines = [json.loads(line) for line in f]
        rec = lines[STEP]
        before = lines[STEP - 1]["after"]["tensors"]  # receipts chain: the state before is the previous one's after
        cfg = rec["model"]["config"]
        params = [{"name": n, "shape": t["shape"], "data": floats(t)} for n, t in named(before, "params/").items()]
        contexts = named(before, "context/")
        state = {"config": cfg, "parameters": params, "tokens": rec["step"]["tokens"], "step": rec["step"]["n"],
                 "context": [floats(contexts[str(l)]) for l in range(len(cfg["periods"]))]}
        grads = named(rec["gradients"]["tensors"], "grad/")
        errors = named(rec["gradients"]["tensors"], "error/")
        case = sg.to_case(state)
        loss, p = run(case)
        good = abs(rec["step"]["loss"] - loss) <= 1e-5 * abs(loss)
        checked = 0
        for name, t in grads.items():
            parts = name.split("/")
            ref = p[name] if len(parts) == 1 else p["levels"][int(parts[1])][parts[2]]
            frozen = len(parts) == 3 and not case["pulse"][int(parts[1])]
            values = floats(errors[name]) if frozen else floats(t)  # a frozen level's gradient is its error contribution
            if frozen and any(v != 0 for v in floats(t)):
                print(f"  {rule}: frozen {name} has a non-zero gradient in the receipt")
                good = False
            good = agree(f"{rule} {name}", values, ref) and good
            checked += len(values)
        print(f"{'ok' if good else 'FAIL'}: receipt {rule} step {STEP} pulse={case['pulse']}: loss {loss:.9g}, {checked} gradient entries")
        ok = good and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
