# Sourced by install_test.sh and package_test.sh: the checks of one installed tree.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nnaudit-install-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAILS=0
fail() { echo "FAIL: $1" >&2; FAILS=$((FAILS + 1)); }
expect() { [ "$2" = "$3" ] || fail "$1: got '$3', expected '$2'"; }
finish() {
  if [ "$FAILS" -ne 0 ]; then echo "$FAILS check(s) failed" >&2; exit 1; fi
  echo "all checks passed"
}
# suite_version PROJECT_VERSION BUILT_BP: sets VERSION to what the build tree's tools print, which
# must be the project's version, with "+g<commit>[.dirty]" when built from a git checkout.
suite_version() {
  PROJECT_VERSION=$1
  VERSION=$("$2" --version)
  [[ "$VERSION" =~ ^${PROJECT_VERSION//./\\.}(\+g[0-9a-f]{12}(\.dirty)?)?$ ]] \
    || { echo "FAIL: the build's bp --version is '$VERSION', not $PROJECT_VERSION[+g<commit>]" >&2; exit 1; }
}
# run NAME EXPECTED_RC CMD...: runs CMD from an empty directory (nothing of the source tree at
# hand), keeps its output in $WORK/run.out and .err.
run() {
  local name=$1 rc=$2; shift 2
  mkdir -p "$WORK/cwd" && (cd "$WORK/cwd" && "$@") >"$WORK/run.out" 2>"$WORK/run.err"
  local got=$?
  [ "$got" -eq "$rc" ] || { fail "$name: exit $got, expected $rc"; head -c 1500 "$WORK/run.err" >&2; }
}
# check_tree PREFIX SRC VERSION
check_tree() {
  local p=$1 src=$2 version=$3
  for tool in bp atenia nltrain; do
    [ -x "$p/bin/$tool" ] || { fail "$p/bin/$tool missing"; continue; }
    run "$tool --version" 0 "$p/bin/$tool" --version
    expect "$tool --version" "$version" "$(cat "$WORK/run.out")"
    run "$tool --help" 0 "$p/bin/$tool" --help
    grep -q "$tool" "$WORK/run.out" || fail "$tool --help does not name the tool"
    [ -f "$p/share/man/man1/$tool.1" ] || { fail "man page $tool.1 missing"; continue; }
    if command -v man >/dev/null; then
      local text
      text=$(MANWIDTH=100 man -l "$p/share/man/man1/$tool.1" 2>"$WORK/man.err")
      [ $? -eq 0 ] || fail "man -l $tool.1 failed: $(head -c 300 "$WORK/man.err")"
      echo "$text" | grep -q "$tool" || fail "man -l $tool.1 renders no text naming $tool"
    fi
  done
  # The bundled fixtures and helpers are the installed ones, found beside the binary.
  run "bp generate iris --check" 0 env -u BP_FIXTURES_DIR -u BP_EXTRACT_DIR "$p/bin/bp" generate iris --check
  cmp -s "$p/share/bp/extract/pytorch.py" "$src/apps/bp/extract/pytorch.py" || fail "installed pytorch.py differs"
  cmp -s "$p/share/bp/extract/pytorch_mlp.py" "$src/apps/bp/extract/pytorch_mlp.py" || fail "installed pytorch_mlp.py differs"
  cmp -s "$p/share/bp/extract/jax_mlp.py" "$src/apps/bp/extract/jax_mlp.py" || fail "installed jax_mlp.py differs"
  run "bp examples pytorch --print" 0 env -u BP_EXTRACT_DIR "$p/bin/bp" examples pytorch --print
  cmp -s "$WORK/run.out" "$p/share/bp/extract/pytorch.py" || fail "bp examples pytorch --print is not the installed helper"
  local helper
  helper=$(realpath "$p/share/bp/extract/pytorch.py")
  run "bp examples jax" 0 env -u BP_EXTRACT_DIR "$p/bin/bp" examples jax
  expect "bp examples jax names the installed helper" "${helper%/*}/jax.py" "$(cat "$WORK/run.out")"
  local n_src n_dst
  n_src=$(ls "$src"/schemas/*.json | wc -l)
  n_dst=$(ls "$p"/share/nnaudit/schemas/*.json 2>/dev/null | wc -l)
  expect "schemas installed" "$n_src" "$n_dst"
  run "atenia profile" 0 "$p/bin/atenia" profile
  [ -s "$WORK/run.out" ] || fail "atenia profile printed nothing"
  run "nltrain train --steps 5" 0 "$p/bin/nltrain" train --steps 5 --out "$WORK/cwd/run"
  [ -d "$WORK/cwd/run" ] || fail "nltrain train wrote no run directory"
}
