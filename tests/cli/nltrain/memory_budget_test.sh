#!/usr/bin/env bash
# nltrain train --memory-budget: a budgeted run trains to the same metrics and checkpoint, byte for
# byte, as an unbudgeted one (the caches went to RUN/spill and back); a budget below one step's
# working set is refused with the bytes needed; bad values are one line; a link at RUN/spill is
# refused and nothing goes through it; a second trainer stays refused; kill -9 during budgeted
# steps leaves a run that evaluates and resumes to the unbudgeted bits.
NLTRAIN=$1
ROUNDS=${2:-8}
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
M=(--d 16 --heads 2 --seq-len 16 --levels 3 --steps 12 --checkpoint-every 5 --quiet)
no_memory() { sed -E 's/,"memory":\{[^}]*\}//' "$1"; }

run "$NLTRAIN" train "${M[@]}" --out u --metrics u.jsonl
expect_rc 0

# The working set, from the refusal of a budget of 1 byte (nothing written, not even RUN/spill).
run "$NLTRAIN" train "${M[@]}" --out small --metrics small.jsonl --memory-budget 1
expect_error 3 "--memory-budget: 1 bytes cannot hold one step's working set: a level's saved state takes "
NEED=$(sed -nE 's/.*at least ([0-9]+) bytes are needed.*/\1/p' "$WORK/err")
[ -n "$NEED" ] && [ "$NEED" -gt 1000 ] || fail "no working set in: $(cat "$WORK/err")"
[ ! -e small.jsonl ] && [ -z "$(ls small)" ] || fail "a refused budget wrote something"
run "$NLTRAIN" train "${M[@]}" --out small --memory-budget $((NEED - 1))
expect_error 3 "at least $NEED bytes are needed"

# At exactly the working set every cache but the one in use goes out: same bits as no budget.
run "$NLTRAIN" train "${M[@]}" --out b --metrics b.jsonl --memory-budget "$NEED"
expect_rc 0
[ "$(no_memory b.jsonl)" = "$(cat u.jsonl)" ] || fail "budgeted metrics differ from the unbudgeted run"
same_checkpoint u b || fail "budgeted checkpoint differs from the unbudgeted run"
grep -q "\"memory\":{\"budget_bytes\":$NEED,\"spilled_bytes\":[1-9]" b.jsonl || fail "no spill reported: $(head -1 b.jsonl)"
[ "$(grep -c '"spilled_bytes":0,' b.jsonl)" -eq 0 ] || fail "a step spilled nothing under the least budget"
# Every step says where its spills went: the default tier and codec, not a learned choice.
[ "$(grep -c '"peak_resident_bytes":[0-9]*,"tier":"ssd","codec":"zstd","learned":false}' b.jsonl)" -eq 12 ] ||
  fail "the tier and codec chosen: $(head -1 b.jsonl)"
[ ! -e b/spill ] || fail "b/spill left after the run"
grep -q '"write_s"' b.jsonl && fail "seconds in the metrics without --metrics-timing"
# Raw blobs (--spill-codec none): the same bits, and as many bytes on disk as moved out.
run "$NLTRAIN" train "${M[@]}" --out n --metrics n.jsonl --memory-budget "$NEED" --spill-codec none
expect_rc 0
same_checkpoint u n || fail "--spill-codec none: checkpoint differs from the unbudgeted run"
[ "$(no_memory n.jsonl)" = "$(cat u.jsonl)" ] || fail "--spill-codec none: metrics differ from the unbudgeted run"
grep -qE '"spilled_bytes":([0-9]+),"restored_bytes":\1,"stored_bytes":\1,' n.jsonl || fail "--spill-codec none: $(head -1 n.jsonl)"
[ "$(grep -c '"tier":"ssd","codec":"none","learned":false}' n.jsonl)" -eq 12 ] || fail "--spill-codec none: $(head -1 n.jsonl)"
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$NEED" --spill-codec lz4
expect_rc 2
expect_err_one_line
expect_err_has "--spill-codec"
# A budget above the caches moves nothing (suffixes: 1K = 1024 bytes ... 1G = 2^30).
run "$NLTRAIN" train "${M[@]}" --out g --metrics g.jsonl --memory-budget 1G --metrics-timing
expect_rc 0
grep -q '"memory":{"budget_bytes":1073741824,"spilled_bytes":0,"restored_bytes":0,"stored_bytes":0,' g.jsonl ||
  fail "1G: $(head -1 g.jsonl)"
grep -q '"write_s":0.0,"read_s":0.0}}$' g.jsonl || fail "--metrics-timing: no spill seconds: $(head -1 g.jsonl)"
same_checkpoint u g || fail "1G: checkpoint differs from the unbudgeted run"
# A quarter of the caches (1G's peak), below one level's cache: the state trajectories go out and
# back in segments of time steps; the same bits, never more than the budget resident.
CACHES=$(sed -nE 's/.*"peak_resident_bytes":([0-9]+).*/\1/p' g.jsonl | sort -n | tail -1)
Q=$((CACHES / 4))
[ "$Q" -ge "$NEED" ] || fail "a quarter of the caches ($Q) is below the least budget ($NEED)"
run "$NLTRAIN" train "${M[@]}" --out q --metrics q.jsonl --memory-budget "$Q"
expect_rc 0
[ "$(no_memory q.jsonl)" = "$(cat u.jsonl)" ] || fail "a quarter: metrics differ from the unbudgeted run"
same_checkpoint u q || fail "a quarter: checkpoint differs from the unbudgeted run"
for p in $(sed -nE 's/.*"peak_resident_bytes":([0-9]+).*/\1/p' q.jsonl); do
  [ "$p" -le "$Q" ] || fail "a quarter: $p bytes resident above the budget $Q"
done

# Bad values: one line each, nothing written (0 is refused once the run directory is locked: it
# is there, empty).
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget 0
expect_error 3 "--memory-budget: must be at least 1 byte"
[ -z "$(ls x)" ] || fail "--memory-budget 0 wrote into x: $(ls x)"
rmdir x
for bad in 12X -5 1.5G "" " 7" 1KB; do
  run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$bad"
  expect_error 2 "--memory-budget: expected a number of bytes (digits, optionally followed by K, M, G or T), got \"$bad\""
done
for big in 18446744073709551616 16777216T; do
  run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$big"
  expect_error 2 "--memory-budget: \"$big\" is too large; at most 18446744073709551615 bytes"
done
[ ! -e x ] || fail "a refused value wrote x"

# A link planted at RUN/spill: refused, nothing written through it, no checkpoint made.
mkdir -p l elsewhere && ln -s "$WORK/elsewhere" l/spill
run "$NLTRAIN" train "${M[@]}" --out l --memory-budget "$NEED"
expect_error 2 "l/spill is not a directory"
[ -z "$(ls elsewhere)" ] || fail "written through the link: $(ls elsewhere)"
[ ! -e l/checkpoint ] || fail "a checkpoint was written beside the refused link"

# kill -9 while budgeted steps spill (a checkpoint every step), as crash_test.sh does; 128K is below
# one level's cache (~150K), so the trajectories are paged.
K=(--d 32 --heads 2 --seq-len 32 --levels 3 --checkpoint-every 1)
run "$NLTRAIN" train "${K[@]}" --steps 1000000 --out R --quiet --stop-at 1 --memory-budget 128K
expect_rc 0
# A second trainer on the same directory stays refused, and leaves the first one's spill alone.
"$NLTRAIN" train --resume R --quiet --memory-budget 128K >/dev/null 2>"$WORK/first.err" &
first=$!
# Up to 30 s: under a load of 10, 5 s were once not enough for the first trainer to start spilling.
for _ in $(seq 1 600); do [ -d R/spill ] && break; sleep 0.05; done
run "$NLTRAIN" train --resume R --quiet --memory-budget 128K
expect_error 2 "R: another nltrain is training into this directory (its lock is held)"
kill -0 "$first" 2>/dev/null || fail "the first trainer did not survive the second's start: $(cat "$WORK/first.err")"
kill -9 "$first" 2>/dev/null
wait "$first" 2>/dev/null
RANDOM=11
for i in $(seq 1 "$ROUNDS"); do
  "$NLTRAIN" train --resume R --quiet --memory-budget 128K >/dev/null 2>"$WORK/train.err" &
  pid=$!
  sleep "$((RANDOM % 2)).$((RANDOM % 10))$((RANDOM % 10))"  # 0 .. 1.99 s: start-up, steps, spills, saves
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  run "$NLTRAIN" eval --checkpoint R --max-chunks 1 --json
  LAST="eval after kill -9, round $i"
  expect_rc 0
done
step=$(sed -nE 's/.*"checkpoint_step":([0-9]+).*/\1/p' "$WORK/out")
[ -n "$step" ] && [ "$step" -gt 1 ] || fail "no progress across $ROUNDS kills (checkpoint after ${step:-?} steps)"
run "$NLTRAIN" train --resume R --stop-at $((step + 2)) --quiet --memory-budget 128K
expect_rc 0
[ ! -e R/spill ] || fail "R/spill left after the resumed run"
run "$NLTRAIN" train "${K[@]}" --steps 1000000 --out R0 --quiet --stop-at $((step + 2))
expect_rc 0
same_checkpoint R0 R || fail "killed and resumed budgeted run differs from an unbudgeted one"
finish
