#!/bin/sh
# usage: bp_cli_grammar.sh <python3> <reference bp.js> <tests/cli/bp dir>
set -u
python=$1 cli=$2 dir=$3
. "$(dirname "$0")/bp_reference_present.sh"
bp_reference_present "$(dirname "$(dirname "$(dirname "$cli")")")"
exec "$python" "$dir/argv_test.py" "$cli" "$dir/data" --reference-only
