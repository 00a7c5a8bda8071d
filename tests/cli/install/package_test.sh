#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` makes nnaudit_<version>_amd64.deb; its control fields name
# only runtime libraries; it holds the tools, man pages, schemas, helpers and fixtures; and the
# tools run from a `dpkg -x` tree.
#   package_test.sh <build dir> <source dir> <project version> <bp of the build tree>
set -u
BUILD=$1 SRC=$2
. "$(dirname "$0")/install_checks.sh"
suite_version "$3" "$4"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not found"; exit 77; }
(cd "$WORK" && cpack -G DEB -B "$WORK/out" --config "$BUILD/CPackConfig.cmake") >"$WORK/cpack.log" 2>&1 \
  || { cat "$WORK/cpack.log" >&2; exit 1; }
deb="$WORK/out/nnaudit_${PROJECT_VERSION}_amd64.deb"
[ -f "$deb" ] || { echo "FAIL: no $deb; cpack made: $(ls "$WORK/out")" >&2; exit 1; }
info=$(dpkg-deb -I "$deb")
echo "$info" | sed -n '/Package:/,$p'
field() { echo "$info" | sed -n "s/^ $1: //p"; }
expect "Package" "nnaudit" "$(field Package)"
expect "Version" "$PROJECT_VERSION" "$(field Version)"
expect "Architecture" "amd64" "$(field Architecture)"
depends=$(field Depends)
case "$depends" in *libc6*) ;; *) fail "Depends lacks libc6: $depends" ;; esac
# Runtime libraries only: no compiler, headers or build tools.
for pkg in $(echo "$depends" | tr ',|' '\n\n' | awk '{print $1}'); do
  case "$pkg" in
    *-dev | build-essential | cmake | gcc* | g++* | cpp* | ninja-build | ccache | python3* | nodejs | npm)
      fail "Depends names a build-time package ($pkg): $depends" ;;
    lib*) ;;
    *) fail "Depends names a package that is not a library ($pkg): $depends" ;;
  esac
done
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/bp ./usr/bin/atenia ./usr/bin/nltrain ./usr/share/man/man1/bp.1 ./usr/share/man/man1/atenia.1 \
         ./usr/share/man/man1/nltrain.1 ./usr/share/bp/extract/pytorch.py ./usr/share/bp/extract/pytorch_mlp.py ./usr/share/bp/extract/jax.py \
         ./usr/share/bp/extract/jax_mlp.py \
         ./usr/share/bp/fixtures/iris.golden.jsonl ./usr/share/nnaudit/schemas/receipt.v0.2.0.json; do
  echo "$contents" | grep -qxF "$f" || fail "package lacks $f"
done
echo "$contents" | grep -q '^\./usr/\(include\|lib\)/' && fail "package holds headers or libraries"
dpkg -x "$deb" "$WORK/root"
check_tree "$WORK/root/usr" "$SRC" "$VERSION"
finish
