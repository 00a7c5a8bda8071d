#!/usr/bin/env bash
# bp import pytorch multi, peak memory against the number of steps (issue 30 item 4: constant in
# the record count for streams). By hand, not a ctest: it writes two traces of 17 MB and 171 MB
# and asserts on no time. The traces repeat the bench's PyTorch step (tests/bench/data), with
# step_index renumbered; each is imported from the file and through a pipe, and the peak resident
# set of each run (/usr/bin/time) is printed with the ratio of the long trace's to the short one's.
# usage: import_multi_memory.sh BP WORK [SHORT LONG]   (defaults 1000 and 10000 steps)
# Use a build without sanitizers (ASan's quarantine holds freed memory: RSS means nothing there).
set -eu
BP=$(realpath "$1")
WORK=$2 SHORT=${3:-1000} LONG=${4:-10000}
STEP=$(dirname "$(realpath "$0")")/data/pytorch_sgd_momentum_step.sidecar.json
mkdir -p "$WORK" && cd "$WORK"
trace() {  # N steps, one line each
  python3 - "$STEP" "$1" <<'PY'
import json, sys
step = json.load(open(sys.argv[1]))
step.setdefault("trace_id", "0123456789abcdef0123456789abcdef")
for i in range(int(sys.argv[2])):
    step["step_index"] = i
    sys.stdout.write(json.dumps(step, separators=(",", ":")) + "\n")
PY
}
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
trace "$SHORT" > short.jsonl
trace "$LONG" > long.jsonl
export SOURCE_DATE_EPOCH=0
s_file=$(peak "$BP" import pytorch multi short.jsonl)
l_file=$(peak "$BP" import pytorch multi long.jsonl)
s_pipe=$(peak sh -c "cat short.jsonl | '$BP' import pytorch multi -")
l_pipe=$(peak sh -c "cat long.jsonl | '$BP' import pytorch multi -")
printf '%-8s %10s %10s\n' steps file_KiB pipe_KiB
printf '%-8s %10s %10s\n' "$SHORT" "$s_file" "$s_pipe" "$LONG" "$l_file" "$l_pipe"
awk -v a="$s_file" -v b="$l_file" 'BEGIN { printf "long/short peak (file): %.2f\n", b / a }'
rm -f short.jsonl long.jsonl
