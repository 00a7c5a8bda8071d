#!/usr/bin/env bash
# nltrain train: trains with no arguments (the loss falls); --resume and Ctrl-C continue bit for
# bit (metrics loss for loss, final checkpoint byte for byte); metrics to stdout; eval, generate
# and plot on the result.
NLTRAIN=$1
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2

# No arguments at all: the embedded corpus, the default model, 1000 steps.
mkdir noargs && cd noargs
run "$NLTRAIN" train
expect_rc 0
expect_out_has "checkpoint nltrain-run/checkpoint/checkpoint.meta"
first=$(sed -nE 's/.*loss ([0-9.]+) -> ([0-9.]+).*/\1/p' "$WORK/out")
last=$(sed -nE 's/.*loss ([0-9.]+) -> ([0-9.]+).*/\2/p' "$WORK/out")
awk -v a="$first" -v b="$last" 'BEGIN { exit !(a > 5.4 && b < 3.5) }' || fail "loss did not fall visibly: $first -> $last"
grep -q "^step 1000/1000 loss" "$WORK/err" || fail "no plain progress lines on a non-terminal"
run "$NLTRAIN" eval --checkpoint nltrain-run --json
expect_rc 0
/usr/bin/env python3 - "$WORK/out" <<'PY' || fail "eval --json"
import json, math, sys
j = json.load(open(sys.argv[1]))
assert j["chunks"] > 10 and j["loss"] < 3.5, j
assert abs(j["perplexity"] - math.exp(j["loss"])) < 1e-9 * j["perplexity"], j
PY
cd "$WORK"

# Interrupted at step 67 and resumed == uninterrupted (a smaller model keeps the sanitizer build fast).
MID=(--d 16 --heads 2 --seq-len 16)
run "$NLTRAIN" train --steps 150 --checkpoint-every 40 --out A --metrics a.jsonl --quiet "${MID[@]}"
expect_rc 0
run "$NLTRAIN" train --steps 150 --checkpoint-every 40 --out B --metrics b.jsonl --quiet --stop-at 67 "${MID[@]}"
expect_rc 0
[ "$(wc -l <b.jsonl)" -eq 67 ] || fail "stop-at 67 wrote $(wc -l <b.jsonl) metrics lines"
run "$NLTRAIN" train --resume B --metrics b.jsonl --quiet
expect_rc 0
expect_out_has "trained steps 67..150 of 150"
cmp -s <(losses a.jsonl) <(losses b.jsonl) || fail "resumed loss trajectory differs from the uninterrupted one"
[ "$(wc -l <a.jsonl)" -eq 150 ] || fail "uninterrupted run wrote $(wc -l <a.jsonl) lines"
same_checkpoint A B || fail "final checkpoints differ"
# A run killed after its checkpoint at step 40 but with metrics written up to step 66: resuming
# from the checkpoint drops the metrics lines after it, so the file holds each step once.
run "$NLTRAIN" train --steps 150 --checkpoint-every 40 --out F --metrics f.jsonl --quiet --stop-at 40 "${MID[@]}"
cp -r F f40
run "$NLTRAIN" train --resume F --metrics f.jsonl --quiet --stop-at 67
[ "$(wc -l <f.jsonl)" -eq 67 ] || fail "f.jsonl: $(wc -l <f.jsonl) lines at step 67"
rm -rf F && cp -r f40 F
run "$NLTRAIN" train --resume F --metrics f.jsonl --quiet
expect_rc 0
cmp -s <(losses a.jsonl) <(losses f.jsonl) || fail "metrics after resuming an older checkpoint differ from the uninterrupted run"
run "$NLTRAIN" train --resume F
expect_rc 0
expect_out_has "is complete (150 steps); nothing to do"
run "$NLTRAIN" train --resume B --steps 10
expect_error 3 "--resume continues the run as it was planned"

# The same under --schedule learned (the frequency gate's W_freq, b_freq and their AdamW moments
# in the checkpoint): interrupted at 23 and resumed == uninterrupted, bit for bit.
LRN=(--d 8 --heads 2 --seq-len 8 --levels 3 --schedule learned --steps 60 --checkpoint-every 16 --quiet)
run "$NLTRAIN" train "${LRN[@]}" --out LA --metrics la.jsonl
expect_rc 0
expect_out_has "(delta rule, K=3 learned schedule, d=8)"
run "$NLTRAIN" train "${LRN[@]}" --out LB --metrics lb.jsonl --stop-at 23
expect_rc 0
run "$NLTRAIN" train --resume LB --metrics lb.jsonl --quiet
expect_rc 0
expect_out_has "trained steps 23..60 of 60 (delta rule, K=3 learned schedule"
cmp -s <(losses la.jsonl) <(losses lb.jsonl) || fail "learned schedule: resumed losses differ from the uninterrupted run"
[ "$(wc -l <lb.jsonl)" -eq 60 ] || fail "learned schedule: lb.jsonl has $(wc -l <lb.jsonl) lines"
same_checkpoint LA LB || fail "learned schedule: final checkpoints differ"
run "$NLTRAIN" train --resume LB --schedule fixed
expect_error 3 "--resume continues the run as it was planned"
run "$NLTRAIN" eval --checkpoint LA --json
expect_rc 0
# The schedule is in the checkpoint: the learned run holds W_freq and b_freq (and their moments).
run "$NLTRAIN" train --d 8 --heads 2 --seq-len 8 --levels 3 --steps 60 --checkpoint-every 16 --quiet --out LF --stop-at 1
expect_rc 0
run "$NLTRAIN" train "${LRN[@]}" --out LG --stop-at 1
expect_rc 0
grep -q '"adam_v/b_freq"' LG/checkpoint/tensor_files.json || fail "learned checkpoint lacks W_freq/b_freq"
grep -q '"W_freq"' LF/checkpoint/tensor_files.json && fail "fixed-schedule checkpoint holds W_freq"

# Ctrl-C: save, exit 0, and the checkpoint equals an uninterrupted run stopped at that step.
"$NLTRAIN" train --steps 1000000 --rule titans --levels 1 --d 8 --heads 2 --seq-len 8 --out C --metrics c.jsonl \
  >sig.out 2>sig.err &
pid=$!
for _ in $(seq 1 600); do
  [ -f c.jsonl ] && [ "$(wc -l <c.jsonl)" -ge 25 ] && break
  sleep 0.05
done
kill -INT "$pid"
wait "$pid"
rc=$?
LAST="train (SIGINT)"
[ "$rc" -eq 0 ] || fail "SIGINT: exit $rc"
n=$(sed -nE 's/^interrupted at step ([0-9]+): checkpoint saved in C.*/\1/p' sig.out)
if [ -z "$n" ]; then
  fail "SIGINT: no 'interrupted at step N' line: $(cat sig.out sig.err)"
else
  run "$NLTRAIN" train --steps 1000000 --rule titans --levels 1 --d 8 --heads 2 --seq-len 8 --out D --metrics d.jsonl \
    --quiet --stop-at "$n"
  expect_rc 0
  same_checkpoint C D || fail "SIGINT checkpoint differs from a run stopped at step $n"
  cmp -s <(losses c.jsonl) <(losses d.jsonl) || fail "SIGINT run's losses differ"
fi

# --metrics - pipes JSON lines and nothing else on stdout.
run "$NLTRAIN" train --steps 5 --d 8 --heads 2 --seq-len 8 --out E --metrics - --quiet
expect_rc 0
[ "$(wc -l <"$WORK/out")" -eq 5 ] || fail "--metrics - wrote $(wc -l <"$WORK/out") lines"
/usr/bin/env python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$WORK/out" || fail "metrics lines are not JSON"

# generate: seeded and deterministic.
run "$NLTRAIN" generate --checkpoint A --prompt "The " --tokens 40 --seed 7
expect_rc 0
cp "$WORK/out" gen1
run "$NLTRAIN" generate --checkpoint A --prompt "The " --tokens 40 --seed 7
cmp -s gen1 "$WORK/out" || fail "generate is not deterministic"
[ "$(head -c 4 gen1)" == "The " ] && [ "$(wc -c <gen1)" -eq 45 ] || fail "generate output: $(cat gen1)"
# A temperature near 0 is near greedy, not byte 0xFF (every weight underflowed before).
run "$NLTRAIN" generate --checkpoint A --prompt "The " --tokens 40 --temperature 0
cp "$WORK/out" greedy
run "$NLTRAIN" generate --checkpoint A --prompt "The " --tokens 40 --temperature 1e-320 --seed 3
expect_rc 0
cmp -s greedy "$WORK/out" || fail "temperature 1e-320 is not greedy: $(od -c "$WORK/out" | head -3)"

# plot: an SVG a parser opens, with one point per metrics line.
run "$NLTRAIN" plot a.jsonl --out loss.svg
expect_rc 0
expect_out_has "wrote loss.svg (150 points)"
/usr/bin/env python3 - loss.svg <<'PY' || fail "plot SVG"
import os, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
assert root.get("width") == "800" and root.get("height") == "450"
line = [e for e in root.iter("{http://www.w3.org/2000/svg}polyline") if e.get("id") == "loss"][0]
pts = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
assert len(pts) == 150, len(pts)
assert all(70 <= x <= 780 and 40 <= y <= 400 for x, y in pts), "points outside the plot area"
assert pts[-1][1] > pts[0][1], "the loss fell, so the curve's end must sit lower (larger y)"
assert os.path.getsize(sys.argv[1]) > 2000
PY
# Finite values whose span is beyond a double (a loss of -1e308 and 1e308, steps as far apart):
# every coordinate still a number inside the frame.
printf '{"step":0,"loss":-1}\n{"step":1,"loss":1e308}\n{"step":2,"loss":-1.7e308}\n' >wide-loss.jsonl
printf '{"step":-1e308,"loss":1}\n{"step":1e308,"loss":2}\n' >wide-step.jsonl
for m in wide-loss wide-step; do
  run "$NLTRAIN" plot $m.jsonl --out $m.svg
  expect_rc 0
  /usr/bin/env python3 - $m.svg <<'PY' || fail "plot $m: coordinates"
import math, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
line = [e for e in root.iter("{http://www.w3.org/2000/svg}polyline") if e.get("id") == "loss"][0]
pts = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
assert all(math.isfinite(v) for p in pts for v in p), pts
assert all(70 <= x <= 780 and 40 <= y <= 400 for x, y in pts), pts
assert "nan" not in open(sys.argv[1]).read().lower()
PY
done
finish
