#!/usr/bin/env bash
# atenia profile / place: the live snapshot round-trips into place --snapshot; place's rules
# on hand-written snapshots; bad snapshots and arguments.
ATENIA=$1
. "$(dirname "$0")/cli_assert.sh"

run "$ATENIA" profile --cache-dir "$WORK/cache" --json
expect_rc 0
cp "$WORK/out" "$WORK/live.json"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["cpu"]["logical_cores"]>=1 and d["ram"]["total_bytes"]>0' "$WORK/live.json" \
  || fail "profile JSON lacks CPU/RAM facts"
run "$ATENIA" place --bytes 1024 --snapshot "$WORK/live.json" --json
expect_rc 0; expect_out_has '"bytes":1024,"target":'

cat > "$WORK/nogpu.json" <<'JSON'
{"cpu":{"physical_cores":4,"logical_cores":8,"simd":[]},"gpus":[],"ram":{"total_bytes":1000,"free_bytes":900},
 "pressure":{"ram_pressure":0.1,"vram_pressure":null}}
JSON
run "$ATENIA" place --bytes 4096 --snapshot "$WORK/nogpu.json"
expect_rc 0; expect_out_eq "target=ssd device=none reason=SSD: no GPU in the snapshot; 4.00 KiB does not fit in RAM (RAM has 900 B free of 1000 B); SSD free space unknown"

cat > "$WORK/gpu.json" <<'JSON'
{"gpus":[{"id":"gpu0","backend":"cuda","vram_total_bytes":8000000000,"vram_free_bytes":7000000000,"compute_score_est":500}],
 "ram":{"total_bytes":16000000000,"free_bytes":12000000000},"pressure":{"ram_pressure":0.2,"vram_pressure":0.1}}
JSON
run "$ATENIA" place --bytes 4096 --compute-cost 500 --snapshot "$WORK/gpu.json" --json
expect_rc 0; expect_out_has '"device_id":"gpu0"'

# "Huge" is relative to the GPU's free VRAM: 1 GiB is nothing to a GPU with 70 GiB free (main
# kept every tensor over 512 MiB off the GPU); more than half of the free VRAM is huge.
cat > "$WORK/big-gpu.json" <<'JSON'
{"gpus":[{"id":"gpu0","backend":"cuda","vram_total_bytes":150323855360,"vram_free_bytes":75161927680,"compute_score_est":500}],
 "ram":{"total_bytes":137438953472,"free_bytes":120000000000},"pressure":{"ram_pressure":0.2,"vram_pressure":0.5}}
JSON
run "$ATENIA" place --bytes 1073741824 --compute-cost 500 --snapshot "$WORK/big-gpu.json"
expect_rc 0; expect_out_eq "target=vram device=gpu0 reason=1.00 GiB fits in gpu0's VRAM (has 70.00 GiB free of 140.00 GiB; VRAM pressure after placing 0.51 < 0.80; reliability 1.00; compute-heavy)"
run "$ATENIA" place --bytes 40000000000 --compute-cost 500 --snapshot "$WORK/big-gpu.json"
expect_rc 0; expect_out_eq "target=ram device=none reason=RAM: the tensor is huge for gpu0 (37.25 GiB > half of its 70.00 GiB free VRAM); 37.25 GiB fits in RAM (RAM has 111.76 GiB free of 128.00 GiB; RAM pressure after placing 0.42 < 0.85)"

printf '{"gpus":[{"id":"gpu0","backend":"tpu","vram_total_bytes":1,"vram_free_bytes":1}]}' > "$WORK/bad.json"
run "$ATENIA" place --bytes 1 --snapshot "$WORK/bad.json"
expect_rc 2; expect_err_eq "atenia: $WORK/bad.json: /gpus/0/backend: unknown backend \"tpu\"; expected cpu, cuda, rocm, metal, oneapi, vulkan or unknown"
printf '{"ram":{"total_bytes":-1}}' > "$WORK/bad2.json"
run "$ATENIA" place --bytes 1 --snapshot "$WORK/bad2.json"
expect_rc 2; expect_err_eq "atenia: $WORK/bad2.json: /ram/total_bytes: expected a non-negative integer, got -1"
# More free than total is a broken snapshot, not room (main at b687e58 placed into it).
printf '{"ram":{"total_bytes":1000,"free_bytes":5000}}' > "$WORK/bad3.json"
run "$ATENIA" place --bytes 1 --snapshot "$WORK/bad3.json"
expect_rc 2; expect_err_eq "atenia: $WORK/bad3.json: /ram/free_bytes: 5000 is more than total_bytes (1000)"
printf '{"gpus":[{"id":"gpu0","backend":"cuda","vram_total_bytes":10,"vram_free_bytes":11}]}' > "$WORK/bad4.json"
run "$ATENIA" place --bytes 1 --snapshot "$WORK/bad4.json"
expect_rc 2; expect_err_eq "atenia: $WORK/bad4.json: /gpus/0/vram_free_bytes: 11 is more than vram_total_bytes (10)"
run "$ATENIA" place --bytes 1 --compute-cost -5 --snapshot "$WORK/nogpu.json"
expect_rc 3; expect_err_eq "atenia: --compute-cost must be a finite number >= 0"
run "$ATENIA" place --bytes lots
expect_rc 2
run "$ATENIA" place
expect_rc 2
run "$ATENIA" nonsense
expect_rc 2
# An empty path is refused, never read as "not given" (profile --cache-dir '' used ~/.cache/atenia).
for args in "profile --cache-dir" "stats --table" "learn /dev/null --table" "simulate --timeline-out" \
            "simulate --plans-out" "simulate --trace-out" "simulate --cache-dir" "checkpoint restore ck --out"; do
  # shellcheck disable=SC2086
  run "$ATENIA" $args ''
  expect_rc 2
  expect_err_has "${args##* }: must not be empty"
done
finish
