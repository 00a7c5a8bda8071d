# Sourced by the nltrain CLI tests: run a command, then assert on its exit code, stdout, stderr.
set -u
FAILS=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nltrain-cli-XXXXXX")
trap 'rm -rf "$WORK"' EXIT

run() {
  "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  LAST="$*"
}
fail() { echo "FAIL [${LAST:-}]: $1" >&2; echo "--- stdout" >&2; head -c 2000 "$WORK/out" >&2; echo "--- stderr" >&2; head -c 2000 "$WORK/err" >&2; FAILS=$((FAILS + 1)); }
expect_rc() { [ "$RC" -eq "$1" ] || fail "exit code $RC, expected $1"; }
expect_out_has() { grep -qF -- "$1" "$WORK/out" || fail "stdout lacks: $1"; }
expect_err_has() { grep -qF -- "$1" "$WORK/err" || fail "stderr lacks: $1 (it holds: $(head -c 300 "$WORK/err"))"; }
expect_err_one_line() { [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "stderr is not one line"; }
expect_err_empty() { [ ! -s "$WORK/err" ] || fail "stderr is not empty"; }
# The error contract: exit code $1, one line on stderr containing $2, nothing on stdout.
expect_error() {
  expect_rc "$1"
  expect_err_one_line
  expect_err_has "$2"
  [ ! -s "$WORK/out" ] || fail "stdout is not empty"
}
# Two run directories hold the same checkpoint: the same files with the same bytes (a save's
# bytes depend on the state alone; the manifest's created_unix is the step).
same_checkpoint() { diff -r "$1/checkpoint" "$2/checkpoint" >/dev/null && diff -r "$1/blobs" "$2/blobs" >/dev/null; }
# step, loss and grad_norm of every metrics line (the fields that must match bit for bit).
losses() { sed -E 's/^(\{"step":[0-9]+,"loss":[^,]+,"grad_norm":[^,]+),.*/\1}/' "$1"; }
finish() {
  if [ "$FAILS" -ne 0 ]; then echo "$FAILS assertion(s) failed" >&2; exit 1; fi
  echo "all assertions passed"
}
