#!/usr/bin/env bash
# A full disk during a spill (RLIMIT_FSIZE: a write past 40 KiB fails with EFBIG; a level's saved
# state at s = 64 is a 66 KiB blob, the checkpoint's largest file 20 KiB): the step fails with one
# line naming the spill file, exit 2, the last checkpoint and the run directory unchanged file for
# file, RUN/spill removed; resumed with room, the run ends on the unbudgeted run's bits.
NLTRAIN=$1
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
M=(--d 16 --heads 2 --seq-len 64 --levels 3 --steps 6 --checkpoint-every 2 --quiet)

run "$NLTRAIN" train "${M[@]}" --out u
expect_rc 0
run "$NLTRAIN" train "${M[@]}" --out b --memory-budget 1
# One whole level's cache (not the least budget, which pages in blobs of a few states): whole
# caches move, each one blob above the limit.
NEED=$(sed -nE "s/.*a level's saved state takes ([0-9]+) bytes.*/\1/p" "$WORK/err")
[ -n "$NEED" ] || fail "no working set in: $(cat "$WORK/err")"
B=(--memory-budget "$NEED" --spill-codec none)
run "$NLTRAIN" train "${M[@]}" --out b --stop-at 4 "${B[@]}"
expect_rc 0
cp -r b b.keep

(ulimit -f 40; trap '' XFSZ; exec "$NLTRAIN" train --resume b --quiet "${B[@]}") >"$WORK/out" 2>"$WORK/err" </dev/null
RC=$?
LAST="train --resume b --memory-budget under ulimit -f 40"
expect_rc 2
expect_err_one_line
expect_err_has "cannot write the step's saved state to b/spill"
expect_err_has "File too large"
expect_err_has "the last good checkpoint (after 4 steps) in b is kept"
diff -r b.keep b >/dev/null || fail "a failed spill changed the run directory: $(diff -rq b.keep b)"
[ ! -e b/spill ] || fail "b/spill left after the failed step"

run "$NLTRAIN" train --resume b --quiet "${B[@]}"
expect_rc 0
same_checkpoint u b || fail "the run resumed after a full disk differs from the unbudgeted run"
finish
