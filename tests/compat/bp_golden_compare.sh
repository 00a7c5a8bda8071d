#!/bin/sh
# usage: bp_golden_compare.sh <bp> <reference package dir> <builtin name> <golden file> <our fixtures dir>
# 1. `bp generate <name> --check` against the REFERENCE's golden must pass (exit 0);
# 2. our committed golden must equal the reference's byte for byte.
set -u
bp=$1 ref=$2 name=$3 file=$4 ours=$5
. "$(dirname "$0")/bp_reference_present.sh"
bp_reference_present "$ref"
BP_FIXTURES_DIR="$ref/fixtures" "$bp" generate "$name" --check
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL: bp generate $name --check against $ref/fixtures/$file exited $rc"
  exit 1
fi
if ! cmp "$ours/$file" "$ref/fixtures/$file"; then
  echo "FAIL: committed fixtures/$file differs from the reference's"
  exit 1
fi
echo "OK: bp generate $name == reference fixtures/$file ($(wc -c < "$ref/fixtures/$file") bytes)"
