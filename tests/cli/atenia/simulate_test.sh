#!/usr/bin/env bash
# atenia simulate: the seed's stories (13.6.2 offload under RAM pressure, 13.6.2 priority
# budget, 13.6.3 tick 0 GPU / tick 1 offload / tick 2 CPU), output files, bad scenarios.
# The expected/*.txt files were produced by atenia once and checked line by line against the
# seed's stories (see the greps below, which hold the story independently of the goldens).
ATENIA=$1
FIX=$2
HERE="$(dirname "$0")"
. "$HERE/cli_assert.sh"

for s in replan_next_tick offload_under_ram_pressure priority_budget; do
  run "$ATENIA" simulate "$FIX/$s.json"
  expect_rc 0; expect_err_empty; expect_out_file "$HERE/expected/simulate_$s.txt"
  run "$ATENIA" simulate "$FIX/$s.json" --json
  expect_rc 0; expect_out_file "$HERE/expected/simulate_$s.jsonl"
done

# 13.6.3: GPU at tick 0, offload at tick 1, CPU because of SSD residency at tick 2.
run "$ATENIA" simulate "$FIX/replan_next_tick.json" --cache-dir "$WORK/cache" --timeline-out "$WORK/timeline.txt" \
    --plans-out "$WORK/plans.jsonl" --trace-out "$WORK/trace.json"
expect_rc 0
expect_out_has "NODE_PLAN tick=0 node=0 name=matmul target=Gpu "
grep -qE "^OFFLOAD_PLAN tick=1 actions=[1-9]" "$WORK/out" || fail "no offload planned at tick 1"
expect_out_has "OFFLOAD_APPLY tick=1 ok"
grep -qE "^NODE_PLAN tick=2 node=0 name=matmul target=(Cpu|CpuFallback) reason=.*(ssd|SSD)" "$WORK/out" || fail "tick 2 is not a CPU plan citing SSD"
# The offload really wrote the bytes: the persistent cache holds t1's 4096 bytes.
[ "$(stat -c %s "$WORK/cache/blobs/tensor/tensor:t1:len4096.bin" 2>/dev/null)" = 4096 ] || fail "no 4096-byte cache blob for t1"
head -n "$(wc -l < "$WORK/timeline.txt")" "$WORK/out" | cmp -s - "$WORK/timeline.txt" || fail "--timeline-out differs from stdout"
# --plans-out holds the per-tick plans; stdout --json ends with the timing and final-tier records too.
head -n -2 "$HERE/expected/simulate_replan_next_tick.jsonl" | cmp -s "$WORK/plans.jsonl" - || fail "--plans-out differs"
/usr/bin/python3 "$HERE/trace_check.py" "$WORK/trace.json" "$WORK/timeline.txt" >/dev/null \
  || fail "trace is not valid trace-event JSON with the promised tracks"

# 13.6.2: after the high-pressure tick the tensor lives on SSD (a real blob in the cache dir).
run "$ATENIA" simulate "$FIX/offload_under_ram_pressure.json" --cache-dir "$WORK/c2"
expect_rc 0
[ "$(stat -c %s "$WORK/c2/ssd/tensor_t1.bin" 2>/dev/null)" -gt 0 ] 2>/dev/null || fail "t1 was not spilled to the SSD tier"

# 13.6.2 priority budget: the two largest tensors (tB, tC) go to SSD, tA stays in RAM.
run "$ATENIA" simulate "$FIX/priority_budget.json" --cache-dir "$WORK/c3"
expect_rc 0
[ -s "$WORK/c3/ssd/tensor_tB.bin" ] && [ -s "$WORK/c3/ssd/tensor_tC.bin" ] || fail "tB/tC not spilled"
[ ! -e "$WORK/c3/ssd/tensor_tA.bin" ] || fail "tA spilled despite the budget of 2"

# Bad input: one line on stderr, exit 2, no output file.
bad() {  # $1: scenario text, $2: expected stderr after "atenia: <file>: "
  printf '%s' "$1" > "$WORK/bad.json"
  run "$ATENIA" simulate "$WORK/bad.json" --plans-out "$WORK/never.jsonl"
  expect_rc 2; expect_err_eq "atenia: $WORK/bad.json: $2"; expect_out_empty
  [ ! -e "$WORK/never.jsonl" ] || fail "an output file was written for bad input"
}
OK_T='"tensors":[{"id":"t1","bytes":8,"tier":"ram"}]'
OK_TICKS='"ticks":[{"ram":{"pressure":0.5}}]'
bad "{\"gpu_available\":false,$OK_T,\"nodes\":[{\"name\":\"n\",\"kind\":\"small\",\"flops\":1,\"bytes\":1,\"tensors\":[\"t1\",\"t9\"]}],$OK_TICKS}" \
  '/nodes/0/tensors/1: unknown tensor id "t9"'
bad "{\"gpu_available\":false,\"tensors\":[{\"id\":\"t1\",\"bytes\":8,\"tier\":\"disk\"}],\"nodes\":[],$OK_TICKS}" \
  '/tensors/0/tier: expected "ram", "ssd", "vram" or "cpu", got "disk"'
bad "{\"gpu_available\":false,$OK_T,\"nodes\":[],\"ticks\":[]}" '/ticks: a scenario needs at least one tick'
bad "{\"gpu_available\":false,$OK_T,\"nodes\":[],$OK_TICKS,\"extra\":1}" '/extra: unknown key; expected one of gpu_available, advanced_streams, offload, tensors, nodes, ticks'
bad "{\"gpu_available\":false,$OK_T,\"nodes\":[{\"name\":\"n\",\"kind\":\"huge\",\"flops\":1,\"bytes\":1,\"tensors\":[]}],$OK_TICKS}" \
  '/nodes/0/kind: expected compute_heavy, memory_bound, small or serial, got "huge"'
bad "{\"gpu_available\":false,$OK_T,\"nodes\":[],\"ticks\":[{\"ram\":{\"pressure\":2}}]}" \
  '/ticks/0/ram/pressure: expected a number in [0, 1], got 2'
# Names and ids are single fields of the timeline: a space split them, a newline forged FINAL
# and MOVED lines (main at b687e58 accepted both).
bad "{\"gpu_available\":false,\"tensors\":[{\"id\":\"t 1\",\"bytes\":8,\"tier\":\"ram\"}],\"nodes\":[],$OK_TICKS}" \
  '/tensors/0/id: byte 1 of "t 1" is a space or a control character; names and ids may hold neither'
bad "{\"gpu_available\":false,$OK_T,\"nodes\":[{\"name\":\"n\\nFINAL t1 tier=vram\",\"kind\":\"small\",\"flops\":1,\"bytes\":1,\"tensors\":[\"t1\"]}],$OK_TICKS}" \
  '/nodes/0/name: byte 1 of "n\nFINAL t1 tier=vram" is a space or a control character; names and ids may hold neither'
# 64 MiB is the most one tensor may hold, 1 GiB all of them together.
many=$(for i in $(seq 0 16); do printf '%s{"id":"t%d","bytes":67108864,"tier":"ssd"}' "$([ "$i" -gt 0 ] && echo ,)" "$i"; done)
bad "{\"gpu_available\":false,\"tensors\":[$many],\"nodes\":[],$OK_TICKS}" \
  '/tensors/16/bytes: the tensors up to this one hold 1140850688 bytes, over the 1 GiB a scenario may hold in all'
# Ticks x (nodes + tensors) is bounded before anything runs (1,000 x 1,000 took 1.7 GB before).
tensors100=$(for i in $(seq 0 99); do printf '%s{"id":"t%d","bytes":8,"tier":"ram"}' "$([ "$i" -gt 0 ] && echo ,)" "$i"; done)
ticks1000=$(for i in $(seq 1 1000); do printf '%s{"ram":{"pressure":0.5}}' "$([ "$i" -gt 1 ] && echo ,)"; done)
bad "{\"gpu_available\":false,\"tensors\":[$tensors100],\"nodes\":[{\"name\":\"n\",\"kind\":\"small\",\"flops\":1,\"bytes\":1,\"tensors\":[\"t1\"]}],\"ticks\":[$ticks1000]}" \
  '/ticks: 1000 ticks x 101 nodes and tensors is 101000, over the 100000 a scenario may hold'
printf '{"gpu_available": tru' > "$WORK/syntax.json"
run "$ATENIA" simulate "$WORK/syntax.json"
expect_rc 2; grep -q "^atenia: $WORK/syntax.json:1: " "$WORK/err" || fail "syntax error not reported with file:line"
run "$ATENIA" simulate "$WORK/does-not-exist.json"
expect_rc 2
touch "$WORK/a-file"
run "$ATENIA" simulate "$FIX/replan_next_tick.json" --cache-dir "$WORK/a-file"
expect_rc 2; expect_err_eq "atenia: $WORK/a-file: cache root exists and is not a directory"
# The timeline is data: a compute node named like a transfer ("move:<from>-><to>:<id>") is a
# kernel, not a move. Before, the byte counts re-parsed the text timeline, and this name forged
# "MOVED ssd->vram bytes=1048576" for a tensor that never left RAM.
cat > "$WORK/forge.json" <<'JSON'
{"gpu_available": false, "tensors": [{"id": "w1", "bytes": 1048576, "tier": "ram"}],
 "nodes": [{"name": "move:ssd->vram:w1", "kind": "compute_heavy", "flops": 1000, "bytes": 64, "tensors": ["w1"]}],
 "ticks": [{"vram": {"pressure": 0.10}, "ram": {"pressure": 0.10}}]}
JSON
run "$ATENIA" simulate "$WORK/forge.json"
expect_rc 0
expect_out_has "TIME tick=0 stream=Cpu device=CPU task=move:ssd->vram:w1 flops=1000 bytes=64 rate=cpu_flops start_us=0.000 dur_us=0.010"
expect_out_has "FINAL tensor=w1 tier=ram bytes=1048576"
grep -q "^MOVED" "$WORK/out" && fail "a node's name forged a MOVED line"
finish
