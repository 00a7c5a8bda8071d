#!/usr/bin/env bash
# The negative control of nltrain gradcheck: with --perturb-gradient moving one hand-written
# gradient entry, the run that passes without it must fail (exit 1) and name that tensor, in the
# table and in --json, for fp32 and fp64; a malformed or impossible perturbation is an error.
NLTRAIN=$1
. "$(dirname "$0")/cli_assert.sh"

# The unperturbed runs pass: the control is only meaningful against a passing check.
run "$NLTRAIN" gradcheck --rule delta --levels 2 --stress --json
expect_rc 0
cp "$WORK/out" "$WORK/base.json"
run "$NLTRAIN" gradcheck --rule delta --levels 2 --stress --fp64 --json
expect_rc 0
cp "$WORK/out" "$WORK/base64.json"

# name[index] += half the tensor's largest gradient: the report must fail on exactly that tensor.
for mode in "" "--fp64"; do
  for target in "W_O 0" "U_emb 7" "levels/0/W_V 3" "levels/1/W_Q 0"; do
    # shellcheck disable=SC2086
    set -- $target
    base="$WORK/base.json"; [ -n "$mode" ] && base="$WORK/base64.json"
    amount=$(/usr/bin/env python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(repr(0.5*[t for t in r["tensors"] if t["name"]==sys.argv[2]][0]["max_abs_grad"]))' "$base" "$1")
    # shellcheck disable=SC2086
    run "$NLTRAIN" gradcheck --rule delta --levels 2 --stress $mode --perturb-gradient "$1[$2]+=$amount" --json
    expect_rc 1
    /usr/bin/env python3 - "$WORK/out" "$1" "$2" "$mode" <<'PY' || fail "perturbed report"
import json, sys
r = json.load(open(sys.argv[1]))
name, index, fp64 = sys.argv[2], int(sys.argv[3]), sys.argv[4] == "--fp64"
assert r["passed"] is False and r["perturbed"]["tensor"] == name and r["perturbed"]["index"] == index, r.get("perturbed")
assert "negative control" in r["protocol"], r["protocol"]
failed = [t["name"] for t in r["tensors"] if not t["passed"]]
assert failed == [name], failed
t = [t for t in r["tensors"] if t["name"] == name][0]
assert t["first_failure"].find("%s[%d]" % (name, index)) >= 0, t["first_failure"]
if fp64 or index == 0:  # an entry FD looks at (fp64: all; fp32: every max(1, n/20)-th)
    assert t["fd_failed"] == 1, t
PY
  done
done

# Under --schedule learned the control must also bite on E (compared without the gate's
# straight-through term) and on the gate's own W_freq and b_freq (compared with FD in the mask).
for mode in "" "--fp64"; do
  run "$NLTRAIN" gradcheck --rule titans --levels 2 --schedule learned --stress $mode --json
  expect_rc 0
  cp "$WORK/out" "$WORK/learned.json"
  for target in "E 0" "W_freq 3" "b_freq 0"; do
    # shellcheck disable=SC2086
    set -- $target
    amount=$(/usr/bin/env python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(repr(0.5*[t for t in r["tensors"] if t["name"]==sys.argv[2]][0]["max_abs_grad"]))' "$WORK/learned.json" "$1")
    # shellcheck disable=SC2086
    run "$NLTRAIN" gradcheck --rule titans --levels 2 --schedule learned --stress $mode --perturb-gradient "$1[$2]+=$amount" --json
    expect_rc 1
    /usr/bin/env python3 - "$WORK/out" "$1" <<'PY' || fail "perturbed learned-schedule report"
import json, sys
r = json.load(open(sys.argv[1]))
failed = [t for t in r["tensors"] if not t["passed"]]
assert [t["name"] for t in failed] == [sys.argv[2]], [t["name"] for t in failed]
assert failed[0]["fd_failed"] == 1 and failed[0]["tape_failed"] == 1, failed[0]
PY
  done
done
# A tensor whose gradients are all tiny (a level's w_alpha, ~5e-6 here): one entry moved by 0.1%
# of the tensor's largest gradient is caught by the tape check, whose floor scales with the
# tensor (fp32 FD skips entries below 5e-4; an absolute floor of 1e-6 let this pass).
run "$NLTRAIN" gradcheck --rule delta --levels 2 --json
expect_rc 0
cp "$WORK/out" "$WORK/plain.json"
for target in "levels/0/w_alpha 0" "levels/1/b_theta 0"; do
  # shellcheck disable=SC2086
  set -- $target
  amount=$(/usr/bin/env python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); m=[t for t in r["tensors"] if t["name"]==sys.argv[2]][0]["max_abs_grad"]; assert 0 < m < 1e-4, m; print(repr(1e-3*m))' "$WORK/plain.json" "$1")
  run "$NLTRAIN" gradcheck --rule delta --levels 2 --perturb-gradient "$1[$2]+=$amount" --json
  expect_rc 1
  /usr/bin/env python3 - "$WORK/out" "$1" <<'PY' || fail "tiny-tensor perturbed report"
import json, sys
r = json.load(open(sys.argv[1]))
failed = [t for t in r["tensors"] if not t["passed"]]
assert [t["name"] for t in failed] == [sys.argv[2]], [t["name"] for t in failed]
assert failed[0]["tape_failed"] == 1, failed[0]
PY
done
run "$NLTRAIN" gradcheck --schedule sometimes --levels 2
expect_error 3 '--schedule: unknown schedule "sometimes"; one of fixed learned'
run "$NLTRAIN" gradcheck --schedule learned --levels 1
expect_error 3 "--schedule: learned needs --levels >= 2"

# The table says MISMATCH on the perturbed tensor and FAIL in its header.
run "$NLTRAIN" gradcheck --rule titans --perturb-gradient 'W_V[0]+=1'
expect_rc 1
expect_out_has "gradcheck titans K=2: FAIL"
grep -qE '^  W_V .*MISMATCH' "$WORK/out" || fail "W_V is not reported as MISMATCH"
[ "$(grep -c MISMATCH "$WORK/out")" -eq 1 ] || fail "more than one tensor reported as MISMATCH"

# Errors: malformed syntax exit 2, a tensor, index or amount out of domain exit 3.
run "$NLTRAIN" gradcheck --perturb-gradient 'W_O[3]=0.01'
expect_error 2 "--perturb-gradient: 'W_O[3]=0.01'"
run "$NLTRAIN" gradcheck --perturb-gradient 'W_O[-1]+=0.01'
expect_error 2 "INDEX is not a non-negative integer"
run "$NLTRAIN" gradcheck --perturb-gradient 'W_O[1]+=abc'
expect_error 2 "AMOUNT is not a number"
run "$NLTRAIN" gradcheck --perturb-gradient 'W_X[0]+=1'
expect_error 3 "names no parameter tensor: 'W_X'"
run "$NLTRAIN" gradcheck --perturb-gradient 'W_O[64]+=1'
expect_error 3 "index 64 is beyond W_O (64 entries)"
run "$NLTRAIN" gradcheck --perturb-gradient 'W_O[0]+=0'
expect_error 3 "finite and non-zero"
run "$NLTRAIN" gradcheck --perturb-gradient 'W_O[0]+=1e999'
expect_error 3 "out of the double range"
finish
