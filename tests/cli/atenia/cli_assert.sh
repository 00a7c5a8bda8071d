# Sourced by the atenia CLI tests: run a command, then assert on its exit code, stdout, stderr.
# Usage in a test:  run "$ATENIA" explain ...; expect_rc 0; expect_out_eq "..."; expect_err_eq "..."
set -u
FAILS=0
# The tests' inline Python imports its helpers (crc32c.py) from this directory.
export PYTHONPATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)${PYTHONPATH:+:$PYTHONPATH}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/atenia-cli-XXXXXX")
trap 'rm -rf "$WORK"' EXIT

run() {
  "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  LAST="$*"
}
fail() { echo "FAIL [$LAST]: $1" >&2; echo "--- stdout" >&2; head -c 2000 "$WORK/out" >&2; echo "--- stderr" >&2; cat "$WORK/err" >&2; FAILS=$((FAILS + 1)); }
expect_rc() { [ "$RC" -eq "$1" ] || fail "exit code $RC, expected $1"; }
expect_out_eq() { [ "$(cat "$WORK/out")" == "$1" ] || fail "stdout differs from: $1"; }
expect_err_eq() { [ "$(cat "$WORK/err")" == "$1" ] || fail "stderr differs from: $1"; }
expect_out_has() { grep -qF -- "$1" "$WORK/out" || fail "stdout lacks: $1"; }
expect_err_has() { grep -qF -- "$1" "$WORK/err" || fail "stderr lacks: $1"; }
expect_out_file() { diff -u "$1" "$WORK/out" >&2 || fail "stdout differs from $1"; }
expect_err_empty() { [ ! -s "$WORK/err" ] || fail "stderr is not empty"; }
expect_out_empty() { [ ! -s "$WORK/out" ] || fail "stdout is not empty"; }
finish() {
  if [ "$FAILS" -ne 0 ]; then echo "$FAILS assertion(s) failed" >&2; exit 1; fi
  echo "all assertions passed"
}
