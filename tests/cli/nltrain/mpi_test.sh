#!/usr/bin/env bash
# nltrain train under mpirun: R = 1, 2, 3, 4 ranks give the same metrics and checkpoint files as
# one process with the same --batch; a run checkpointed by 4 ranks resumes on 2 to the bytes of
# an uninterrupted run; a rank with other data is refused before the first step, naming it; a
# batch smaller than the ranks is refused with one line; a rank killed with -9 ends the run
# within 30 s and leaves the last checkpoint whole (it resumes).
NLTRAIN=$1
MPIRUN=$2
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/cli_assert.sh"
cd "$WORK" || exit 2
. "$HERE/mpi_env.sh"
mpi() { local r=$1; shift; "$MPIRUN" -n "$r" "$@"; }

head -c 3000 "$HERE/train_test.sh" >text.txt
M=(--d 8 --heads 2 --seq-len 8 --window 8 --levels 2 --steps 50 --checkpoint-every 20 --quiet --data text.txt --batch 12)
run "$NLTRAIN" train "${M[@]}" --out one --metrics one.jsonl
expect_rc 0
for R in 1 2 3 4; do
  run mpi "$R" "$NLTRAIN" train "${M[@]}" --out "r$R" --metrics "r$R.jsonl"
  expect_rc 0
  cmp -s one.jsonl "r$R.jsonl" || fail "R=$R: metrics differ from one process"
  same_checkpoint one "r$R" || fail "R=$R: checkpoint differs from one process"
done

# Checkpointed by 4 ranks at step 20, resumed by 2.
run mpi 4 "$NLTRAIN" train "${M[@]}" --out s --metrics s.jsonl --stop-at 20
expect_rc 0
run mpi 2 "$NLTRAIN" train --resume s --metrics s.jsonl --quiet
expect_rc 0
cmp -s one.jsonl s.jsonl || fail "4 then 2 ranks: metrics differ from one uninterrupted process"
same_checkpoint one s || fail "4 then 2 ranks: checkpoint differs from one uninterrupted process"

# Rank 1 given other data (two programs, one job): refused before the first step, one line.
head -c 3000 "$HERE/errors_test.sh" >other.txt
run "$MPIRUN" -n 1 "$NLTRAIN" train "${M[@]}" --out d : -n 1 "$NLTRAIN" train "${M[@]/text.txt/other.txt}" --out d
[ "$RC" -ne 0 ] || fail "ranks with different data trained"
grep -q "rank 1's run (binary version, configuration, data, plan or checkpoint) differs from rank 0's" err ||
  fail "no line naming rank 1: $(head -c 300 err)"
[ ! -e d/checkpoint ] || fail "a refused run wrote a checkpoint"

run mpi 3 "$NLTRAIN" train "${M[@]/12/2}" --out small
[ "$RC" -ne 0 ] || fail "--batch 2 over 3 ranks trained"
[ "$(grep -c 'every rank needs a stream of its own' err)" -eq 1 ] || fail "want one line about the batch: $(head -c 300 err)"

# A rank killed with -9 mid-run: the job ends within 30 s, the checkpoint loads and resumes.
L=(--d 8 --heads 2 --seq-len 8 --window 8 --levels 2 --steps 100000 --checkpoint-every 5 --quiet --data text.txt --batch 4)
"$MPIRUN" -n 2 "$NLTRAIN" train "${L[@]}" --out k >k.out 2>k.err &
job=$!
for _ in $(seq 150); do [ -e k/checkpoint/checkpoint.meta ] && break; sleep 0.2; done
sleep 1
victim=$(pgrep -P "$job" -f -- "--out k" | tail -1)
if [ -z "$victim" ]; then
  fail "no rank process found under mpirun"
else
  kill -9 "$victim"
  t0=$SECONDS
  for _ in $(seq 150); do kill -0 "$job" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$job" 2>/dev/null; then
    fail "the job still runs 30 s after a rank was killed"
    kill -9 "$job"
  fi
  wait "$job" 2>/dev/null
  [ $((SECONDS - t0)) -le 30 ] || fail "the job took $((SECONDS - t0)) s to end after a rank was killed"
fi
pkill -9 -f -- "--out k" 2>/dev/null
run "$NLTRAIN" eval --checkpoint k --data text.txt --json
expect_rc 0
run timeout --preserve-status -s TERM 3 "$NLTRAIN" train --resume k --quiet
expect_rc 0
finish
