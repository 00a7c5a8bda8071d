#!/usr/bin/env bash
# The suite as a user installs it: `cmake --install` into a temporary prefix, the tree moved
# elsewhere (an install must not depend on where it was made), then every tool run from there.
#   install_test.sh <build dir> <source dir> <project version> <bp of the build tree>
set -u
BUILD=$1 SRC=$2
. "$(dirname "$0")/install_checks.sh"
suite_version "$3" "$4"
cmake --install "$BUILD" --prefix "$WORK/first" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; exit 1; }
mv "$WORK/first" "$WORK/moved"
check_tree "$WORK/moved" "$SRC" "$VERSION"
finish
