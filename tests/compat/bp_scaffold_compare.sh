#!/bin/sh
# usage: bp_scaffold_compare.sh <bp> <reference package dir> <mazur|xor|iris>
set -u
bp=$1 ref=$2 topology=$3
. "$(dirname "$0")/bp_reference_present.sh"
bp_reference_present "$ref"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bp" scaffold topology --topology "$topology" > "$tmp/ours.json" || { echo "FAIL: bp scaffold exited $?"; exit 1; }
node "$ref/dist/bin/bp.js" scaffold topology --topology "$topology" > "$tmp/ref.json" ||
  { echo "FAIL: the reference scaffold exited $?"; exit 1; }
cmp "$tmp/ours.json" "$tmp/ref.json" || { echo "FAIL: scaffold $topology differs from the reference"; exit 1; }
echo "OK: scaffold $topology == reference ($(wc -c < "$tmp/ref.json") bytes)"
