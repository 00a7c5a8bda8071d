# usage: sh with_reference.sh <reference-package-dir> <command> [args...]
# Runs the command when the reference package is installed; otherwise exits 77
# (ctest: Skipped), or 1 under CI=true (see bp_reference_present.sh).
. "$(dirname "$0")/bp_reference_present.sh"
bp_reference_present "$1"
shift
exec "$@"
