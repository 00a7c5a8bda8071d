#!/usr/bin/python3
"""nltrain init + nltrain grads against PyTorch: the DeltaRule and TitansLMM MAG models.

Usage: state_grads_check.py --nltrain EXE --work DIR

For each rule and K = 1, 2: `nltrain init` writes a state (nltrain-state/0.1.0); this script
makes it demanding (every weight x3, gate biases 0, a random initial context memory per level,
so memory-level gradients are large; every value written is an fp32 value, since nltrain reads a
state as fp32 and torch must see the same inputs), sets the step so level 1 is frozen (K = 2), runs
`nltrain grads` (the tape path) and `nltrain grads --fp64` (and `--fp64 --exact`) on it, and recomputes the loss and
every gradient itself with torch autograd in float64, from the model written from
specs/nltrain-math.md in mag_crosscheck.py (shared, not duplicated). The fp32 path must agree to
mc.RTOL; the fp64 path, whose output is rounded to fp32, must be that rounding of values within
mc.RTOL64 (1e-10) of torch's, and with --exact the values themselves within mc.RTOL64. A frozen level's gradient
is compared with the result's error_buffer entries; its returned gradient must be zero.

Exit: 0 all agree; 1 a mismatch (or torch missing under CI=true); 77 torch not installed
outside CI (ctest: Skipped); 2 usage or a failing nltrain run.
"""
import json
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mag_crosscheck as mc  # noqa: E402

RULES = {"delta": "DeltaRule", "titans": "TitansLMM"}
SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas")


def schema_validator(name):
    """jsonschema (Debian python3-jsonschema) validation of our files against schemas/, when available."""
    try:
        import jsonschema
    except ImportError:
        return lambda doc, what: True
    with open(os.path.join(SCHEMAS, name)) as f:
        validator = jsonschema.Draft202012Validator(json.load(f))

    def validate(doc, what):
        errs = list(validator.iter_errors(doc))
        for e in errs[:3]:
            print(f"  {what}: schema {name}: {e.json_path}: {e.message}")
        return not errs
    return validate


def nltrain(exe, *args):
    r = subprocess.run([exe, *args], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"state_grads_check: nltrain {' '.join(args)} exited {r.returncode}: {r.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    return r.stdout


def f32(x):
    """x rounded to fp32 (nltrain reads every state number as fp32)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def make_state(exe, work, rule, k):
    path = os.path.join(work, f"state_{rule}_{k}.json")
    nltrain(exe, "init", "--rule", rule, "--levels", str(k), "--d", "8", "--heads", "2", "--seq-len", "8",
            "--seed", str(11 + k), "--chunk", "3", "--out", path)
    with open(path) as f:
        state = json.load(f)
    assert state["format"] == "nltrain-state/0.1.0", state["format"]
    assert state["config"]["rule"] == RULES[rule], state["config"]["rule"]
    rng = random.Random(5 + k)
    for t in state["parameters"]:
        if t["shape"] == []:
            t["data"] = [0.0]  # gate biases 0 (stress variant, nltrain-math §11)
        else:
            t["data"] = [f32(3.0 * v) for v in t["data"]]
    d = state["config"]["d"]
    state["context"] = [[f32(rng.uniform(-0.5, 0.5)) for _ in range(d * d)] for _ in range(k)]
    state["step"] = 1 if k > 1 else 0  # step 1: level 0 active, level 1 (period 8) frozen
    with open(path, "w") as f:
        json.dump(state, f)
    return path, state


def to_case(state):
    """The state in mag_crosscheck's case layout (floats as written: they round-trip exactly)."""
    cfg = state["config"]
    named = {t["name"]: t for t in state["parameters"]}
    k = len(cfg["periods"])

    def tensor(t):
        return t["data"][0] if t["shape"] == [] else {"shape": t["shape"], "data": t["data"]}

    params = {n: tensor(named[n]) for n in ["E", "W_Q", "W_K", "W_V", "W_O", "U_emb"]}
    params["levels"] = []
    for l in range(k):
        prefix = f"levels/{l}/"
        params["levels"].append({n[len(prefix):]: tensor(t) for n, t in named.items() if n.startswith(prefix)})
    pulse = [state["step"] % c == 0 for c in cfg["periods"]]
    return {"rule": cfg["rule"], "config": cfg, "ids": state["tokens"]["ids"], "targets": state["tokens"]["targets"],
            "pulse": pulse, "context": state["context"], "params": params}


def check(result, state, run, label, fp64=False):
    case = to_case(state)
    loss, p = run(case)
    ok = True
    if result["format"] != "nltrain-state-result/0.1.0" or result["pulse"] != case["pulse"]:
        print(f"  {label}: format or pulse wrong: {result['format']} {result['pulse']} vs {case['pulse']}")
        ok = False
    if not mc.close(result["loss"], loss, 1.0, fp64):
        print(f"  MISMATCH {label} loss: ours {result['loss']!r} torch {loss!r}")
        ok = False
    grads = {t["name"]: t for t in result["gradients"]}
    errors = {t["name"]: t for t in result["error_buffer"]}
    worst, checked = 0.0, 0
    for name, ours in grads.items():
        parts = name.split("/")
        ref = p[name] if len(parts) == 1 else p["levels"][int(parts[1])][parts[2]]
        if len(parts) == 3 and not case["pulse"][int(parts[1])]:
            if any(v != 0 for v in ours["data"]):
                print(f"  {label}: frozen {name} returned a non-zero gradient")
                ok = False
            ours = errors[name]  # the frozen level's gradient is its error-buffer contribution
        good, w = mc.compare(f"{label} {name}", ours, ref, fp64)
        ok, worst, checked = ok and good, max(worst, w), checked + len(ours["data"])
    if len(grads) != 6 + 9 * len(case["pulse"]):
        print(f"  {label}: {len(grads)} gradient tensors")
        ok = False
    print(f"{'ok' if ok else 'FAIL'}: {label} pulse={case['pulse']}: loss {loss:.9g}, {checked} gradient entries, "
          f"worst relative difference {worst:.3g}{' beyond fp32 output rounding' if fp64 is True else ''}")
    return ok


def main(argv):
    if len(argv) != 5 or argv[1] != "--nltrain" or argv[3] != "--work":
        print(__doc__, file=sys.stderr)
        return 2
    exe, work = argv[2], argv[4]
    os.makedirs(work, exist_ok=True)
    torch = mc.import_torch()
    run, _ = mc.build(torch)
    state_ok, result_ok = schema_validator("nltrain-state.v0.1.0.json"), schema_validator("nltrain-state-result.v0.1.0.json")
    all_ok = True
    for rule in RULES:
        for k in (1, 2):
            path, state = make_state(exe, work, rule, k)
            all_ok = state_ok(state, path) and all_ok
            for extra in ([], ["--fp64"], ["--fp64", "--exact"]):
                result = json.loads(nltrain(exe, "grads", path, *extra))
                all_ok = result_ok(result, f"grads {path}") and all_ok
                mode = "exact" if "--exact" in extra else bool(extra)
                all_ok = check(result, state, run, f"{rule} K={k} {' '.join(extra)}", mode) and all_ok
            if k == 2:  # the same state with every level active (--step 0)
                state0 = dict(state, step=0)
                result = json.loads(nltrain(exe, "grads", path, "--step", "0"))
                all_ok = check(result, state0, run, f"{rule} K=2 --step 0") and all_ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
