#!/usr/bin/env bash
# nltrain gradcheck for one rule: K = 1, 2, 4, each plain, --stress, --fp64 and --stress --fp64.
# With a third argument "learned" (a ctest of its own, to keep each short under the sanitizers):
# --schedule learned (the straight-through frequency gate) at K = 2 and 4 in the same four modes:
# the gate must choose the protocol's levels and W_freq/b_freq must be checked against FD in the
# mask, with the stress variant's gate gradient far from zero.
# Every run must pass (exit 0, "passed": true) and must actually have checked something: FD
# entries on every tensor, and memory-level gradients far from zero in the stress variant.
NLTRAIN=$1
RULE=$2
SCHEDULE=${3:-fixed}
. "$(dirname "$0")/cli_assert.sh"
[ "$SCHEDULE" = fixed ] || [ "$SCHEDULE" = learned ] || { echo "usage: $0 NLTRAIN RULE [fixed|learned]" >&2; exit 2; }
[ "$SCHEDULE" = fixed ] && for k in 1 2 4; do
  for mode in "" "--stress" "--fp64" "--stress --fp64"; do
    # shellcheck disable=SC2086
    run "$NLTRAIN" gradcheck --rule "$RULE" --levels "$k" $mode --json
    expect_rc 0
    /usr/bin/env python3 - "$WORK/out" "$k" "$mode" <<'PY' || fail "gradcheck report"
import json, sys
r = json.load(open(sys.argv[1]))
k, mode = int(sys.argv[2]), sys.argv[3]
assert r["passed"] is True and r["levels"] == k
names = [t["name"] for t in r["tensors"]]
assert names[:6] == ["E", "W_Q", "W_K", "W_V", "W_O", "U_emb"], names
assert sum(n.startswith("levels/%d/" % (k - 1)) for n in names) >= 9, names
assert all(t["fd_checked"] > 0 and t["passed"] for t in r["tensors"])
if "--fp64" in mode:
    assert all(t["fd_checked"] == t["size"] for t in r["tensors"]), "fp64 checks every entry"
if "--stress" in mode:
    assert r["active"] == [l % 2 == 0 for l in range(k)], r["active"]
    lvl0 = max(t["max_abs_grad"] for t in r["tensors"] if t["name"].startswith("levels/0/W_"))
    assert lvl0 > 1e-4, "stress: level-0 memory gradients too small to mean anything: %g" % lvl0
    if k > 1:
        wq1 = [t for t in r["tensors"] if t["name"] == "levels/1/W_Q"][0]
        assert wq1["frozen"] and wq1["max_abs_grad"] > 0, "frozen level 1: its W_Q error buffer must be checked"
PY
  done
done
[ "$SCHEDULE" = learned ] && for k in 2 4; do
  for mode in "" "--stress" "--fp64" "--stress --fp64"; do
    # shellcheck disable=SC2086
    run "$NLTRAIN" gradcheck --rule "$RULE" --levels "$k" --schedule learned $mode --json
    expect_rc 0
    /usr/bin/env python3 - "$WORK/out" "$k" "$mode" <<'PY' || fail "gradcheck --schedule learned report"
import json, sys
r = json.load(open(sys.argv[1]))
k, mode = int(sys.argv[2]), sys.argv[3]
assert r["passed"] is True and r["levels"] == k and r["schedule"] == "learned", r
assert "mask held fixed" in r["protocol"], r["protocol"]
t = {t["name"]: t for t in r["tensors"]}
names = [x["name"] for x in r["tensors"]]
assert names[-2:] == ["W_freq", "b_freq"], names
assert t["W_freq"]["size"] == (k - 1) * 8 and t["b_freq"]["size"] == k - 1
assert all(x["fd_checked"] > 0 and x["passed"] for x in r["tensors"])
assert t["b_freq"]["fd_checked"] == k - 1 and t["W_freq"]["fd_checked"] == min((k - 1) * 8, 20 if "--fp64" not in mode else 99)
assert t["W_freq"]["tape_vs_hand_rel"] <= 2e-4 and t["E"]["tape_vs_hand_rel"] <= 2e-4
if "--stress" in mode:
    assert r["active"] == [l % 2 == 0 for l in range(k)], r["active"]
    assert t["b_freq"]["max_abs_grad"] > 1e-4, "stress: the gate's gradient is too small to mean anything: %g" % t["b_freq"]["max_abs_grad"]
    assert t["b_freq"]["fd_worst_rel"] > 0, "b_freq compared above the FD floor"
else:
    assert r["active"] == [True] * k, r["active"]
if "--fp64" in mode:
    assert all(x["fd_checked"] == x["size"] for x in r["tensors"]), "fp64 checks every entry"
PY
  done
done
finish
