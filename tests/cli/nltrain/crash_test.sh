#!/usr/bin/env bash
# kill -9 at random instants of a trainer that checkpoints every step: after each kill the
# checkpoint must load (eval) and the run must resume (the lock died with the process), and the
# run must still make progress across the kills.
NLTRAIN=$1
ROUNDS=${2:-20}
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
ARGS=(--d 8 --heads 2 --seq-len 8 --rule titans --levels 2)
ms() { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms)
run "$NLTRAIN" train --steps 1000000 --checkpoint-every 1 --out R --quiet --stop-at 1 "${ARGS[@]}"
expect_rc 0
# The kills fall between half and two and a half times what start-up, one step and one save took
# here: past start-up and into the checkpointing on a fast machine and on a loaded one alike (fixed
# instants of 0.1 to 0.5 s all fell inside a sanitizer build's start-up on a busy machine).
T=$(($(ms) - t0))
RANDOM=7
MIDSAVE=0
for i in $(seq 1 "$ROUNDS"); do
  "$NLTRAIN" train --resume R --quiet >/dev/null 2>"$WORK/train.err" &
  pid=$!
  at=$((T * (50 + RANDOM % 200) / 100))
  sleep "$((at / 1000)).$(printf %03d $((at % 1000)))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  [ -e R/.save-backup ] && MIDSAVE=$((MIDSAVE + 1))  # killed inside a save: eval must read the committed one
  run "$NLTRAIN" eval --checkpoint R --max-chunks 2 --json
  LAST="eval after kill -9, round $i"
  expect_rc 0
  [ "$RC" -eq 0 ] || break
done
echo "kills inside a save: $MIDSAVE of $ROUNDS (start-up, one step and a save: $T ms)"
step=$(sed -nE 's/.*"checkpoint_step":([0-9]+).*/\1/p' "$WORK/out")
LAST="progress across the kills"
[ -n "$step" ] && [ "$step" -gt 1 ] || fail "no progress across $ROUNDS kills (checkpoint after ${step:-?} steps)"
run "$NLTRAIN" train --resume R --stop-at $((step + 3)) --quiet
expect_rc 0
expect_out_has "trained steps $step..$((step + 3))"
left=$(find R -name '*.atomic-tmp.*' -o -name '.save-backup*' -o -name '*.bin.next')
[ -z "$left" ] || fail "temporaries of killed writes left after the next write: $left"
[ -z "$(ls R | grep -v '^checkpoint$\|^blobs$')" ] || fail "unexpected files in R: $(ls R)"
finish
