#!/usr/bin/env bash
# Readers of a run directory while its trainer checkpoints every step: `atenia checkpoint
# inspect`, `restore` and `nltrain eval` read whole, committed checkpoints (hybrid/checkpoint_root/
# save_lock.hpp), never half of a save. Before the save lock, 16 of 60 inspects reported a
# healthy run as damaged ("no cache entry ...", exit 1) and a second `train --resume` exited 3
# instead of being refused by the run's lock.
# $1 nltrain, $2 atenia.
NLTRAIN=$1
ATENIA=$2
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
"$NLTRAIN" train --d 32 --heads 2 --seq-len 32 --levels 3 --checkpoint-every 1 --steps 1000000 --out R --quiet \
  >/dev/null 2>"$WORK/trainer.err" &
trainer=$!
trap 'kill $trainer 2>/dev/null; wait $trainer 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 600); do [ -f R/checkpoint/checkpoint.meta ] && break; sleep 0.05; done
[ -f R/checkpoint/checkpoint.meta ] || fail "no first checkpoint within 30 s: $(cat "$WORK/trainer.err")"
first=$(grep -a '^created_unix=' R/checkpoint/checkpoint.meta)
for i in $(seq 1 24); do
  run "$ATENIA" checkpoint inspect R
  expect_rc 0
  expect_out_has " bad_blobs=0"
  if [ $((i % 4)) = 0 ]; then
    run "$NLTRAIN" eval --checkpoint R --max-chunks 1
    expect_rc 0
    run "$ATENIA" checkpoint restore R
    expect_rc 0
  fi
done
# A second trainer is refused by the lock, whatever moment of a save it meets.
for _ in 1 2 3 4 5; do
  run "$NLTRAIN" train --resume R --quiet
  expect_error 2 "R: another nltrain is training into this directory (its lock is held)"
done
last=$(grep -a '^created_unix=' R/checkpoint/checkpoint.meta)
[ "$first" != "$last" ] || fail "the trainer saved no checkpoint while the readers ran ($first)"
kill -0 $trainer 2>/dev/null || fail "the trainer stopped: $(cat "$WORK/trainer.err")"
finish
