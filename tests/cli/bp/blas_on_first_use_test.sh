#!/usr/bin/env bash
# bp opens its BLAS on the first product (apps/bp/lazy_blas): a command that multiplies nothing
# never loads it, `bp verify nltrain` does and gives the same report, and a BLAS that cannot be
# loaded then is one line naming it, exit 2, while the other commands still run.
#   blas_on_first_use_test.sh <bp> <nltrain>
BP=$1 NLTRAIN=$2
FAILS=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/blas-first-use-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 2
fail() { echo "FAIL: $1" >&2; FAILS=$((FAILS + 1)); }
if ldd "$BP" | grep -qi blas; then
  # No soname was found at configure time: bp links its BLAS as the other tools do.
  [ "$CI" = true ] && { echo "CI=true but bp links its BLAS at start" >&2; exit 1; }
  echo "SKIP: bp links its BLAS at start"; exit 77
fi
LD_DEBUG=files "$BP" --version >/dev/null 2>ld.txt || fail "bp --version"
grep -qi "file=[^ ]*blas" ld.txt && fail "bp --version loaded a BLAS: $(grep -i "file=[^ ]*blas" ld.txt | head -2)"
"$BP" generate xor > xor.jsonl 2>/dev/null || fail "bp generate xor"
LD_DEBUG=files "$BP" verify multi xor.jsonl >/dev/null 2>ld.txt || fail "bp verify multi xor.jsonl"
grep -qi "file=[^ ]*blas" ld.txt && fail "bp verify multi loaded a BLAS"

awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%c", 32 + (i * 37 + int(i / 7)) % 90 }' > data.txt
"$NLTRAIN" train --data data.txt --steps 4 --levels 2 --out run --receipts r.jsonl --d 8 --heads 2 --seq-len 8 \
  --window 8 --quiet || fail "nltrain train"
LD_DEBUG=files "$BP" verify nltrain r.jsonl --json >report.json 2>ld.txt
rc=$?
[ "$rc" -eq 0 ] || fail "bp verify nltrain: exit $rc"
grep -q '"ok":true' report.json || fail "bp verify nltrain: $(head -c 300 report.json)"
# The receipts name this machine's BLAS (OpenBLAS's own entry points, looked up by name once it
# is open): no note that another one made them.
"$BP" verify nltrain r.jsonl >text.txt 2>&1 || fail "bp verify nltrain (text)"
grep -q "were made with" text.txt && fail "bp verify nltrain does not know its own BLAS: $(grep "made with" text.txt)"
soname=$(sed -n 's/.*file=\([^ ]*blas[^ ]*\) \[0\];  dynamically loaded by .*/\1/p' ld.txt | head -1)
[ -n "$soname" ] || fail "bp verify nltrain did not open a BLAS on first use: $(grep -i blas ld.txt | head -2)"

if [ -n "$soname" ]; then
  mkdir broken && : > "broken/$soname"
  LD_LIBRARY_PATH=$PWD/broken "$BP" verify nltrain r.jsonl >out 2>err
  rc=$?
  [ "$rc" -eq 2 ] || fail "an unloadable BLAS: exit $rc, expected 2"
  [ "$(wc -l < err)" -eq 1 ] && grep -q "^bp: cannot use the BLAS library $soname" err ||
    fail "an unloadable BLAS: want one line naming it, got: $(head -c 300 err)"
  [ -s out ] && fail "an unloadable BLAS: something was written to stdout"
  LD_LIBRARY_PATH=$PWD/broken "$BP" verify multi xor.jsonl >/dev/null 2>&1 || fail "an unloadable BLAS stops verify multi"
fi
[ "$FAILS" -eq 0 ] && echo "blas on first use: all checks passed"
exit $((FAILS > 0))
