#!/usr/bin/env bash
# `-` reads standard input wherever an input can be a stream (plot METRICS, grads STATE,
# --config, --data), and a metrics reader that exits early stops training cleanly: a one-line
# message, exit 2, a checkpoint that loads and resumes, no death by SIGPIPE.
NLTRAIN=$1
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
SMALL=(--d 8 --heads 2 --seq-len 8 --quiet)

# train --metrics - | plot -
"$NLTRAIN" train "${SMALL[@]}" --steps 5 --out r1 --metrics - 2>train.err | "$NLTRAIN" plot - --out loss.svg >plot.out 2>plot.err
rcs=("${PIPESTATUS[@]}")
[ "${rcs[0]}" -eq 0 ] && [ "${rcs[1]}" -eq 0 ] || fail "train | plot -: exit codes ${rcs[*]}: $(cat train.err plot.err)"
grep -qF "wrote loss.svg (5 points)" plot.out || fail "plot - did not read the 5 metrics lines: $(cat plot.out plot.err)"
grep -qF '<polyline id="loss"' loss.svg || fail "plot -: no curve in loss.svg"
# plot - names <stdin> in its errors.
run sh -c "echo '{\"step\": 1}' | \"$NLTRAIN\" plot - --out x.svg"
expect_error 2 "<stdin>:1"
[ ! -e x.svg ] || fail "a failed plot wrote its output"

# grads -, --config -, --data -
"$NLTRAIN" init --d 8 --heads 2 --seq-len 8 --out state.json
"$NLTRAIN" grads state.json --out g-file.json
run sh -c "\"$NLTRAIN\" grads - --out g-stdin.json <state.json"
expect_rc 0
cmp -s g-file.json g-stdin.json || fail "grads - differs from grads FILE"
echo '{"d": 8, "heads": 2, "seq_len": 8}' >cfg.json
"$NLTRAIN" init --config cfg.json --out s-file.json
run sh -c "\"$NLTRAIN\" init --config - --out s-stdin.json <cfg.json"
expect_rc 0
cmp -s s-file.json s-stdin.json || fail "init --config - differs from --config FILE"
head -c 3000 /dev/zero | tr '\0' 'a' >text.txt
"$NLTRAIN" init --d 8 --heads 2 --seq-len 8 --data text.txt --out d-file.json
run sh -c "\"$NLTRAIN\" init --d 8 --heads 2 --seq-len 8 --data - --out d-stdin.json <text.txt"
expect_rc 0
cmp -s d-file.json d-stdin.json || fail "init --data - differs from --data FILE"
run sh -c "\"$NLTRAIN\" train --d 8 --heads 2 --seq-len 8 --quiet --steps 3 --data - --out r3 <text.txt"
expect_rc 0
run sh -c "\"$NLTRAIN\" eval --checkpoint r3 --data - <text.txt"
expect_rc 0
expect_out_has "<stdin>"
run "$NLTRAIN" init --config - --data - --out both.json
expect_error 2 "--config and --data cannot both be '-'"

# A reader that exits after the first line: training stops with a checkpoint, exit 2, one line.
"$NLTRAIN" train "${SMALL[@]}" --steps 400 --out r2 --metrics - 2>pipe.err | head -n 1 >first.line
rc=${PIPESTATUS[0]}
[ "$rc" -eq 2 ] || fail "train --metrics - | head -n 1: exit $rc (141 is death by SIGPIPE), expected 2: $(cat pipe.err)"
[ "$(wc -l <pipe.err)" -eq 1 ] || fail "closed pipe: stderr is not one line: $(cat pipe.err)"
grep -qF -- "--metrics -: the reader closed the pipe; training stopped after step" pipe.err || fail "closed pipe: message: $(cat pipe.err)"
grep -qF '"step":0' first.line || fail "head did not get the first metrics line"
run "$NLTRAIN" eval --checkpoint r2 --json
expect_rc 0
stopped=$(sed -E 's/.*after step ([0-9]+),.*/\1/' pipe.err)
expect_out_has "\"checkpoint_step\":$stopped"
run "$NLTRAIN" train --resume r2 --stop-at 399 --quiet
expect_rc 0
finish
