#!/usr/bin/env bash
# Issue 27's checks on a lent GPU machine (the `device` tool), in one call. Build and stage here:
#
#   cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DSUITE_CUDA=ON -DSUITE_PYTHON_VENV=$(bash .ci/python-env)
#   ninja -C build-cuda gpu_tests nltrain bp gpu_pairs_bench
#   ../shared/tools/device-stage build-cuda .device-run build-cuda/tests/gpu_tests \
#       build-cuda/apps/nltrain/nltrain build-cuda/apps/bp/bp build-cuda/tests/bench/gpu_pairs_bench
#   (fla-core's wheel in .whl: see /work/.library/device/README.md)
#
#   mkdir -p .device-pack && tar -cJf .device-pack/run.tar.xz .device-run   (77 MB -> 15 MB; ignore .device-pack)
#
# then run `bash tests/gpu/device_checks.sh [PARTS]` there with carry [".device-pack", ".whl"].
# PARTS (default all): tests memcheck cli resume curves speed trace torch fla. Everything goes to $OUT/log.txt;
# metrics files to $OUT/runs.tgz. Each part has its own time limit, so one slow part cannot
# starve the rest.
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
log=$out/log.txt
# The staged binaries travel xz-packed when they would pass the carry limit (OpenBLAS alone is 36 MB).
[ -d .device-run ] || python3 -c 'import tarfile; tarfile.open(".device-pack/run.tar.xz").extractall()'
. .device-run/env.sh
export PYTHONUNBUFFERED=1
parts=${*:-tests memcheck cli resume curves speed trace torch fla}
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
nl=.device-run/nltrain
say() { echo "== $*" | tee -a "$log"; }
run() { local t=$1; shift; timeout "$t" "$@" 2>&1 | tee -a "$log"; echo "rc=${PIPESTATUS[0]}" | tee -a "$log"; }
# A byte corpus large enough for 64 streams of 64-token chunks over 100 steps.
cat $(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find libcore -name '*.[ch]pp') | head -c 4000000 > "$w/corpus.txt"

has() { [[ " $parts " == *" $1 "* ]]; }
say "machine: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1) cores=$(nproc)"

if has tests; then
  say gpu_tests
  run 100 .device-run/gpu_tests
fi
if has memcheck; then
  say "compute-sanitizer memcheck gpu_tests"
  run 150 compute-sanitizer --tool memcheck --print-limit 20 .device-run/gpu_tests
fi
if has cli; then
  say "device_test.py (nltrain --device cuda against cpu)"
  run 150 python3 tests/cli/nltrain/device_test.py "$nl" .device-run/bp tests/cli/nltrain/data
fi
# A cuda run stopped and resumed is the uninterrupted run bit for bit; cpu -> cuda resumes; gradcheck
# and bp verify nltrain on cuda; cuda:1 refused on a one-GPU machine.
if has resume; then
  say "cuda stop/resume, gradcheck, receipts, cuda:1"
  a=(--data "$w/corpus.txt" --rule titans --levels 2 --d 32 --seq-len 64 --quiet --checkpoint-every 5)
  "$nl" train "${a[@]}" --steps 20 --batch 4 --device cuda --out "$w/ru" --metrics "$w/ru.jsonl" >/dev/null
  "$nl" train "${a[@]}" --steps 20 --batch 4 --device cuda --out "$w/rr" --metrics "$w/rr.jsonl" --stop-at 10 >/dev/null
  "$nl" train --resume "$w/rr" --device cuda --metrics "$w/rr2.jsonl" --quiet >/dev/null
  cat "$w/rr.jsonl" "$w/rr2.jsonl" | cmp - "$w/ru.jsonl" && echo "cuda stop at 10 + resume: bitwise the uninterrupted run" | tee -a "$log"
  "$nl" train "${a[@]}" --steps 20 --batch 4 --device cpu --out "$w/rc" --metrics "$w/rc.jsonl" --stop-at 10 >/dev/null
  "$nl" train --resume "$w/rc" --device cuda --metrics "$w/rc2.jsonl" --quiet 2>&1 | tee -a "$log"
  echo "cpu -> cuda resume rc=${PIPESTATUS[0]}, $(wc -l < "$w/rc2.jsonl") steps" | tee -a "$log"
  for r in delta titans moneta; do run 60 "$nl" gradcheck --rule $r --device cuda; done
  "$nl" train "${a[@]}" --steps 3 --device cuda --out "$w/rv" --receipts "$w/rv.receipts.jsonl" >/dev/null
  run 60 .device-run/bp verify nltrain "$w/rv.receipts.jsonl"
  run 10 "$nl" train "${a[@]}" --steps 2 --device cuda:1 --out "$w/r1"
fi
# 100-step loss curves, cuda against cpu: DeltaRule and TitansLMM, s = 64, K = 1 and 2.
if has curves; then
  say "100-step curves (d 32, s 64, B 8)"
  for rule in delta titans; do
    for k in 1 2; do
      for dev in cpu cuda; do
        timeout 120 "$nl" train --data "$w/corpus.txt" --rule $rule --levels $k --d 32 --seq-len 64 --batch 8 \
          --steps 100 --device $dev --out "$w/c-$rule-$k-$dev" --metrics "$w/c-$rule-$k-$dev.jsonl" \
          --checkpoint-every 1000 --quiet 2>&1 | tee -a "$log"
      done
      python3 - "$w/c-$rule-$k-cpu.jsonl" "$w/c-$rule-$k-cuda.jsonl" <<'PY' 2>&1 | tee -a "$log"
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
worst = max((abs(x["loss"] - y["loss"]) / abs(x["loss"]), x["step"]) for x, y in zip(a, b))
gn = max((abs(x["grad_norm"] - y["grad_norm"]) / abs(x["grad_norm"]), x["step"]) for x, y in zip(a, b))
print(f"{sys.argv[2]}: {len(a)}/{len(b)} steps; worst relative loss difference {worst[0]:.3g} at step {worst[1]}, "
      f"grad_norm {gn[0]:.3g} at step {gn[1]}; final loss cpu {a[-1]['loss']} cuda {b[-1]['loss']}")
PY
    done
  done
fi
# Tokens/s of whole training steps at d = 128 and 512, B = 64, s = 64: cuda against the CPU path
# on all of this machine's cores.
if has speed; then
  say "nltrain tokens/s (B 64, s 64)"
  # SPEED_D, SPEED_DEVICES and SPEED_CFGS narrow it for a short call (defaults: all of it).
  for d in ${SPEED_D:-128 512}; do
    cfgs=("delta 1" "delta 2" "titans 1" "titans 2"); [ $d = 512 ] && cfgs=("delta 1" "titans 1")
    [ -n "${SPEED_CFGS:-}" ] && IFS=, read -r -a cfgs <<<"$SPEED_CFGS"
    for cfg in "${cfgs[@]}"; do
      set -- $cfg
      for dev in ${SPEED_DEVICES:-cuda cpu}; do
        steps=4; [ $d = 512 ] && steps=2
        timeout 60 "$nl" train --data "$w/corpus.txt" --rule $1 --levels $2 --d $d --seq-len 64 --batch 64 \
          --steps $steps --device $dev --threads "$(nproc)" --out "$w/s-$1-$2-$d-$dev" \
          --metrics "$w/s-$1-$2-$d-$dev.jsonl" --metrics-timing --checkpoint-every 1000 --quiet >/dev/null 2>&1
        echo "rule=$1 K=$2 d=$d device=$dev $(tail -1 "$w/s-$1-$2-$d-$dev.jsonl" 2>/dev/null)" | tee -a "$log"
      done
    done
  done
  say gpu_pairs_bench
  run 120 .device-run/gpu_pairs_bench --benchmark_filter="${GPU_PAIRS_FILTER:-.}"
fi
# Where a cuda step's time goes: nltrain's Chrome trace (forward and backward per batch stream,
# the reduction and the optimizer) of 4 steps at d = 128, B = 64, beside the CPU path's.
if has trace; then
  say "traces (d 128, B 64, s 64, 4 steps): \$OUT/trace-cuda.json, \$OUT/trace-cpu.json"
  for dev in cuda cpu; do
    timeout 60 "$nl" train --data "$w/corpus.txt" --rule delta --levels 2 --d 128 --seq-len 64 --batch 64 --steps 4 \
      --device $dev --out "$w/t-$dev" --trace-out "$out/trace-$dev.json" --checkpoint-every 1000 --quiet 2>&1 | tee -a "$log"
  done
fi
if has torch; then
  say "PyTorch eager, the same model (tests/bench/mag_torch_batch.py)"
  run 60 python3 tests/bench/mag_torch_batch.py --check delta 32 16 4 2 4 3 cpu
  for d in 128 512; do
    for cfg in "delta 1" "delta 2" "titans 1" "titans 2"; do
      set -- $cfg
      run 60 python3 tests/bench/mag_torch_batch.py $1 $d 64 4 $2 64 10 cuda
    done
  done
fi
if has fla; then
  say "flash-linear-attention (fla-core), B 64, T 64"
  if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
      && export PYTHONPATH=/tmp/site
  fi
  # Triton compiles (and autotunes) each shape on first use: a minute or more each on the H200.
  run 150 python3 tests/bench/fla_delta_rule.py 64 64 1 ${FLA_D:-512}
fi
tar -czf "$out/runs.tgz" -C "$w" --exclude corpus.txt --exclude checkpoint --exclude blobs --exclude spill . 2>/dev/null
say done
