#!/usr/bin/env bash
# kill -9 at random instants of a trainer that checkpoints every step: after each kill the
# checkpoint must load (eval) and the run must resume (the lock died with the process), and the
# run must still make progress across the kills.
NLTRAIN=$1
ROUNDS=${2:-20}
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
ARGS=(--d 8 --heads 2 --seq-len 8 --rule titans --levels 2)
run "$NLTRAIN" train --steps 1000000 --checkpoint-every 1 --out R --quiet --stop-at 1 "${ARGS[@]}"
expect_rc 0
RANDOM=7
MIDSAVE=0
for i in $(seq 1 "$ROUNDS"); do
  "$NLTRAIN" train --resume R --quiet >/dev/null 2>"$WORK/train.err" &
  pid=$!
  sleep "0.$((RANDOM % 4 + 1))$((RANDOM % 10))"  # 0.10 .. 0.49 s: past start-up, into the checkpointing
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  [ -e R/.save-backup ] && MIDSAVE=$((MIDSAVE + 1))  # killed inside a save: eval must read the committed one
  run "$NLTRAIN" eval --checkpoint R --max-chunks 2 --json
  LAST="eval after kill -9, round $i"
  expect_rc 0
  [ "$RC" -eq 0 ] || break
done
echo "kills inside a save: $MIDSAVE of $ROUNDS"
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
