#!/usr/bin/env bash
# Every integer option of every nltrain command: a sign, a fraction, junk, an empty value or a
# value past 2^64 - 1 is a usage error (exit 2) with one line naming the option and the value,
# and nothing is trained or written (CLI11's strtoull would wrap "-5" to 2^64 - 5).
NLTRAIN=$1
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
"$NLTRAIN" init --d 8 --heads 2 --seq-len 8 --out state.json || { echo "init failed" >&2; exit 1; }
"$NLTRAIN" train --d 8 --heads 2 --seq-len 8 --steps 2 --quiet --out run >/dev/null || { echo "train failed" >&2; exit 1; }

# command | option | the other arguments the command needs
CASES=(
  "train|--levels|--out o"       "train|--d|--out o"        "train|--heads|--out o"
  "train|--seq-len|--out o"      "train|--window|--out o"   "train|--seed|--out o"
  "train|--steps|--out o"        "train|--warmup|--out o"   "train|--checkpoint-every|--out o"
  "train|--stop-at|--out o"      "train|--batch|--out o"    "train|--threads|--out o"
  "init|--levels|--out s.json"   "init|--d|--out s.json"    "init|--heads|--out s.json"
  "init|--seq-len|--out s.json"  "init|--window|--out s.json" "init|--seed|--out s.json"
  "init|--chunk|--out s.json"    "init|--step|--out s.json"
  "grads|--step|state.json --out g.json"
  "gradcheck|--levels|"
  "eval|--max-chunks|--checkpoint run"
  "generate|--tokens|--checkpoint run --prompt x"
  "generate|--seed|--checkpoint run --prompt x"
)
BAD=(-5 -1 +3 1.5 2e3 abc 7x " 4" "" 18446744073709551616 99999999999999999999999)
for c in "${CASES[@]}"; do
  IFS='|' read -r cmd opt rest <<<"$c"
  for v in "${BAD[@]}"; do
    # shellcheck disable=SC2086
    run "$NLTRAIN" "$cmd" $rest "$opt" "$v"
    expect_rc 2
    expect_err_one_line
    expect_err_has "$opt: "
    expect_err_has "\"$v\""
    [ ! -s "$WORK/out" ] || fail "stdout is not empty"
    # The --opt=value spelling goes through the same reader: three of the values are enough
    # (each run is an ASan process start; the 550 runs of both spellings took a minute).
    case "$v" in -5 | "" | 18446744073709551616) ;; *) continue ;; esac
    # shellcheck disable=SC2086
    run "$NLTRAIN" "$cmd" $rest "$opt=$v"
    expect_rc 2
    expect_err_has "$opt: "
  done
done
[ ! -e o ] && [ ! -e s.json ] && [ ! -e g.json ] || fail "a rejected command wrote output"
run "$NLTRAIN" train --steps 18446744073709551616 --out o
expect_err_has "is too large; at most 18446744073709551615"
run "$NLTRAIN" train --steps -5 --out o
expect_err_has '--steps: expected a non-negative integer (digits only), got "-5"'
# Good values still work, and a domain error stays exit 3.
run "$NLTRAIN" gradcheck --levels 1
expect_rc 0
run "$NLTRAIN" train --steps 0 --out o
expect_error 3 "steps: must be at least 1"
run "$NLTRAIN" generate --checkpoint run --prompt ab --tokens 3 --seed 7
expect_rc 0
finish
