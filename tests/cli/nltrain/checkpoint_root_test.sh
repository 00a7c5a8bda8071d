#!/usr/bin/env bash
# nltrain's run directory is an atenia checkpoint root (issue 26, item 2): atenia checkpoint
# inspect lists the run's tensors (names, dtype, shape, tier, bytes, drift) and writes nothing;
# atenia checkpoint restore --out writes them back as a tensor file whose tensors equal nltrain
# export --optimizer's bit for bit (the venv's safetensors); an old-format run directory
# (checkpoint.nltrain) loads, resumes bit for bit and is converted by the next save; a symbolic
# link inside the run directory is refused, never followed; a lost tensor_files.json is a damaged
# checkpoint for both tools.
# $1 nltrain, $2 atenia, $3 the Python venv with numpy + safetensors (skipped, exit 77, when absent).
NLTRAIN=$1
ATENIA=$2
PY=${3:+$3/bin/python}
. "$(dirname "$0")/cli_assert.sh"
. "$(dirname "$0")/blas_core.sh"
[ -n "$PY" ] && "$PY" -c 'import numpy, safetensors.numpy' 2>/dev/null \
  || { echo "SKIPPED: no SUITE_PYTHON_VENV with numpy and safetensors (run .ci/python-env)"; exit 77; }
LEGACY=$(cd "$(dirname "$0")/../../../fixtures/nltrain/legacy-run-d8" && pwd)/checkpoint.nltrain
cd "$WORK" || exit 2
M=(--d 16 --heads 2 --seq-len 16 --levels 2 --quiet)
listing() { find "$1" -printf '%P %y %s %i %T@\n' | sort; }

run "$NLTRAIN" train --steps 9 --checkpoint-every 3 --stop-at 7 --out R "${M[@]}"
expect_rc 0

# inspect: every tensor with its dtype, shape, tier, bytes and drift; the run directory untouched.
listing R >before
run "$ATENIA" checkpoint inspect R
expect_rc 0
expect_out_has "ENTRY id=E is_grad=0 tier=ram len=16384 cache_key=tensor:E:len16384 desired_tier=none blob=ok dtype=F32 shape=[256,16] drift=none"
expect_out_has "ENTRY id=adam_v/levels/1/W_Q is_grad=0 tier=ram len=1024 "
expect_out_has "ENTRY id=context/levels/0/state is_grad=0 tier=ram len=1024 "
expect_out_has "ENTRY id=error/levels/1/b_eta is_grad=0 tier=ram len=4 "
expect_out_has " dtype=F32 shape=[] drift=none"
expect_out_has "created_unix=7 entries=92 bad_blobs=0"
run "$ATENIA" checkpoint inspect R --json
expect_rc 0
"$PY" - "$WORK/out" <<'PY' || fail "inspect --json"
import json, sys
j = json.load(open(sys.argv[1]))
e = {x["id"]: x for x in j["entries"]}
assert e["levels/0/W_K"]["shape"] == [16, 16] and e["levels/0/W_K"]["dtype"] == "F32", e["levels/0/W_K"]
assert all(x["drift"] == [] and x["tier"] == "ram" and x["blob"] == "ok" for x in j["entries"])
PY
listing R >after
cmp -s before after || fail "inspect wrote under the run directory: $(diff before after | head -5)"

# restore --out: the trainer state as one safetensors file; its tensors are export's, to the bit.
run "$ATENIA" checkpoint restore R --out D
expect_rc 0
expect_out_has "WROTE D/trainer_state.safetensors"
listing R >after
cmp -s before after || fail "restore wrote under the run directory"
run "$NLTRAIN" export R --to ro.safetensors --optimizer
expect_rc 0
"$PY" - D/trainer_state.safetensors ro.safetensors <<'PY' || fail "restored tensors differ from nltrain export --optimizer"
import sys
from safetensors.numpy import load_file
from safetensors import safe_open
d, x = load_file(sys.argv[1]), load_file(sys.argv[2])
assert set(x) < set(d), sorted(set(x) - set(d))
for k in x:
    assert d[k].dtype == x[k].dtype and d[k].shape == x[k].shape, k
    assert d[k].view("u4").tobytes() == x[k].view("u4").tobytes(), k
rest = sorted(set(d) - set(x))
assert rest[0] == "context/levels/0/state" and rest[-1].startswith("error/levels/1/"), rest
with safe_open(sys.argv[1], "np") as f:
    m = f.metadata()
assert m["nltrain.step"] == "7" and '"total_steps":9' in m["nltrain.trainer"], m
PY

# A save killed half-way (built by hand, as SaveRollback leaves it: the committed files linked in
# .save-backup, a blob replaced, a file added): readers read the committed checkpoint, inspect
# says a save is pending, and the next save (train --resume) rolls it back first.
"$NLTRAIN" eval --checkpoint R --json --max-chunks 2 >r.eval 2>&1
cp -r R P
(cd P && find checkpoint blobs -type f | while read -r f; do mkdir -p ".save-backup/$(dirname "$f")" && ln "$f" ".save-backup/$f"; done)
rm P/blobs/tensor/tensor:E:len16384.bin && printf 'half-written' >P/blobs/tensor/tensor:E:len16384.bin
printf 'new' >P/blobs/tensor/added.bin
ln P/.save-backup/checkpoint/checkpoint.meta P/checkpoint/checkpoint.meta.put-back  # an earlier recovery killed mid-way
run "$NLTRAIN" eval --checkpoint P --json --max-chunks 2
expect_rc 0; cmp -s "$WORK/out" r.eval || fail "eval of a run with a pending save did not read the committed checkpoint"
run "$ATENIA" checkpoint inspect P
expect_rc 0; expect_err_has "is running or was interrupted; shown: the committed checkpoint"
run "$NLTRAIN" train --resume P --stop-at 8
expect_rc 0
[ ! -e P/.save-backup ] && [ ! -e P/blobs/tensor/added.bin ] && [ ! -e P/checkpoint/checkpoint.meta.put-back ] || fail "the pending save was not rolled back: $(ls -a P P/blobs/tensor | head -5)"
run "$ATENIA" checkpoint inspect P
expect_rc 0; expect_out_has "created_unix=8 entries=92 bad_blobs=0"

# An old run directory: eval reads it, --resume continues it bit for bit (equal to a run that never
# stopped, where this machine's BLAS core gives the bits the old run was trained with), and the
# save replaces checkpoint.nltrain with the new layout.
L8=(--d 8 --heads 2 --seq-len 8 --levels 2 --quiet)
mkdir L && cp "$LEGACY" L/checkpoint.nltrain
run "$NLTRAIN" eval --checkpoint L --json --max-chunks 2
expect_rc 0
expect_out_has '"checkpoint_step":20'
run "$NLTRAIN" train --resume L --quiet
expect_rc 0
expect_out_has "trained steps 20..40 of 40"
[ ! -e L/checkpoint.nltrain ] || fail "the old checkpoint file was kept after the new layout was saved"
run "$NLTRAIN" train --steps 40 --checkpoint-every 5 --out N "${L8[@]}"
expect_rc 0
if recorded_bits "$NLTRAIN" "the resumed old run against one that never stopped"; then
  same_checkpoint L N || fail "a run resumed from an old checkpoint.nltrain differs from one that never stopped"
fi

# A symbolic link inside the run directory leading out of it: refused, nothing written through it.
mkdir elsewhere
cp -r R S
mv S/blobs elsewhere/blobs && ln -s "$WORK/elsewhere/blobs" S/blobs
listing elsewhere >e.before
run "$NLTRAIN" eval --checkpoint S
expect_error 2 "S/blobs is a symbolic link or a special file"
run "$NLTRAIN" train --resume S
expect_error 2 "S/blobs is a symbolic link or a special file"
listing elsewhere >e.after
cmp -s e.before e.after || fail "a write went through the link"

# A blob or .meta file missing from the run directory: a damaged checkpoint (exit 2, as a
# corrupt one), named by its path; export writes nothing.
for gone in "blobs/tensor/tensor:E:len16384.bin" "blobs/tensor/tensor:E:len16384.meta"; do
  rm -rf M && cp -r R M && rm "M/$gone"
  run "$NLTRAIN" train --resume M
  expect_error 2 "M/$gone"
  run "$NLTRAIN" eval --checkpoint M
  expect_error 2 "M/$gone"
  run "$NLTRAIN" export M --to m.safetensors
  expect_error 2 "M/$gone"
  [ ! -e m.safetensors ] || fail "export of a damaged checkpoint wrote m.safetensors"
done
# tensor_files.json deleted while the header blob of the state file stays: damaged for nltrain
# and atenia alike (exit 2, naming the list). Before, atenia inspect said bad_blobs=0 and restore
# --out wrote nothing, both exit 0, while eval refused the run.
rm -rf M && cp -r R M && rm M/checkpoint/tensor_files.json
LOST="M/checkpoint/tensor_files.json is missing, but M/blobs/kernel_meta holds the header blob of a saved file (tensorfile:trainer_state.safetensors)"
run "$NLTRAIN" eval --checkpoint M
expect_error 2 "$LOST"
run "$ATENIA" checkpoint inspect M
expect_error 2 "$LOST"
run "$ATENIA" checkpoint restore M --out M.out
expect_error 2 "$LOST"
[ ! -e M.out ] || fail "restore --out of a run without its tensor_files.json created DIR"
finish
