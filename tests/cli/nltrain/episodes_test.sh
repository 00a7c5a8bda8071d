#!/usr/bin/env bash
# nltrain train --episodes / --spill-tier / --placement-table with atenia learn and explain: the
# loop of issue 26 item 4 closed on real runs. Two tiers of known speed on one disk: "slow" is
# the same disk behind NLTRAIN_TEST_SLOW_TIER's throttle (1 s per MiB written or read), "fast"
# is not. Ten runs alternate the tiers and append their measured episodes; atenia learn on the
# first (slow) episode alone makes explain answer "slow", on all ten "fast", as the measurements
# say; a run given both tiers and the learned table then spills to "fast" (without the table: the
# first tier named). Every run's losses and checkpoint equal the unbudgeted run's, whatever tier.
# Exit 77 (skipped) when the machine's RAM pressure crossed a band between the runs: the episodes
# would then be learned in two contexts, and the question asked would not be the one measured.
NLTRAIN=$1
ATENIA=$2
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
M=(--d 32 --heads 2 --seq-len 32 --levels 3 --steps 4 --checkpoint-every 100 --quiet)
no_memory() { sed -E 's/,"memory":\{[^}]*\}//' "$1"; }
field() { sed -nE "s/.*\"$1\":\"?([^,\"}]*).*/\1/p"; }
export NLTRAIN_TEST_SLOW_TIER=slow:1000

run "$NLTRAIN" train "${M[@]}" --out u --metrics u.jsonl
expect_rc 0
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget 1
NEED=$(sed -nE 's/.*at least ([0-9]+) bytes are needed.*/\1/p' "$WORK/err")
[ -n "$NEED" ] || fail "no working set in: $(cat "$WORK/err")"

# Refusals: one line each, nothing written.
run "$NLTRAIN" train "${M[@]}" --out x --spill-tier fast=t
expect_error 3 "--spill-tier: only with --memory-budget (nothing is spilled without it)"
run "$NLTRAIN" train "${M[@]}" --out x --episodes e.jsonl
expect_error 3 "--episodes: only with --memory-budget (nothing is spilled without it)"
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$NEED" --spill-tier Fast=t
expect_error 3 "--spill-tier: the label \"Fast\" must be 1..32 of a-z 0-9 _ - (not starting with _ or -)"
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$NEED" --spill-tier fast
expect_error 3 "--spill-tier: expected LABEL=DIR, got \"fast\""
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$NEED" --spill-tier a=t --spill-tier a=v
expect_error 3 "--spill-tier: the label \"a\" is named twice"
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$NEED" --spill-tier a=nowhere/t
expect_error 2 "nowhere/t: cannot make the tier's directory (its parent must exist)"
mkdir -p elsewhere && ln -s "$WORK/elsewhere" link
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$NEED" --spill-tier a=link
expect_error 2 "link is not a directory"
[ -z "$(ls elsewhere)" ] || fail "written through the tier's link: $(ls elsewhere)"
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$NEED" --placement-table missing.table
expect_rc 2
expect_err_one_line
expect_err_has "--placement-table: missing.table"
run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$NEED" --episodes nowhere/e.jsonl
expect_error 2 "--episodes: nowhere is not a directory"
[ ! -e e.jsonl ] && [ ! -e x/checkpoint ] || fail "a refused run wrote something"
NLTRAIN_TEST_SLOW_TIER=slow run "$NLTRAIN" train "${M[@]}" --out x --memory-budget "$NEED" --spill-tier slow=t
expect_error 3 "NLTRAIN_TEST_SLOW_TIER: expected LABEL:MILLISECONDS_PER_MIB (at most 60000), got \"slow\""

# Ten runs, slow first, alternating; the tiers' directories exist with someone else's file in
# one (kept), and are left as found.
mkdir -p tiers/fast && echo keep > tiers/fast/other
for i in 0 1 2 3 4 5 6 7 8 9; do
  if [ $((i % 2)) -eq 0 ]; then tier=slow; else tier=fast; fi
  run "$NLTRAIN" train "${M[@]}" --out "r$i" --metrics "r$i.jsonl" --memory-budget "$NEED" --spill-tier "$tier=tiers/$tier" --episodes eps.jsonl
  expect_rc 0
  [ "$(no_memory "r$i.jsonl")" = "$(cat u.jsonl)" ] || fail "run $i ($tier): metrics differ from the unbudgeted run"
  same_checkpoint u "r$i" || fail "run $i ($tier): checkpoint differs from the unbudgeted run"
  [ "$(wc -l <eps.jsonl)" -eq $((i + 1)) ] || fail "run $i: $(wc -l <eps.jsonl) episodes, expected $((i + 1))"
  [ "$(tail -1 eps.jsonl | field tier)" = "$tier" ] || fail "run $i: episode $(tail -1 eps.jsonl), expected tier $tier"
done
[ "$(ls tiers/fast)" = "other" ] && [ -z "$(ls tiers/slow)" ] || fail "the tiers kept blobs: $(ls -R tiers)"
grep -q '"decision":"spill",.*"codec":"zstd","spilled_bytes":[1-9][0-9]*,"restored_bytes":[1-9]' eps.jsonl || fail "episodes: $(head -1 eps.jsonl)"
BANDS=$(field ram_pressure <eps.jsonl | awk '{ print ($1 < 0.5 ? 0 : $1 < 0.75 ? 1 : $1 < 0.9 ? 2 : 3) }' | sort -u)
if [ "$(echo "$BANDS" | wc -l)" -ne 1 ]; then echo "SKIP: the RAM pressure crossed a band during the runs: $BANDS"; exit 77; fi
SLOW=$(grep '"tier":"slow"' eps.jsonl | field score | sort -n | tail -1)
FAST=$(grep '"tier":"fast"' eps.jsonl | field score | sort -n | head -1)
echo "measured: slow runs at most $SLOW KiB/s, fast runs at least $FAST KiB/s (RAM band $BANDS)"

# Before learning: no answer. The first episode alone (a slow run): slow, the only evidence.
run "$ATENIA" explain --spill --ram-band "$BANDS" --json
expect_rc 0
expect_out_has "{\"context\":{\"ram_band\":$BANDS},\"decision\":\"spill\",\"learned\":false,"
head -1 eps.jsonl >first.jsonl
run "$ATENIA" learn first.jsonl --table t.table
expect_rc 0
run "$ATENIA" explain --spill --ram-band "$BANDS" --table t.table --json
expect_out_has '"learned":true,"recommended_tier":"slow","recommended_codec":"zstd"'
# All ten (the first is not counted again): fast, from five runs each, as measured.
run "$ATENIA" learn eps.jsonl --table t.table --json
expect_out_has '{"episodes":10,"new":9,"already_learned":1,'
run "$ATENIA" explain --spill --ram-band "$BANDS" --table t.table --json
expect_rc 0
expect_out_has '"learned":true,"recommended_tier":"fast","recommended_codec":"zstd",'
expect_out_has '"runs":5,"evidence":[{"tier":"fast","codec":"zstd","runs":5,'
expect_out_has '},{"tier":"slow","codec":"zstd","runs":5,'
F=$(sed -nE 's/.*"tier":"fast","codec":"zstd","runs":5,"kib_per_s":([0-9]+).*/\1/p' "$WORK/out")
S=$(sed -nE 's/.*"tier":"slow","codec":"zstd","runs":5,"kib_per_s":([0-9]+).*/\1/p' "$WORK/out")
[ -n "$F" ] && [ -n "$S" ] && [ "$F" -gt "$S" ] || fail "evidence: fast $F KiB/s, slow $S KiB/s"
run "$ATENIA" explain --spill --ram-band "$BANDS" --table t.table
expect_out_has "spilled data goes to tier fast with codec zstd at $F KiB/s (5 runs): the fastest of 2 measured choices; next: tier slow with codec zstd at $S KiB/s (5 runs)."
# The CPU/GPU explanation of the same table is untouched by the spill rows.
run "$ATENIA" explain --gpu-available=true --vram-band=0 --ram-band=0 --table t.table
expect_out_has "No learned data available for the given context."

# The next run, given both tiers (slow first, the default) and the table: fast, same bits.
run "$NLTRAIN" train "${M[@]}" --out n --metrics n.jsonl --memory-budget "$NEED" --spill-tier slow=tiers/slow \
  --spill-tier fast=tiers/fast --placement-table t.table --episodes next.jsonl
expect_rc 0
[ "$(field tier <next.jsonl)" = "fast" ] || fail "--placement-table: $(cat next.jsonl)"
[ "$(no_memory n.jsonl)" = "$(cat u.jsonl)" ] && same_checkpoint u n || fail "--placement-table: the run's bits differ"
[ "$(grep -c '"tier":"fast","codec":"zstd","learned":true}' n.jsonl)" -eq 4 ] || fail "--placement-table: metrics $(head -1 n.jsonl)"
# Without the table: the first tier named. With --spill-codec none: no learned choice, the default.
for extra in "" "--placement-table t.table --spill-codec none"; do
  rm -f next.jsonl d.jsonl
  # shellcheck disable=SC2086
  run "$NLTRAIN" train "${M[@]}" --out n --force --metrics d.jsonl --memory-budget "$NEED" --spill-tier slow=tiers/slow --spill-tier fast=tiers/fast \
    --episodes next.jsonl $extra
  expect_rc 0
  [ "$(field tier <next.jsonl)" = "slow" ] || fail "[$extra]: $(cat next.jsonl)"
  [ "$(grep -c '"tier":"slow","codec":"[a-z]*","learned":false}' d.jsonl)" -eq 4 ] || fail "[$extra]: metrics $(head -1 d.jsonl)"
done
grep -q '"codec":"none"' next.jsonl || fail "--spill-codec none not kept: $(cat next.jsonl)"
# The episodes file is appended atomically, not rewritten: what was there stays, byte for byte.
cp eps.jsonl before.jsonl
run "$NLTRAIN" train "${M[@]}" --out n --force --memory-budget "$NEED" --episodes eps.jsonl
expect_rc 0
[ "$(head -10 eps.jsonl)" = "$(cat before.jsonl)" ] && [ "$(tail -1 eps.jsonl | field tier)" = "ssd" ] || fail "append: $(tail -2 eps.jsonl)"
# A run that moves nothing appends nothing.
run "$NLTRAIN" train "${M[@]}" --out g --memory-budget 1G --episodes none.jsonl
expect_rc 0
[ ! -e none.jsonl ] || fail "an episode for a run that spilled nothing: $(cat none.jsonl)"

finish
