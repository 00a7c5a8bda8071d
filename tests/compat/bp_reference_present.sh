# Sourced by the bp compat scripts: $1 = reference package dir. Returns from the caller's shell
# with 77 (ctest: Skipped) when it is missing, or exits 1 when CI=true demands it.
bp_reference_present() {
  if [ -f "$1/package.json" ] && command -v node >/dev/null 2>&1; then return 0; fi
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL: CI=true but the reference is not installed at $1 (see the bp_reference_install test)"
    exit 1
  fi
  echo "SKIP: the reference is not installed at $1 (needs npm; see the bp_reference_install test)"
  exit 77
}
