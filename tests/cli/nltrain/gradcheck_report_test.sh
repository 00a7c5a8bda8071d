#!/usr/bin/env bash
# gradcheck says what finite differences compared and what they skipped: per tensor the counts,
# and the worst absolute and relative errors over compared entries only (null / "-" when none
# was compared, never 0). Its default --levels is train's (2).
NLTRAIN=$1
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2

run "$NLTRAIN" gradcheck --json
expect_rc 0
cp "$WORK/out" default.json
"$NLTRAIN" init --out state.json
/usr/bin/env python3 - default.json state.json <<'PY' || fail "gradcheck --json: counts or worst errors wrong"
import json, sys
r = json.load(open(sys.argv[1]))
state = json.load(open(sys.argv[2]))
assert r["levels"] == len(state["config"]["periods"]) == 2, (r["levels"], state["config"])
none_compared = skipped = 0
for t in r["tensors"]:
    assert t["fd_compared"] + t["fd_skipped"] == t["fd_checked"], t
    if t["fd_compared"] == 0:
        none_compared += 1
        assert t["fd_worst_abs"] is None and t["fd_worst_rel"] is None, t
    else:
        assert t["fd_worst_abs"] is not None and t["fd_worst_rel"] is not None, t
    skipped += t["fd_skipped"]
assert none_compared > 0 and skipped > 0, "the default protocol skips entries below its floor"
PY
# The table: a tensor with nothing compared shows "-" for its worst errors.
run "$NLTRAIN" gradcheck --rule delta
expect_rc 0
expect_out_has "FD cmp FD skip FD worst abs FD worst rel"
/usr/bin/env python3 - "$WORK/out" <<'PY' || fail "gradcheck table: a worst error shown for a tensor with nothing compared"
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("  ") and l.split()[-1] in ("ok", "MISMATCH")]
assert rows, "no rows"
for row in rows:
    cmp_, skip, worst_abs, worst_rel = row[4], row[5], row[6], row[7]
    if cmp_ == "0":
        assert worst_abs == "-" and worst_rel == "-", row
    else:
        assert worst_abs != "-" and float(worst_rel) >= 0, row
PY
# fp64 compares every entry: nothing skipped.
run "$NLTRAIN" gradcheck --rule delta --fp64 --json
expect_rc 0
/usr/bin/env python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert all(t["fd_skipped"] == 0 and t["fd_compared"] == t["size"] for t in r["tensors"])' "$WORK/out" || fail "fp64 skipped entries"
finish
