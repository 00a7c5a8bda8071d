#!/usr/bin/env bash
# A NUL byte ended JSON parsing in all three tools (nlohmann's lexer takes it for the end of the
# input): a valid document followed by "\0{"not":"json" was accepted. Each input is run once as
# is (it must pass) and once with the NUL and junk appended (exit 2, one line naming the byte).
#   trailing_bytes_test.sh <bp> <atenia> <nltrain> <atenia fixtures dir>
BP=$1 ATENIA=$2 NLTRAIN=$3 ATENIA_FIXTURES=$4
FAILS=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/trailing-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 2
fail() { echo "FAIL: $1" >&2; FAILS=$((FAILS + 1)); }
junk() { cat "$1" > "$2"; printf '\0{"not":"json' >> "$2"; }
# check NAME FILE CMD... (FILE is replaced in CMD by the clean, then the tampered copy)
check() {
  local name=$1 file=$2; shift 2
  local clean=() bad=()
  for a in "$@"; do clean+=("${a//@FILE@/$file}"); bad+=("${a//@FILE@/$file.nul}"); done
  junk "$file" "$file.nul"
  "${clean[@]}" >out 2>err || fail "$name: the clean input fails: $(head -c 300 err)"
  "${bad[@]}" >out 2>err
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: a NUL byte after the document: exit $rc, expected 2"
  grep -q "NUL byte (0x00) at byte" err || fail "$name: the error does not name the NUL byte: $(head -c 300 err)"
}
"$BP" generate xor > xor.jsonl || fail "bp generate xor"
head -n 1 xor.jsonl | tr -d '\n' > receipt.json
check "bp validate" receipt.json "$BP" validate @FILE@
check "bp verify general" receipt.json "$BP" verify general @FILE@
cp "$ATENIA_FIXTURES/priority_budget.json" scenario.json
check "atenia simulate" scenario.json "$ATENIA" simulate @FILE@
printf '{"steps":2,"d":8,"heads":2,"seq_len":8}' > config.json
check "nltrain train --config" config.json "$NLTRAIN" train --config @FILE@ --out run@FILE@ --quiet
if [ "$FAILS" -ne 0 ]; then echo "$FAILS check(s) failed" >&2; exit 1; fi
echo "all checks passed"
