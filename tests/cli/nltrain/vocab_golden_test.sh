#!/usr/bin/env bash
# The byte-level default is unchanged by --vocab: a small run's metrics, checkpoint, export, eval
# result, init state and receipts have the bytes nltrain wrote before the option existed
# (fixtures/nltrain/vocab256-d8.golden, printed by nltrain 1.0.0+g90ac702, the last version
# without --vocab, with `vocab_golden_test.sh NLTRAIN --print`), with no flag and with
# --vocab 256 --data-format bytes spelled out. fp32 bits depend on the BLAS core type: on another
# one the test is skipped (exit 77), saying which.
NLTRAIN=$1
MODE=${2:-check}
. "$(dirname "$0")/cli_assert.sh"
. "$(dirname "$0")/blas_core.sh"
GOLDEN=$(cd "$(dirname "$0")/../../../fixtures/nltrain" && pwd)/vocab256-d8.golden
cd "$WORK" || exit 2

# digests DIR [train and init flags]: one line per output, "name sha256"; the run directory as
# one digest of its files' digests. A receipt names the trainer's version, and the next one
# chains to its digest: both are set aside.
digests() {
  local d=$1
  shift
  mkdir -p "$d" && (
    cd "$d" || exit 2
    local s=(--d 8 --heads 2 --seq-len 8 --steps 6 --checkpoint-every 4 --quiet)
    "$NLTRAIN" train "${s[@]}" "$@" --out run --metrics metrics.jsonl >/dev/null &&
      "$NLTRAIN" train "${s[@]}" "$@" --out audited --receipts receipts.jsonl >/dev/null &&
      "$NLTRAIN" export run --to run.safetensors &&
      "$NLTRAIN" eval --checkpoint run --json >eval.json &&
      "$NLTRAIN" init --d 8 --heads 2 --seq-len 8 --chunk 3 "$@" --out state.json || exit 2
    sed -E 's/"trainer":\{"name":"nltrain","version":"[^"]*"\}/"trainer":V/; s/"previous_sha256":"[0-9a-f]{64}"/"previous_sha256":P/' \
      receipts.jsonl >receipts.normalized
    echo "blas $(grep -o '"blas":"[^"]*"' receipts.jsonl | head -1 | cut -d'"' -f4 | tr ' ' '_')"
    for f in metrics.jsonl receipts.normalized run.safetensors eval.json state.json; do echo "$f $(sha256sum <"$f" | cut -c1-64)"; done
    echo "run/ $(cd run && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-64)"
  )
}

if [ "$MODE" = --print ]; then
  digests golden
  exit $?
fi
# The golden names the BLAS core it was printed with (Cooperlake: blas_core.sh pins it where the
# CPU has its instructions; OpenBLAS's own detection can name SkylakeX on the same CPU).
digests plain >plain.golden || { echo "FAIL: the default run did not complete" >&2; exit 1; }
want_blas=$(grep '^blas ' "$GOLDEN")
if [ "$(grep '^blas ' plain.golden)" != "$want_blas" ]; then
  echo "SKIP: the golden's fp32 bits are those of ${want_blas#blas }; this machine has $(grep '^blas ' plain.golden | cut -c6-)"
  exit 77
fi
LAST="default flags"
diff "$GOLDEN" plain.golden >&2 || fail "the default byte-level run's bytes differ from the golden"
digests spelled --vocab 256 --data-format bytes >spelled.golden || fail "the spelled-out run did not complete"
LAST="--vocab 256 --data-format bytes"
diff "$GOLDEN" spelled.golden >&2 || fail "--vocab 256 --data-format bytes differs from the golden"
finish
