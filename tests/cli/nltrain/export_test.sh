#!/usr/bin/env bash
# nltrain export / --from (issue 26, item 1): a run's parameters as a safetensors file, read
# back by train / eval / generate --from bit for bit; the values against the JSON state
# (nltrain init) through Python's safetensors (the venv) and Debian's torch; bad files refused
# with one line naming the tensor or the metadata key.
# $2: the Python venv with numpy + safetensors (skipped, exit 77, when absent).
NLTRAIN=$1
PY=${2:+$2/bin/python}
. "$(dirname "$0")/cli_assert.sh"
[ -n "$PY" ] && "$PY" -c 'import numpy, safetensors.numpy' 2>/dev/null \
  || { echo "SKIPPED: no SUITE_PYTHON_VENV with numpy and safetensors (run .ci/python-env)"; exit 77; }
cd "$WORK" || exit 2
M=(--d 16 --heads 2 --seq-len 16)

run "$NLTRAIN" train --steps 5 --out R --quiet "${M[@]}"
expect_rc 0
run "$NLTRAIN" export R --to r.safetensors
expect_rc 0; expect_err_empty
run "$NLTRAIN" export R --to r.safetensors
expect_error 2 "--to: r.safetensors exists; use --force to replace it"
run "$NLTRAIN" export R --to r.safetensors --force
expect_rc 0
run "$NLTRAIN" export R --to -
expect_rc 0; cmp -s "$WORK/out" r.safetensors || fail "export to stdout differs from the file"
run "$NLTRAIN" export R --to ro.safetensors --optimizer
expect_rc 0

# --from gives what the checkpoint gives, to the bit.
for f in r.safetensors ro.safetensors; do
  "$NLTRAIN" eval --checkpoint R --json --max-chunks 6 >a.json 2>&1
  run "$NLTRAIN" eval --from $f --json --max-chunks 6
  expect_rc 0; cmp -s "$WORK/out" a.json || fail "eval --from $f differs from eval --checkpoint"
done
"$NLTRAIN" generate --checkpoint R --prompt "The " --tokens 40 >a.txt 2>&1
run "$NLTRAIN" generate --from r.safetensors --prompt "The " --tokens 40
expect_rc 0; cmp -s "$WORK/out" a.txt || fail "generate --from differs from generate --checkpoint"
run "$NLTRAIN" eval --checkpoint R --from r.safetensors
expect_error 3 "give one of --checkpoint and --from"

# train --from: a new run from the file's parameters and configuration.
run "$NLTRAIN" train --from r.safetensors --steps 5 --out T --quiet
expect_rc 0; expect_out_has "(delta rule, K=2, d=16)"
run "$NLTRAIN" train --from r.safetensors --steps 5 --out T2 --quiet --d 32
expect_error 3 "--d: 32 differs from the --from file's 16"
run "$NLTRAIN" train --from r.safetensors --resume T
expect_error 3 "--from flags cannot change it"
run "$NLTRAIN" train --from r.safetensors --steps 5 --out T3 --quiet --config /dev/null
expect_error 3 "--config cannot be combined with --from"
# Round trips: export of a file is the same bytes; of the --from run, a file of its own.
run "$NLTRAIN" export r.safetensors --to r2.safetensors
expect_rc 0; cmp -s r.safetensors r2.safetensors || fail "re-export of r.safetensors differs"
run "$NLTRAIN" export ro.safetensors --to ro2.safetensors --optimizer
expect_rc 0; cmp -s ro.safetensors ro2.safetensors || fail "re-export of ro.safetensors differs"
run "$NLTRAIN" export T --to t.safetensors
expect_rc 0

# The values against the JSON state: Python (safetensors) writes the init state's tensors,
# nltrain rewrites them, Python and torch read nltrain's file.
"$NLTRAIN" init "${M[@]}" --out s.json || fail "init"
"$PY" - <<'PY' || fail "venv safetensors could not write init.safetensors from the JSON state"
import json, numpy as np
from safetensors.numpy import save_file
s = json.load(open("s.json"))
t = {p["name"]: np.array(p["data"], dtype=np.float32).reshape(p["shape"]) for p in s["parameters"]}
save_file(t, "init.safetensors", metadata={"format": "pt", "nltrain.config": json.dumps(s["config"])})
PY
run "$NLTRAIN" export init.safetensors --to n.safetensors
expect_rc 0
"$PY" - <<'PY' || fail "venv safetensors: nltrain's file differs from the JSON state"
import json, numpy as np
from safetensors import safe_open
from safetensors.numpy import load_file
s = json.load(open("s.json"))
got = load_file("n.safetensors")
assert list(got) and set(got) == {p["name"] for p in s["parameters"]}, sorted(got)
for p in s["parameters"]:
    want = np.array(p["data"], dtype=np.float32).reshape(p["shape"])
    g = got[p["name"]]
    assert g.dtype == np.float32 and g.shape == want.shape, p["name"]
    assert np.array_equal(g.view(np.uint32), want.view(np.uint32)), p["name"]
with safe_open("n.safetensors", "np") as f:
    meta = f.metadata()
assert meta["format"] == "pt" and json.loads(meta["nltrain.config"]) == s["config"], meta
# nltrain's own export of a trained run reads as float32 with the run's configuration.
r = load_file("r.safetensors")
assert r["E"].shape == (256, 16) and r["levels/1/W_K"].dtype == np.float32
with safe_open("ro.safetensors", "np") as f:
    names = list(f.keys())
assert "adam_m/E" in names and "adam_v/levels/0/W_K" in names, names
PY
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  /usr/bin/python3 - <<'PY' || fail "Debian torch: nltrain's file differs from the JSON state"
import json, struct, torch
s = json.load(open("s.json"))
raw = open("n.safetensors", "rb").read()
(n,) = struct.unpack("<Q", raw[:8])
head = json.loads(raw[8:8 + n])
buf = bytearray(raw[8 + n:])
for p in s["parameters"]:
    h = head[p["name"]]
    b, e = h["data_offsets"]
    assert h["dtype"] == "F32" and h["shape"] == p["shape"], p["name"]
    got = torch.frombuffer(buf[b:e], dtype=torch.float32) if e > b else torch.zeros(0)
    want = torch.tensor(p["data"], dtype=torch.float32)
    assert torch.equal(got.view(torch.int32), want.view(torch.int32)), p["name"]
PY
else
  echo "note: Debian torch missing; its check skipped"
fi
# The loss of chunk 0 at step 0 is the JSON state's (grads) with the file's parameters (eval --from).
"$NLTRAIN" grads s.json --out g.json || fail "grads"
run "$NLTRAIN" eval --from init.safetensors --max-chunks 1 --json
expect_rc 0
"$PY" -c 'import json, sys, numpy as np
a = json.load(open(sys.argv[1]))["loss"]; b = json.load(open("g.json"))["loss"]
assert np.float32(a) == np.float32(b), (a, b)' "$WORK/out" || fail "eval --from loss differs from grads loss"

# Bad files: one line naming the tensor or the key, exit 2.
"$PY" - <<'PY' || fail "venv safetensors could not write the bad files"
import json, numpy as np
from safetensors.numpy import load_file, save_file
from safetensors import safe_open
t = load_file("r.safetensors")
with safe_open("r.safetensors", "np") as f:
    meta = f.metadata()
def put(name, tensors, metadata=meta):
    save_file(tensors, name, metadata=metadata)
put("shape.safetensors", {**t, "W_Q": t["W_Q"].reshape(-1)})
put("missing.safetensors", {k: v for k, v in t.items() if k != "levels/1/W_V"})
put("dtype.safetensors", {**t, "W_O": t["W_O"].astype(np.float64)})
put("extra.safetensors", {**t, "bonus": np.zeros(3, np.float32)})
nan = t["E"].copy(); nan[3, 4] = np.nan
put("nan.safetensors", {**t, "E": nan})
put("nometa.safetensors", t, {"format": "pt"})
put("badcfg.safetensors", t, {**meta, "nltrain.config": "{\"d\": 16"})
put("wrongcfg.safetensors", t, {**meta, "nltrain.config": meta["nltrain.config"].replace('"vocab":256', '"vocab":128')})
put("invalidcfg.safetensors", t, {**meta, "nltrain.config": meta["nltrain.config"].replace('"d":16', '"d":8')})
put("badstep.safetensors", t, {**meta, "nltrain.step": "-1"})
put("unknown.safetensors", t, {**meta, "nltrain.epoch": "3"})
o = load_file("ro.safetensors")
with safe_open("ro.safetensors", "np") as f:
    ometa = f.metadata()
v = o["adam_v/E"].copy(); v[0, 1] = -1e-3
save_file({**o, "adam_v/E": v}, "negv.safetensors", metadata=ometa)
PY
head -c 40000 r.safetensors >trunc.safetensors
check_bad() {  # file, text
  run "$NLTRAIN" eval --from "$1"
  expect_error 2 "$2"
  run "$NLTRAIN" train --from "$1" --out B --quiet --steps 1
  expect_error 2 "$2"
}
check_bad shape.safetensors 'tensor "W_Q": shape [256], expected [16, 16]'
check_bad missing.safetensors 'tensor "levels/1/W_V": missing'
check_bad dtype.safetensors 'tensor "W_O": dtype F64, expected F32'
check_bad extra.safetensors 'tensor "bonus": not a parameter of this config'
check_bad nan.safetensors 'tensor "E": element 52 is not finite'
check_bad trunc.safetensors 'trunc.safetensors'
check_bad nometa.safetensors 'metadata key "nltrain.config": missing'
check_bad badcfg.safetensors 'metadata key "nltrain.config": not JSON'
check_bad wrongcfg.safetensors 'tensor "E": shape [256, 16], expected [128, 16]'
check_bad invalidcfg.safetensors 'metadata key "nltrain.config": mag config: rule config: d_c'
check_bad badstep.safetensors 'metadata key "nltrain.step": expected a decimal step'
check_bad unknown.safetensors 'metadata key "nltrain.epoch": unknown'
check_bad negv.safetensors 'tensor "adam_v/E": element 1 is negative (a second moment)'
[ ! -e B ] || fail "a refused --from left a run directory"
run "$NLTRAIN" eval --from nowhere.safetensors
expect_error 2 "nowhere.safetensors: no such file"

finish
