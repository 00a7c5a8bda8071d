#!/usr/bin/env bash
# atenia learn / stats: episodes into the table, strict input, the table never half-written.
ATENIA=$1
. "$(dirname "$0")/cli_assert.sh"

cat > "$WORK/e1.jsonl" <<'JSONL'
{"gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.1,"backend":"gpu","success":true,"score":9,"had_drift":false}
{"gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.1,"backend":"cpu","success":true,"score":3,"had_drift":false}

{"gpu_available":true,"vram_pressure":0.95,"ram_pressure":0.8,"backend":"gpu","success":false,"score":-2,"had_drift":true}
JSONL
# learn creates no directory: the table's must exist.
run "$ATENIA" learn "$WORK/e1.jsonl" --table "$WORK/sub/t.table"
expect_rc 2; expect_err_eq "atenia: $WORK/sub: cannot open directory to lock it: No such file or directory"
[ ! -e "$WORK/sub" ] || fail "learn created a directory nobody named"
mkdir "$WORK/sub"
run "$ATENIA" learn "$WORK/e1.jsonl" --table "$WORK/sub/t.table"
expect_rc 0; expect_out_eq "learned 3 new episodes of 3 (0 already in the table); $WORK/sub/t.table has 3 rows"
# The same episodes again (from stdin this time) are not counted twice.
run bash -c "\"\$0\" learn - --table \"\$1\" --json < \"\$2\"" "$ATENIA" "$WORK/sub/t.table" "$WORK/e1.jsonl"
expect_rc 0; expect_out_eq "{\"episodes\":3,\"new\":0,\"already_learned\":3,\"rows\":3,\"table\":\"$WORK/sub/t.table\"}"
run "$ATENIA" stats --table "$WORK/sub/t.table"
expect_rc 0
expect_out_eq "gpu_available=true vram_band=0 ram_band=0 backend=cpu episodes=1 successes=1 drift=0 avg_score=3.0 recommended=GPU
gpu_available=true vram_band=0 ram_band=0 backend=gpu episodes=1 successes=1 drift=0 avg_score=9.0 recommended=GPU
gpu_available=true vram_band=3 ram_band=2 backend=gpu episodes=1 successes=0 drift=1 avg_score=-2.0 recommended=CPU
entries=3 episodes=3 gpu_preference_ratio=0.6666667"
run "$ATENIA" stats --table "$WORK/sub/t.table" --json
expect_rc 0; expect_out_has '"summary":{"total_entries":3,"total_episodes":3,"gpu_preference_ratio":0.6666667}'

cp "$WORK/sub/t.table" "$WORK/before.table"
check_bad() {  # $1: the bad record, $2: the expected error line after "atenia: <file>:2: "
  printf '%s\n%s\n' '{"gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.1,"backend":"gpu","success":true,"score":1,"had_drift":false}' "$1" > "$WORK/bad.jsonl"
  run "$ATENIA" learn "$WORK/bad.jsonl" --table "$WORK/sub/t.table"
  expect_rc 2; expect_err_eq "atenia: $WORK/bad.jsonl:2: $2"; expect_out_empty
  cmp -s "$WORK/before.table" "$WORK/sub/t.table" || fail "the table changed after a rejected run"
}
check_bad '{"gpu_available":true,"vram_pressure":1.5,"ram_pressure":0.1,"backend":"gpu","success":true,"score":1,"had_drift":false}' \
  '/vram_pressure: expected a number in [0, 1], got 1.5'
check_bad '{"gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.1,"backend":"tpu","success":true,"score":1,"had_drift":false}' \
  '/backend: expected "cpu" or "gpu", got "tpu"'
check_bad '{"gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.1,"backend":"gpu","success":true,"score":1}' \
  "/: missing required key 'had_drift'"
check_bad '{"gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.1,"backend":"gpu","success":true,"score":1,"had_drift":false,"x":1}' \
  '/x: unknown key; expected one of id, gpu_available, vram_pressure, ram_pressure, backend, success, score, had_drift'
# (the syntax error's wording is the JSON reader's; only the exit code and file:line matter)
printf '%s\n' '{"gpu_available":true,' > "$WORK/syntax.jsonl"
run "$ATENIA" learn "$WORK/syntax.jsonl" --table "$WORK/sub/t.table"
expect_rc 2; grep -q "^atenia: $WORK/syntax.jsonl:1: " "$WORK/err" || fail "syntax error line"

# A table whose checksum trailer does not match is refused, not silently reset.
sed 's/count=1;success=1;score_sum=3/count=1;success=1;score_sum=4/' "$WORK/before.table" > "$WORK/tampered.table"
run "$ATENIA" stats --table "$WORK/tampered.table"
expect_rc 2; grep -q "checksum mismatch" "$WORK/err" || fail "tampered table accepted"
run "$ATENIA" learn "$WORK/e1.jsonl" --table "$WORK/tampered.table"
expect_rc 2
run "$ATENIA" stats --table "$WORK"
expect_rc 2
run "$ATENIA" stats
expect_rc 2
# Learners naming one table by different paths (a symbolic link in another directory, and the
# file itself) serialise on the table's own directory: none loses another's episodes, and the
# link stays a link.
mkdir -p "$WORK/real" "$WORK/links"
ln -s "$WORK/real/shared.table" "$WORK/links/shared.table"
for i in 1 2 3 4 5 6 7 8; do
  for j in $(seq 1 40); do
    printf '{"id":"e%s-%s","gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.1,"backend":"gpu","success":true,"score":1,"had_drift":false}\n' "$i" "$j"
  done > "$WORK/c$i.jsonl"
done
pids=()
for i in 1 2 3 4 5 6 7 8; do
  if [ $((i % 2)) -eq 0 ]; then table="$WORK/links/shared.table"; else table="$WORK/real/shared.table"; fi
  "$ATENIA" learn "$WORK/c$i.jsonl" --table "$table" >/dev/null 2>"$WORK/c$i.err" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "a concurrent learner failed: $(cat "$WORK"/c*.err)"; done
[ -L "$WORK/links/shared.table" ] || fail "the table's symbolic link was replaced by a file"
run "$ATENIA" stats --table "$WORK/links/shared.table" --json
expect_rc 0; expect_out_has '"total_episodes":320'
# A row with a field the table format does not have is refused by every command that reads the
# table (one line naming the file, the line and the field), and learn leaves the table as it was.
/usr/bin/python3 - "$WORK/unknown.table" <<'PY'
import sys
from crc32c import crc32c
body = b"ATENIA_SELFTRAINER_V2\ngpu_avail=1;vram_band=0;ram_band=0;backend=gpu;count=1;success=1;score_sum=9;drift=0;future=1\n"
open(sys.argv[1], "wb").write(body + b"table_end;len=%d;crc32c=%d\n" % (len(body), crc32c(body)))
PY
cp "$WORK/unknown.table" "$WORK/unknown.before"
UNKNOWN="atenia: $WORK/unknown.table:2: unknown field 'future'; expected gpu_avail, vram_band, ram_band, backend, count, success, score_sum, drift"
run "$ATENIA" stats --table "$WORK/unknown.table"
expect_rc 2; expect_err_eq "$UNKNOWN"; expect_out_empty
run "$ATENIA" learn "$WORK/e1.jsonl" --table "$WORK/unknown.table"
expect_rc 2; expect_err_eq "$UNKNOWN"; expect_out_empty
cmp -s "$WORK/unknown.before" "$WORK/unknown.table" || fail "learn changed a table it refused"
run "$ATENIA" explain --gpu-available=true --vram-band=0 --ram-band=0 --table "$WORK/unknown.table"
expect_rc 2; expect_err_eq "$UNKNOWN"; expect_out_empty
run "$ATENIA" explain --spill --ram-band=0 --table "$WORK/unknown.table"
expect_rc 2; expect_err_eq "$UNKNOWN"; expect_out_empty
# Spill rows count the bytes moved up to 2^64-1: an episode that would pass it is refused (exit 3,
# nothing written), never saturated; an episode whose own bytes add up past it is malformed (exit 2).
/usr/bin/python3 - "$WORK/full_spill.table" <<'PY'
import sys
from crc32c import crc32c
body = b"ATENIA_SELFTRAINER_V3\nspill;ram_band=0;tier=fast;codec=zstd;count=1;score_sum=1024;moved_bytes=18446744073709551605\n"
open(sys.argv[1], "wb").write(body + b"table_end;len=%d;crc32c=%d\n" % (len(body), crc32c(body)))
PY
cp "$WORK/full_spill.table" "$WORK/full_spill.before"
printf '%s\n' '{"decision":"spill","ram_pressure":0.1,"tier":"fast","codec":"zstd","spilled_bytes":1048576,"restored_bytes":1048576,"stored_bytes":900000,"write_s":1,"read_s":1,"score":1024}' > "$WORK/spill1.jsonl"
run "$ATENIA" learn "$WORK/spill1.jsonl" --table "$WORK/full_spill.table"
expect_rc 3
expect_err_eq "atenia: $WORK/full_spill.table: the spill row (ram_band 0, tier fast, codec zstd) already counts 18446744073709551605 bytes moved; 2097152 more would pass 18446744073709551615, the most a row can count; nothing was written"
expect_out_empty
cmp -s "$WORK/full_spill.before" "$WORK/full_spill.table" || fail "learn changed a table after refusing an episode"
printf '%s\n' '{"decision":"spill","ram_pressure":0.1,"tier":"fast","codec":"zstd","spilled_bytes":18446744073709551615,"restored_bytes":1,"stored_bytes":1,"write_s":1,"read_s":1,"score":0}' > "$WORK/spill2.jsonl"
run "$ATENIA" learn "$WORK/spill2.jsonl" --table "$WORK/full_spill.table"
expect_rc 2
expect_err_eq "atenia: $WORK/spill2.jsonl:1: /restored_bytes: spilled_bytes + restored_bytes is over 18446744073709551615 (2^64-1)"
cmp -s "$WORK/full_spill.before" "$WORK/full_spill.table" || fail "learn changed a table after a malformed episode"
finish
