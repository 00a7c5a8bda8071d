#!/usr/bin/env bash
# Issue 11, "What is wrong today": each answer a new user got wrong, checked against the
# numbers it should have been made from. Every block failed on main before the fix.
ATENIA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/cli_assert.sh"

# --- place: sizes against free VRAM / RAM / SSD, domain errors --------------------------
# A sign or a value past 2^64 - 1 is malformed input, exit 2 (issue 23: one rule for every
# integer option of the three tools; issue 11 had made it 3).
run "$ATENIA" place --bytes -5
expect_rc 2; expect_err_eq 'atenia: --bytes: expected a non-negative integer (digits only), got "-5"'; expect_out_empty
run "$ATENIA" place --bytes 99999999999999999999999
expect_rc 2; expect_err_eq 'atenia: --bytes: "99999999999999999999999" is too large; at most 18446744073709551615'
run "$ATENIA" place --bytes 1 --compute-cost 1e999
expect_rc 3

cat > "$WORK/gpu.json" <<'JSON'
{"gpus":[{"id":"gpu0","backend":"cuda","vram_total_bytes":8000000000,"vram_free_bytes":7000000000}],
 "ram":{"total_bytes":32000000000,"free_bytes":25000000000},
 "ssd":{"fs_total_bytes":1000000000000,"fs_free_bytes":500000000000},
 "pressure":{"ram_pressure":0.22,"vram_pressure":0.13}}
JSON
# 100 GB against 25 GB of free RAM: not RAM (main said "RAM pressure is acceptable").
run "$ATENIA" place --bytes 100000000000 --snapshot "$WORK/gpu.json" --json
expect_rc 0; expect_out_has '"target":"ssd"'; expect_out_has 'does not fit in RAM'
expect_out_has '"ram":{"free_bytes":25000000000,"total_bytes":32000000000,'
# 20 GB fits in RAM but leaves it at 0.84 < 0.85: RAM; 25 GB would not fit under the threshold.
run "$ATENIA" place --bytes 20000000000 --snapshot "$WORK/gpu.json"
expect_rc 0; expect_out_has 'target=ram'; expect_out_has 'RAM pressure after placing 0.84 < 0.85'
run "$ATENIA" place --bytes 24000000000 --snapshot "$WORK/gpu.json"
expect_rc 0; expect_out_has 'target=ssd'; expect_out_has 'RAM pressure after placing 0.97 >= 0.85'
# 4 KiB: VRAM, with the numbers.
run "$ATENIA" place --bytes 4096 --snapshot "$WORK/gpu.json"
expect_rc 0; expect_out_eq "target=vram device=gpu0 reason=4.00 KiB fits in gpu0's VRAM (has 6.52 GiB free of 7.45 GiB; VRAM pressure after placing 0.13 < 0.80; reliability 1.00)"
# Nothing has room: exit 1 and target none.
run "$ATENIA" place --bytes 9000000000000 --snapshot "$WORK/gpu.json" --json
expect_rc 1; expect_out_has '"target":"none"'

# Without a GPU there is still RAM / SSD advice (main: target=cpu "No GPU detected" for all).
cat > "$WORK/nogpu.json" <<'JSON'
{"gpus":[],"ram":{"total_bytes":16000000000,"free_bytes":8000000000},
 "ssd":{"fs_total_bytes":100000000000,"fs_free_bytes":50000000000},"pressure":{"ram_pressure":0.5}}
JSON
run "$ATENIA" place --bytes 1000000 --snapshot "$WORK/nogpu.json"
expect_rc 0; expect_out_has 'target=ram device=none reason=RAM: no GPU in the snapshot;'
run "$ATENIA" place --bytes 6000000000 --snapshot "$WORK/nogpu.json"
expect_rc 0; expect_out_has 'target=ssd'

# --compute-cost enters the decision: an unreliable GPU gets a compute-heavy tensor only.
cat > "$WORK/flaky.json" <<'JSON'
{"gpus":[{"id":"gpu0","backend":"cuda","vram_total_bytes":8000000000,"vram_free_bytes":7000000000}],
 "ram":{"total_bytes":32000000000,"free_bytes":25000000000},
 "reliability_by_device":{"gpu0":{"ok_count":1,"fail_count":1}}}
JSON
run "$ATENIA" place --bytes 4096 --snapshot "$WORK/flaky.json"
expect_rc 0; expect_out_has 'target=ram'; expect_out_has 'gpu0 is unreliable (reliability 0.50 < 0.75)'
run "$ATENIA" place --bytes 4096 --compute-cost 500 --snapshot "$WORK/flaky.json"
expect_rc 0; expect_out_has 'target=vram device=gpu0'
# ...and a compute-heavy tensor stays in RAM above the safe threshold instead of going to SSD.
run "$ATENIA" place --bytes 22000000000 --snapshot "$WORK/gpu.json"
expect_rc 0; expect_out_has 'target=ssd'
run "$ATENIA" place --bytes 22000000000 --compute-cost 500 --snapshot "$WORK/gpu.json"
expect_rc 0; expect_out_has 'target=ram'; expect_out_has 'compute-heavy and RAM is not critical (RAM pressure after placing 0.91 < 0.95)'
# The snapshot from stdin.
run bash -c '"$0" place --bytes 4096 --snapshot - < "$1"' "$ATENIA" "$WORK/gpu.json"
expect_rc 0; expect_out_has 'target=vram'

# --- simulate: causal order -------------------------------------------------------------
# Two nodes on one tensor, no advanced streams: A runs before B (main ran the CPU queue
# first, so a GPU-queued A ran after B).
cat > "$WORK/order.json" <<'JSON'
{"gpu_available":true,"advanced_streams":false,
 "tensors":[{"id":"w","bytes":16,"tier":"ram"}],
 "nodes":[{"name":"A","kind":"compute_heavy","flops":1000000,"bytes":16,"tensors":["w"]},
          {"name":"B","kind":"serial","flops":10,"bytes":16,"tensors":["w"]}],
 "ticks":[{"vram":{"pressure":0.1},"ram":{"pressure":0.1}}]}
JSON
run bash -c '"$0" simulate - < "$1"' "$ATENIA" "$WORK/order.json"
expect_rc 0
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "simulate ran a task before one it depends on"
import re, sys
runs = [l for l in open(sys.argv[1]) if l.startswith("RUN ")]
names = [re.search(r"name=(\S+)", l).group(1) for l in runs]
ids = [int(re.search(r"id=(\d+)", l).group(1)) for l in runs]
assert names.index("A") < names.index("B"), names
assert ids == sorted(ids), ids  # one stream: submission order
PY
# Every golden scenario: a move of a tensor runs before the kernel that reads it, and the
# ticks keep submission order per tensor.
for f in replan_next_tick offload_under_ram_pressure priority_budget; do
  run "$ATENIA" simulate "$(dirname "$0")/../../../fixtures/atenia/$f.json"
  expect_rc 0
  /usr/bin/python3 - "$WORK/out" <<'PY' || fail "$f: a transfer ran after the kernel that needs it"
import re, sys
enq, ran = {}, []
for l in open(sys.argv[1]):
    m = re.match(r"(ENQUEUE|RUN) stream=\S+ id=(\d+) kind=(\S+) name=(\S+)", l)
    if not m: continue
    if m.group(1) == "ENQUEUE": enq[int(m.group(2))] = m.group(4)
    else: ran.append(int(m.group(2)))
# per tick, ids are submitted transfer(s) then kernel: running order must respect that
# for every transfer/prefetch named after a tensor.
pos = {i: k for k, i in enumerate(ran)}
for i, name in enq.items():
    if name.startswith(("move:", "prefetch:")):
        later = [j for j in enq if j > i and not enq[j].startswith(("move:", "prefetch:"))]
        if later: assert pos[i] < pos[min(later)], (name, i)
PY
done
# The timeline names the tensors the offload moved and the nodes; the run ends with every
# tensor's final tier and the bytes moved per direction (text and --json).
run "$ATENIA" simulate "$(dirname "$0")/../../../fixtures/atenia/priority_budget.json"
expect_rc 0
expect_out_has "OFFLOAD_MOVE tick=0 tensor=tB from=ram to=ssd"
expect_out_has "NODE_PLAN tick=0 node=0 name=concat target=CpuFallback"
expect_out_has "FINAL tensor=tA tier=ram bytes=10"
expect_out_has "FINAL tensor=tB tier=ssd bytes=100"
expect_out_has "MOVED ram->ssd bytes=150"
run "$ATENIA" simulate "$(dirname "$0")/../../../fixtures/atenia/priority_budget.json" --json
expect_rc 0
expect_out_has '{"final_tiers":[{"id":"tA","tier":"ram","bytes":10},{"id":"tB","tier":"ssd","bytes":100},{"id":"tC","tier":"ssd","bytes":50}],"bytes_moved":[{"from":"ram","to":"ssd","bytes":150}]}'
# Outputs on stdout would collide with the timeline: refused.
run "$ATENIA" simulate "$WORK/order.json" --trace-out -
expect_rc 2; expect_err_eq "atenia: --trace-out -: stdout already carries the timeline and plans; name a file"
# ram_low above ram_high is refused (hysteresis would never stop).
sed 's/"advanced_streams":false,/"advanced_streams":false,"offload":{"ram_low":0.9,"ram_high":0.8},/' "$WORK/order.json" > "$WORK/hyst.json"
run "$ATENIA" simulate "$WORK/hyst.json"
expect_rc 3; expect_err_eq "atenia: $WORK/hyst.json: /offload/ram_low: ram_low (0.9) must not exceed ram_high (0.8)"

# --- explain: one account, confidence from the number of observations ----------------------
{
  echo '{"gpu_available":true,"vram_pressure":0.95,"ram_pressure":0.6,"backend":"gpu","success":false,"score":1,"had_drift":true}'
  for i in 1 2 3; do echo '{"gpu_available":true,"vram_pressure":0.95,"ram_pressure":0.6,"backend":"cpu","success":true,"score":5,"had_drift":false}'; done
} > "$WORK/band31.jsonl"
mkdir -p "$WORK/t"
run "$ATENIA" learn "$WORK/band31.jsonl" --table "$WORK/t/e.table"
expect_rc 0
run "$ATENIA" explain --gpu-available=true --vram-band=3 --ram-band=1 --table "$WORK/t/e.table"
expect_rc 0
# The drift decides through its penalty (5 for drift in 1 of 1), quoted with the GPU's episodes.
expect_out_has "CPU was selected because the GPU's learned value (average score less drift penalty) in this context is not higher than the CPU's: GPU -4 (average score 1 over 1 episode, less 5 for drift in 1), CPU 5 (average score 5 over 3 episodes)."
expect_out_has "No significant drift or instability has been observed in CPU execution in this context."
# 3 of 3 is not 100%: the Wilson lower bound, 3/(3+1.96^2) = 44%.
expect_out_has "with a confidence of 44%."

# --- learn: idempotent per episode, concurrent runs lose nothing, no mkdir ----------------
run "$ATENIA" learn "$WORK/band31.jsonl" --table "$WORK/t/e.table"
expect_rc 0; expect_out_eq "learned 0 new episodes of 4 (4 already in the table); $WORK/t/e.table has 2 rows"
for w in a b; do
  for i in $(seq 1 400); do
    echo "{\"id\":\"$w$i\",\"gpu_available\":true,\"vram_pressure\":0.1,\"ram_pressure\":0.1,\"backend\":\"gpu\",\"success\":true,\"score\":1,\"had_drift\":false}"
  done > "$WORK/c_$w.jsonl"
done
for trial in 1 2 3; do
  rm -f "$WORK/t/c.table"
  "$ATENIA" learn "$WORK/c_a.jsonl" --table "$WORK/t/c.table" > /dev/null 2>"$WORK/err_a" & pa=$!
  "$ATENIA" learn "$WORK/c_b.jsonl" --table "$WORK/t/c.table" > /dev/null 2>"$WORK/err_b" & pb=$!
  wait $pa; ra=$?; wait $pb; rb=$?
  [ $ra -eq 0 ] && [ $rb -eq 0 ] || fail "concurrent learn failed ($ra, $rb)"
  run "$ATENIA" stats --table "$WORK/t/c.table"
  expect_out_has "backend=gpu episodes=800 successes=800"
done
run "$ATENIA" learn "$WORK/band31.jsonl" --table "$WORK/missing/x.table"
expect_rc 2; [ ! -e "$WORK/missing" ] || fail "learn created $WORK/missing"
# A table cut at a row boundary (trailer gone) is refused by stats and learn, and learn
# does not write a fresh trailer over the loss.
head -n 2 "$WORK/t/e.table" > "$WORK/t/cut.table"
cp "$WORK/t/cut.table" "$WORK/t/cut.before"
run "$ATENIA" stats --table "$WORK/t/cut.table"
expect_rc 2; expect_err_eq "atenia: $WORK/t/cut.table:3: no table_end trailer: the table is cut short or was not written by atenia"
run "$ATENIA" learn "$WORK/band31.jsonl" --table "$WORK/t/cut.table"
expect_rc 2; cmp -s "$WORK/t/cut.table" "$WORK/t/cut.before" || fail "learn rewrote a cut table"
# A row at the 2^32-1 limit takes no more episodes (main kept adding to score_sum).
/usr/bin/python3 - "$WORK/t/full.table" <<'PY'
import sys
def fnv(b):
    h = 2166136261
    for x in b: h = ((h ^ x) * 16777619) & 0xffffffff
    return h
body = b"ATENIA_SELFTRAINER_V1\ngpu_avail=1;vram_band=0;ram_band=0;backend=gpu;count=4294967295;success=0;score_sum=0;drift=0\n"
open(sys.argv[1], "wb").write(body + b"table_end;len=%d;checksum32=%d\n" % (len(body), fnv(body)))
PY
run "$ATENIA" stats --table "$WORK/t/full.table"
if [ $RC -eq 0 ]; then
  cp "$WORK/t/full.table" "$WORK/t/full.before"
  head -n 1 "$WORK/c_a.jsonl" > "$WORK/one.jsonl"
  run "$ATENIA" learn "$WORK/one.jsonl" --table "$WORK/t/full.table"
  expect_rc 3; cmp -s "$WORK/t/full.table" "$WORK/t/full.before" || fail "a full row was changed"
else
  fail "hand-made full table not readable (checksum helper out of step?)"
fi

# --- checkpoint save: two at once into one root lose nothing ----------------------------------
for w in a b; do
  printf '{"tensors":[{"id":"%s1","bytes":4096,"tier":"ram"},{"id":"shared","bytes":64,"tier":"ssd"}]}' "$w" > "$WORK/ck_$w.json"
done
for trial in 1 2 3; do
  rm -rf "$WORK/ck"
  "$ATENIA" checkpoint save "$WORK/ck" --tensors "$WORK/ck_a.json" > /dev/null 2>"$WORK/err_a" & pa=$!
  "$ATENIA" checkpoint save "$WORK/ck" --tensors "$WORK/ck_b.json" > /dev/null 2>"$WORK/err_b" & pb=$!
  wait $pa; ra=$?; wait $pb; rb=$?
  [ $ra -eq 0 ] && [ $rb -eq 0 ] || fail "concurrent checkpoint save failed ($ra, $rb): $(cat "$WORK/err_a" "$WORK/err_b")"
  run "$ATENIA" checkpoint inspect "$WORK/ck"
  expect_rc 0; expect_out_has "bad_blobs=0"
  ls "$WORK/ck/blobs/tensor" | grep -q '\.next$' && fail "a .next file was left behind"
done

# A save that fails leaves nothing behind and the previous checkpoint as it was: an id with a
# newline is refused before anything is written; a manifest that cannot be written (here a
# directory in its place) makes the save remove the blobs it had written.
printf '{"tensors":[{"id":"a","bytes":64,"tier":"ssd"}]}' > "$WORK/ok.json"
printf '{"tensors":[{"id":"a\\nb","bytes":64,"tier":"ram"},{"id":"c","bytes":64,"tier":"ssd"}]}' > "$WORK/nl.json"
run "$ATENIA" checkpoint save "$WORK/ck2" --tensors "$WORK/ok.json"
expect_rc 0
(cd "$WORK/ck2" && find . -type f | sort && cat checkpoint/checkpoint.meta) > "$WORK/ck2.before"
run "$ATENIA" checkpoint save "$WORK/ck2" --tensors "$WORK/nl.json"
expect_rc 2; expect_err_eq "atenia: $WORK/nl.json: /tensors/0/id: \"a\\nb\" holds a control character (a newline?)"
(cd "$WORK/ck2" && find . -type f | sort && cat checkpoint/checkpoint.meta) | cmp -s - "$WORK/ck2.before" || fail "a refused save changed the root"
mkdir -p "$WORK/ck3/checkpoint/checkpoint.meta"
run "$ATENIA" checkpoint save "$WORK/ck3" --tensors "$WORK/ok.json"
expect_rc 2
[ -z "$(find "$WORK/ck3" -type f)" ] || fail "a failed save left files: $(find "$WORK/ck3" -type f)"

# A crafted entry claiming 10 GiB (a sparse file) is refused from its .meta, not read; a
# .bin + .meta pair swapped with another tensor's of the same length is refused too.
printf '{"tensors":[{"id":"p","bytes":64,"tier":"ram"},{"id":"q","bytes":64,"tier":"ram"}]}' > "$WORK/pq.json"
run "$ATENIA" checkpoint save "$WORK/ck4" --tensors "$WORK/pq.json"
expect_rc 0
T="$WORK/ck4/blobs/tensor"
for x in bin meta; do
  mv "$T/tensor:p:len64.$x" "$T/tmp.$x"; mv "$T/tensor:q:len64.$x" "$T/tensor:p:len64.$x"; mv "$T/tmp.$x" "$T/tensor:q:len64.$x"
done
run "$ATENIA" checkpoint restore "$WORK/ck4"
expect_rc 2; grep -q "belongs to key 'tensor:q:len64'" "$WORK/err" || fail "swapped blobs restored"
run "$ATENIA" checkpoint inspect "$WORK/ck4"
expect_rc 1; expect_out_has "bad_blobs=2"
printf 'kind=tensor\nlen=10737418240\nchecksum32=1\ncreated_unix=0\nkey=tensor:p:len64\n' > "$T/tensor:p:len64.meta"
truncate -s 10G "$T/tensor:p:len64.bin"
run "$ATENIA" checkpoint restore "$WORK/ck4"
expect_rc 2; grep -q "claims 10737418240 bytes; the limit is 1073741824" "$WORK/err" || fail "a 10 GiB claim was not refused"
run "$ATENIA" checkpoint inspect "$WORK/ck4"
expect_rc 1
rm -f "$T/tensor:p:len64.bin"

# An average of 2147483647 prints as 2147483647.0 (main: 2147483648.0, from a float).
/usr/bin/python3 - "$WORK/t/avg.table" <<'PY'
import sys
def fnv(b):
    h = 2166136261
    for x in b: h = ((h ^ x) * 16777619) & 0xffffffff
    return h
body = b"ATENIA_SELFTRAINER_V1\ngpu_avail=1;vram_band=0;ram_band=0;backend=gpu;count=1;success=1;score_sum=2147483647;drift=0\n"
open(sys.argv[1], "wb").write(body + b"table_end;len=%d;checksum32=%d\n" % (len(body), fnv(body)))
PY
run "$ATENIA" stats --table "$WORK/t/avg.table"
expect_rc 0; expect_out_has "avg_score=2147483647.0 "

# --- conventions ---------------------------------------------------------------------------
run "$ATENIA" simualte x
expect_rc 2; expect_err_eq 'atenia: unknown command "simualte"; did you mean "simulate"? Commands: profile, place, simulate, learn, stats, checkpoint, explain (atenia --help)'
run "$ATENIA" explain --help
expect_rc 0; expect_out_has "--table"; expect_out_has "--json"
printf '{"gpus":[{"id":"gpu0","backend":"nvidia","vram_total_bytes":1,"vram_free_bytes":1}]}' > "$WORK/nv.json"
run "$ATENIA" place --bytes 1 --snapshot "$WORK/nv.json"
expect_rc 2; expect_err_eq "atenia: $WORK/nv.json: /gpus/0/backend: unknown backend \"nvidia\"; expected cpu, cuda, rocm, metal, oneapi, vulkan or unknown"
# profile's cache: $XDG_CACHE_HOME/atenia, named in the output; nothing made in the cwd.
mkdir -p "$WORK/cwd"
run bash -c 'cd "$1" && XDG_CACHE_HOME="$2" "$0" profile' "$ATENIA" "$WORK/cwd" "$WORK/xdg"
expect_rc 0; expect_out_has "ssd: cache $WORK/xdg/atenia"
[ -z "$(ls -A "$WORK/cwd")" ] || fail "profile created something in the current directory"
run bash -c 'cd "$1" && XDG_CACHE_HOME= HOME="$2" "$0" place --bytes 1' "$ATENIA" "$WORK/cwd" "$WORK/home"
expect_rc 0; [ -d "$WORK/home/.cache/atenia" ] || fail "place did not use ~/.cache/atenia"
[ -z "$(ls -A "$WORK/cwd")" ] || fail "place created something in the current directory"
finish
