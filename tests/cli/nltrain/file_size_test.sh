#!/usr/bin/env bash
# The house limit for the thin drivers: no file under apps/nltrain over 250 lines (split by
# concept instead). $1: the source tree's root.
ROOT=$1
over=0
for f in "$ROOT"/apps/nltrain/*; do
  n=$(wc -l <"$f")
  if [ "$n" -gt 250 ]; then echo "FAIL: ${f#"$ROOT"/} has $n lines (limit 250)" >&2; over=$((over + 1)); fi
done
[ "$over" -eq 0 ] || exit 1
echo "all assertions passed"
