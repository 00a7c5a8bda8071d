#!/usr/bin/env bash
# Runs a command under cross_thread_frees.c (an LD_PRELOAD counter of the blocks freed by another
# thread than their maker's) and prints its counts with the freeing code's function names. By
# hand, not a ctest: the tests' build is sanitized, and a sanitizer's runtime must come first.
#   tests/bench/cross_thread_frees.sh build-rel/apps/bp/bp verify multi BUNDLE --jobs 2
# (bp verify multi on 3,000 generated records, --jobs 2: 7,200 to 7,500 before the changes of
# 2026-12-02, under 100 after, none of them per record.)
set -euo pipefail
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -o "$work/cross_thread_frees.so" "$here/cross_thread_frees.c" -ldl -lpthread
binary=$(command -v "$1")
set +e
LD_PRELOAD="$work/cross_thread_frees.so" "$@" > /dev/null 2> "$work/stderr"
status=$?
set -e
while IFS= read -r line; do
  case "$line" in
    "cross_thread_frees: "*" at "*"+0x"*)
      object=${line#* at }; offset=${object##*+}; object=${object%+*}
      where=$([ "$(realpath "$object" 2>/dev/null)" = "$(realpath "$binary")" ] &&
              addr2line -f -C -e "$binary" "$offset" 2>/dev/null | head -1 | cut -c1-160 || echo "$object")
      echo "${line%% at *} in $where" ;;
    "cross_thread_frees: "*) echo "$line" ;;
  esac
done < "$work/stderr"
exit $status
