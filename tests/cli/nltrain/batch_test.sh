#!/usr/bin/env bash
# nltrain train --batch B --threads N: --batch 1 is the unbatched trainer byte for byte (against
# main's own outputs, recorded in data/); any thread count gives the same bits; a stopped and
# resumed batched run equals an uninterrupted one; bad values are refused with one line, exit 3.
NLTRAIN=$1
DATA="$(cd "$(dirname "$0")" && pwd)/data"
. "$(dirname "$0")/cli_assert.sh"
. "$(dirname "$0")/blas_core.sh"
cd "$WORK" || exit 2

# --batch 1 (and any --threads) against the bytes nltrain wrote before batches existed: the
# metrics (main at 1e4c816) and checkpoint files (main at the merge of nltrain-ckpt-root, the run
# directory as a checkpoint root) below were written by nltrain before batches, with this command
# (BLAS: Debian's OpenBLAS, an AVX-512 core: blas_core.sh). Elsewhere both runs still complete.
GOLD=(--d 8 --heads 2 --seq-len 8 --levels 2 --steps 30 --checkpoint-every 10 --quiet)
recorded_bits "$NLTRAIN" "--batch 1 against main's metrics and checkpoint" && SAME_CORE=1 || SAME_CORE=0
for extra in "" "--batch 1 --threads 3"; do
  rm -rf g g.jsonl
  # shellcheck disable=SC2086
  run "$NLTRAIN" train "${GOLD[@]}" --out g --metrics g.jsonl $extra
  expect_rc 0
  [ "$SAME_CORE" = 1 ] || continue
  cmp -s g.jsonl "$DATA/main_batch1_metrics.jsonl" || fail "metrics ($extra) differ from main's"
  (cd g && sha256sum -c --quiet "$DATA/main_batch1_checkpoint.sha256") || fail "checkpoint ($extra) differs from main's"
done

# 13 chunks of 16 tokens: 3 streams of 4, 4 and 5 chunks (they wrap at different steps), or 8
# streams of 1 or 2 chunks.
head -c 209 "$DATA/../train_test.sh" >text.txt
M=(--d 16 --heads 2 --seq-len 16 --steps 40 --checkpoint-every 15 --quiet --data text.txt)
for B in 3 8; do
  for N in 1 2 3; do
    run "$NLTRAIN" train "${M[@]}" --batch "$B" --threads "$N" --out "b${B}t$N" --metrics "b${B}t$N.jsonl" --json
    expect_rc 0
    [ "$(wc -l <"b${B}t$N.jsonl")" -eq 40 ] || fail "B=$B N=$N: $(wc -l <"b${B}t$N.jsonl") metrics lines"
  done
  for N in 2 3; do
    cmp -s "b${B}t1.jsonl" "b${B}t$N.jsonl" || fail "B=$B: metrics on $N threads differ from 1 thread"
    same_checkpoint "b${B}t1" "b${B}t$N" || fail "B=$B: checkpoint on $N threads differs from 1 thread"
  done
done
cmp -s b3t1.jsonl b8t1.jsonl && fail "B=3 and B=8 trained the same losses"
# The batch's mean loss is not the first stream's: B=3 differs from B=1 from the first step on.
run "$NLTRAIN" train "${M[@]}" --out b1 --metrics b1.jsonl
[ "$(head -1 b1.jsonl)" != "$(head -1 b3t1.jsonl)" ] || fail "B=3's first loss is B=1's"

# Stopped at 17 (on 2 threads) and resumed (on 1 thread) == uninterrupted, byte for byte.
run "$NLTRAIN" train "${M[@]}" --batch 3 --threads 2 --out r --metrics r.jsonl --stop-at 17
expect_rc 0
run "$NLTRAIN" train --resume r --threads 1 --metrics r.jsonl --quiet
expect_rc 0
cmp -s b3t1.jsonl r.jsonl || fail "resumed batched metrics differ from the uninterrupted run"
same_checkpoint b3t1 r || fail "resumed batched checkpoint differs from the uninterrupted run"
run "$NLTRAIN" train --resume r --batch 3 --quiet
expect_rc 0
expect_out_has "is complete (40 steps); nothing to do"
run "$NLTRAIN" eval --checkpoint r --data text.txt --json
expect_rc 0

# Bad values: exit 3, one line, nothing written.
run "$NLTRAIN" train --resume r --batch 2
expect_error 3 "--batch: the run in r trains 3 sequences per step; --resume cannot change it"
run "$NLTRAIN" train "${M[@]}" --batch 0 --out x
expect_error 3 "--batch: must be at least 1"
run "$NLTRAIN" train "${M[@]}" --threads 0 --out x
expect_error 3 "--threads: must be at least 1"
run "$NLTRAIN" train "${M[@]}" --batch 1025 --out x
expect_error 3 "--batch: at most 1024 sequences per step"
run "$NLTRAIN" train "${M[@]}" --batch 14 --out x
expect_error 3 "--batch: 14 streams need 14 chunks of --seq-len 16 tokens; text.txt holds 13"
run "$NLTRAIN" train "${M[@]}" --batch 2 --receipts rc.jsonl --out x
expect_error 3 "--receipts: bp verify nltrain audits one sequence per step; a run with --batch 2 writes no step receipts"
run "$NLTRAIN" train "${M[@]}" --batch 2 --schedule learned --out x
expect_error 3 "--batch: a learned frequency schedule picks its levels per sequence"
[ ! -e x ] && [ ! -e rc.jsonl ] || fail "a refused start wrote something"
finish
