#!/usr/bin/env bash
# nltrain train --memory-budget under mpirun: each rank budgets its own share of the batch. At the
# least budget (every cache but the one in use goes out) R = 2 and 3 ranks (3: shares of 1, 1 and
# 2 streams) train the metrics and checkpoint bytes of one unbudgeted process, rank r > 0 spilling
# to RUN/spill-rank<r>, each gone after the run; a named tier keeps no directory either; a budget
# below the working set is refused by rank 0 alone, one line, nothing trained; so is a run whose
# rank 1 alone cannot open its spill directory, with rank 1's reason.
NLTRAIN=$1
MPIRUN=$2
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/cli_assert.sh"
cd "$WORK" || exit 2
. "$HERE/mpi_env.sh"
no_memory() { sed -E 's/,"memory":\{[^}]*\}//' "$1"; }

head -c 3000 "$HERE/train_test.sh" >text.txt
M=(--d 16 --heads 2 --seq-len 16 --levels 3 --steps 6 --checkpoint-every 4 --quiet --data text.txt --batch 4 --threads 1)
run "$NLTRAIN" train "${M[@]}" --out one --metrics one.jsonl
expect_rc 0

run "$MPIRUN" -n 2 "$NLTRAIN" train "${M[@]}" --out small --metrics small.jsonl --memory-budget 1
expect_rc 3
# One line from nltrain (rank 0's); the rest of stderr is the launcher's.
[ "$(grep -c '^nltrain: ' err)" -eq 1 ] || fail "want one nltrain line: $(head -c 300 err)"
expect_err_has "nltrain: --memory-budget: 1 bytes cannot hold one step's working set"
NEED=$(sed -nE 's/.*at least ([0-9]+) bytes are needed.*/\1/p' "$WORK/err")
[ -n "$NEED" ] || fail "no working set in: $(cat "$WORK/err")"
[ ! -e small.jsonl ] && [ ! -e small/checkpoint ] || fail "a refused budget wrote something"

for R in 2 3; do
  run "$MPIRUN" -n "$R" "$NLTRAIN" train "${M[@]}" --out "r$R" --metrics "r$R.jsonl" --memory-budget "$NEED"
  expect_rc 0
  [ "$(no_memory "r$R.jsonl")" = "$(cat one.jsonl)" ] || fail "R=$R: metrics differ from one unbudgeted process"
  same_checkpoint one "r$R" || fail "R=$R: checkpoint differs from one unbudgeted process"
  [ "$(grep -c "\"memory\":{\"budget_bytes\":$NEED,\"spilled_bytes\":[1-9]" "r$R.jsonl")" -eq 6 ] || fail "R=$R: $(head -1 "r$R.jsonl")"
  [ -z "$(ls -d "r$R"/spill* 2>/dev/null)" ] || fail "R=$R: left $(ls -d "r$R"/spill*)"
done

# Rank 1 alone cannot open its spill directory (a link there): rank 0 says rank 1's reason, one
# line, exit 2, nothing trained and nothing written through the link.
mkdir -p l elsewhere && ln -s "$WORK/elsewhere" l/spill-rank1
run "$MPIRUN" -n 2 "$NLTRAIN" train "${M[@]}" --out l --metrics l.jsonl --memory-budget "$NEED"
expect_rc 2
[ "$(grep -c '^nltrain: ' err)" -eq 1 ] || fail "want one nltrain line: $(head -c 300 err)"
expect_err_has "l/spill-rank1 is not a directory"
[ -z "$(ls elsewhere)" ] && [ ! -e l.jsonl ] && [ ! -e l/checkpoint ] || fail "a refused rank's run wrote something"

# Spills of rank 1 while the run goes: RUN/spill-rank1 holds blobs (a slow tier keeps them there
# long enough to be seen), and none once the run is over.
mkdir tiers
NLTRAIN_TEST_SLOW_TIER=slow:5000 "$MPIRUN" -n 2 "$NLTRAIN" train "${M[@]}" --out t --metrics t.jsonl --memory-budget "$NEED" \
  --spill-tier slow=tiers/slow >t.out 2>t.err &
job=$!
seen=""
for _ in $(seq 300); do
  if compgen -G "tiers/slow/nltrain-spill-*-rank1/*" >/dev/null; then seen=yes; break; fi
  kill -0 "$job" 2>/dev/null || break
  sleep 0.1
done
wait "$job" || fail "the slow-tier run failed: $(head -c 300 t.err)"
[ -n "$seen" ] || fail "rank 1's blobs never appeared in its own directory of the tier"
[ -z "$(ls tiers/slow)" ] || fail "the tier kept: $(ls tiers/slow)"
[ "$(no_memory t.jsonl)" = "$(cat one.jsonl)" ] && same_checkpoint one t || fail "slow tier: the run's bits differ"
finish
