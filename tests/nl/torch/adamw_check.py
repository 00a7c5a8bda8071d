#!/usr/bin/env python3
"""nltrain's AdamW (nltrain-math §10) against torch.optim.AdamW in float64.

Runs nl_adamw_dump (10 steps of FrequencyAwareAdamW on a small model, all levels active), then
redoes the same steps with torch.optim.AdamW (amsgrad off, decoupled weight decay: torch's
theta *= 1 - lr*wd before the Adam step is §10's lr*wd*theta on the pre-update theta) and
compares parameters and both moments entry by entry: |ours - torch| <= 1e-6 * max(|torch|, floor).

Exit: 0 agree; 1 a mismatch, or torch missing under CI=true; 77 torch not installed outside
CI (ctest: Skipped); 2 usage or unreadable input.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mag_crosscheck as mc  # noqa: E402  (its import_torch: skip 77 outside CI, fail under CI=true)

REL = 1e-6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", required=True, help="the nl_adamw_dump executable")
    args = ap.parse_args()
    torch = mc.import_torch()
    run = subprocess.run([args.dump], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"adamw_check: {args.dump} exited {run.returncode}: {run.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    d = json.loads(run.stdout)
    theta = torch.tensor(d["theta0"], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.AdamW([theta], lr=d["steps"][0]["lr"], betas=(d["beta1"], d["beta2"]), eps=d["eps"],
                            weight_decay=d["weight_decay"])
    for s in d["steps"]:
        for group in opt.param_groups:
            group["lr"] = s["lr"]
        theta.grad = torch.tensor(s["grad"], dtype=torch.float64)
        opt.step()
    state = opt.state[theta]
    ref = {"theta": theta.detach(), "m": state["exp_avg"], "v": state["exp_avg_sq"]}
    failures = 0
    for name, floor in (("theta", 1e-2), ("m", 1e-4), ("v", 1e-10)):
        ours = torch.tensor(d[name], dtype=torch.float64)
        want = ref[name]
        if ours.shape != want.shape:
            print(f"adamw_check: {name}: {ours.shape[0]} entries, torch has {want.shape[0]}", file=sys.stderr)
            failures += 1
            continue
        rel = (ours - want).abs() / want.abs().clamp(min=floor)
        worst = int(rel.argmax())
        print(f"{name}: {ours.shape[0]} entries, worst rel {float(rel[worst]):.3e} at {worst} "
              f"(ours {float(ours[worst]):.9g}, torch {float(want[worst]):.9g})")
        if float(rel[worst]) > REL:
            print(f"adamw_check: {name}[{worst}] differs from torch by {float(rel[worst]):.3e} relative (limit {REL:g})",
                  file=sys.stderr)
            failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
