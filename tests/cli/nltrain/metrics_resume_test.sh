#!/usr/bin/env bash
# train --resume --metrics F reads F strictly (common's JSON reader) before it rewrites it: a
# file that is not nltrain's metrics is refused untouched (exit 2, one line), and only a last
# line torn by a killed run (no newline) is dropped.
NLTRAIN=$1
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
SMALL=(--d 8 --heads 2 --seq-len 8 --quiet)

"$NLTRAIN" train "${SMALL[@]}" --steps 6 --stop-at 3 --out r1 >/dev/null || { echo "train failed" >&2; exit 1; }
cp -r r1 r2
printf 'my notes\nnot json at all\n' >notes.txt
cp notes.txt notes.orig
run "$NLTRAIN" train --resume r1 --metrics notes.txt
expect_error 2 "--metrics: notes.txt is not an nltrain metrics file (line 1"
cmp -s notes.txt notes.orig || fail "a file that is not metrics was rewritten"
# A line that is JSON but has no step is refused the same way.
printf '{"step":0,"loss":5.5}\n{"loss":1}\n' >nostep.jsonl
run "$NLTRAIN" train --resume r1 --metrics nostep.jsonl
expect_error 2 "is not an nltrain metrics file (line 2 has no \"step\")"

# A torn last line (a run killed mid-write) is dropped; every step appears once and parses.
"$NLTRAIN" train "${SMALL[@]}" --steps 6 --stop-at 3 --out r3 --metrics m.jsonl >/dev/null
printf '{"step":3,"loss":5.4' >>m.jsonl
run "$NLTRAIN" train --resume r3 --metrics m.jsonl
expect_rc 0
/usr/bin/env python3 - m.jsonl <<'PY' || fail "metrics after a torn line: not steps 0..5 each once"
import json, sys
steps = [json.loads(l)["step"] for l in open(sys.argv[1])]
assert steps == [0, 1, 2, 3, 4, 5], steps
PY
finish
