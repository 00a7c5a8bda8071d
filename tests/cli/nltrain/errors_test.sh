#!/usr/bin/env bash
# nltrain's bad input and faults: one line on stderr, the suite's exit code, no partial output,
# and a good checkpoint never replaced by a bad one.
NLTRAIN=$1
. "$(dirname "$0")/cli_assert.sh"
# An old-format run directory (checkpoint.nltrain v2, written by nltrain 1.0.0+g1e4c816 with
# train --steps 40 --checkpoint-every 5 --stop-at 20 --d 8 --heads 2 --seq-len 8 --levels 2).
LEGACY=$(cd "$(dirname "$0")/../../../fixtures/nltrain/legacy-run-d8" && pwd)/checkpoint.nltrain
cd "$WORK" || exit 2
SMALL=(--d 8 --heads 2 --seq-len 8 --quiet)

# Usage.
run "$NLTRAIN" trian
expect_error 2 'unknown command "trian"; did you mean "train"? Commands: train'
run "$NLTRAIN" train --stepz 3
expect_error 2 "did you mean --steps?"
run "$NLTRAIN" train --rule lstm
expect_error 3 '--rule: unknown rule "lstm"; one of delta titans'
run "$NLTRAIN" gradcheck --rule DeltaRule --levels 1
expect_rc 0
run "$NLTRAIN" gradcheck --rule TITANSLMM --levels 1
expect_rc 0
run "$NLTRAIN" gradcheck --rule delta --all-rules
expect_error 2 "--rule excludes --all-rules"
# An empty --out is refused, never read as "not given" (train wrote into nltrain-run).
for cmd in "init --d 8 --heads 2 --seq-len 8" "train ${SMALL[*]} --steps 2" "plot none.jsonl" "grads none.json"; do
  # shellcheck disable=SC2086
  run "$NLTRAIN" $cmd --out ''
  expect_error 2 "--out: must not be empty"
  [ ! -e nltrain-run ] || fail "$cmd --out '': wrote nltrain-run"
done
run "$NLTRAIN" train --levels 0
expect_error 3 "levels: must be in 1..6"
run "$NLTRAIN" train --schedule sometimes --out x
expect_error 3 '--schedule: unknown schedule "sometimes"; one of fixed learned'
run "$NLTRAIN" train --schedule "" --out x
expect_error 3 '--schedule: unknown schedule ""; one of fixed learned'
run "$NLTRAIN" train --schedule learned --levels 1 --out x
expect_error 3 "schedule: learned needs k >= 2"
run "$NLTRAIN" init --schedule learned --levels 1 --out -
expect_error 3 "schedule: learned needs k >= 2"
echo '{"schedule": "often"}' >sched.json
run "$NLTRAIN" train --config sched.json --out x
expect_error 2 "sched.json: /schedule: expected one of fixed, learned; got 'often'"
echo '{"schedule": "learned", "levels": 1}' >sched1.json
run "$NLTRAIN" train --config sched1.json --out x
expect_error 3 "schedule: learned needs k >= 2"
echo '{"schedule": "learned", "levels": 2, "d": 8, "heads": 2, "seq_len": 8}' >sched2.json
run "$NLTRAIN" init --config sched2.json --out sched2-state.json
expect_rc 0
/usr/bin/env python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["config"]["schedule"] == "learned" and [p["name"] for p in j["parameters"]][-2:] == ["W_freq", "b_freq"], j["config"]' sched2-state.json || fail "init: learned schedule not in the state"
[ ! -e x/checkpoint ] || fail "a failed start wrote a checkpoint"

# Inconsistent configuration: on the command line and in a --config file.
run "$NLTRAIN" train --d 30 --heads 4 --out x
expect_error 3 "heads: must divide d=30"
run "$NLTRAIN" train --seq-len 8 --window 9 --out x
expect_error 3 "window"
echo '{"d": 32, "heds": 4}' >bad.json
run "$NLTRAIN" train --config bad.json --out x
expect_error 2 "bad.json: /heds: unknown key; expected one of rule, levels, schedule, vocab, d, heads"
echo '{"d": -4}' >neg.json
run "$NLTRAIN" train --config neg.json --out x
expect_error 2 "neg.json: /d: expected a non-negative integer, got -4"
# Wrong types and oversized values: one line, the path, the value quoted and cut.
echo '{"lr": "fast"}' >type.json
run "$NLTRAIN" train --config type.json --out x
expect_error 2 'type.json: /lr: expected a number, got "fast"'
/usr/bin/env python3 -c 'import json; json.dump({"rule": "z" * 300000}, open("longrule.json", "w"))'
run "$NLTRAIN" train --config longrule.json --out x
expect_error 2 "longrule.json: /rule: unknown rule"
expect_err_one_line
[ "$(wc -c <"$WORK/err")" -lt 600 ] || fail "a 300 KB rule name was echoed: $(wc -c <"$WORK/err") bytes on stderr"
echo '{"rule": "delta", "d": 16, "heads": 3}' >incons.json
run "$NLTRAIN" train --config incons.json --out x
expect_error 3 "heads: must divide d=16"
[ ! -e x/checkpoint ] || fail "a failed start wrote a checkpoint"

# Corpus: empty, unreadable, a directory, too short; non-UTF-8 bytes are just bytes.
: >empty.txt
run "$NLTRAIN" train --data empty.txt --out x
expect_error 2 "empty.txt is empty"
run "$NLTRAIN" train --data missing.txt --out x
expect_error 2 "missing.txt"
run "$NLTRAIN" train --data "$WORK" --out x
expect_error 2 "is a directory"
printf 'abc' >short.txt
run "$NLTRAIN" train --data short.txt --out x
expect_error 2 "short.txt holds 3 bytes; one chunk needs seq_len + 1 = 33"
head -c 3000 /dev/urandom >binary.dat
run "$NLTRAIN" train --data binary.dat --steps 3 --out bin "${SMALL[@]}"
expect_rc 0

# A good old-format checkpoint, then damaged copies of it (the old reader's checks stand).
mkdir good && cp "$LEGACY" good/checkpoint.nltrain
cp "$LEGACY" keep.bin
check_bad() {  # $1: file content producer name, $2: expected message
  mkdir -p bad && cp "$1" bad/checkpoint.nltrain
  run "$NLTRAIN" eval --checkpoint bad
  expect_error 2 "$2"
  run "$NLTRAIN" train --resume bad
  expect_error 2 "$2"
}
head -c 1000 keep.bin >trunc.bin
check_bad trunc.bin "truncated or extended checkpoint"
head -c 10 keep.bin >tiny.bin
check_bad tiny.bin "truncated checkpoint (10 bytes)"
cp keep.bin flip.bin
printf '\x55' | dd of=flip.bin bs=1 seek=5000 conv=notrunc status=none
check_bad flip.bin "checksum mismatch: the checkpoint is corrupt"
echo '{"not": "a checkpoint"}' >foreign.bin
check_bad foreign.bin 'not an nltrain checkpoint'
cp keep.bin newer.bin
printf '\x04' | dd of=newer.bin bs=1 seek=8 conv=notrunc status=none
check_bad newer.bin "checkpoint format version 4 is newer than this nltrain reads (3)"
# A version-1 checkpoint (written before the schedule byte) still loads, as a fixed schedule.
/usr/bin/env python3 - keep.bin v1.bin <<'PY' || fail "making a version-1 checkpoint"
import hashlib, struct, sys
b = open(sys.argv[1], "rb").read()
assert struct.unpack("<I", b[8:12])[0] == 2
body, k = b[20:-32], 2
at = 5 * 8 + 1 + 4 * 8 + 7 * 8 + 1 + 8 + 8 * k + 8  # after the seed: the schedule byte (0: fixed)
assert body[at] == 0
body = body[:at] + body[at + 1:]
out = b[:8] + struct.pack("<IQ", 1, len(body)) + body
open(sys.argv[2], "wb").write(out + hashlib.sha256(out).digest())
PY
mkdir -p old && cp v1.bin old/checkpoint.nltrain
run "$NLTRAIN" eval --checkpoint good --json
expect_rc 0
cp "$WORK/out" good-eval.json
run "$NLTRAIN" eval --checkpoint old --json
expect_rc 0
/usr/bin/env python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); assert a["loss"] == b["loss"], (a, b)' good-eval.json "$WORK/out" \
  || fail "a version-1 checkpoint evaluates differently from its version-2 twin"
run "$NLTRAIN" eval --checkpoint nowhere
expect_error 2 "nowhere: no checkpoint here"

# Two trainers on one directory: the second is refused while the first holds the lock.
flock good -c 'sleep 5' &
holder=$!
# Until the holder has the lock (a fixed wait can end first on a loaded machine).
for _ in $(seq 1 600); do flock -n good true 2>/dev/null || break; sleep 0.05; done
run "$NLTRAIN" train --resume good
expect_error 2 "another nltrain is training into this directory"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
cmp -s keep.bin good/checkpoint.nltrain || fail "the refused trainer touched the checkpoint"
[ ! -e good/checkpoint ] || fail "the refused trainer wrote a checkpoint"

# Two real trainers: the second is refused while the first runs; the first finishes intact.
"$NLTRAIN" train --steps 1000000 --out two --metrics two.jsonl "${SMALL[@]}" >two.out 2>two.err &
first=$!
for _ in $(seq 1 600); do
  [ -s two.jsonl ] && break
  sleep 0.05
done
run "$NLTRAIN" train --steps 10 --out two --force "${SMALL[@]}"
expect_error 2 "two: another nltrain is training into this directory"
kill -INT "$first"
wait "$first"
RC=$?
LAST="first trainer after SIGINT"
expect_rc 0
run "$NLTRAIN" eval --checkpoint two --max-chunks 1
expect_rc 0

# A full disk during a checkpoint (RLIMIT_FSIZE: writes past 16 KiB fail with EFBIG; the 32 KiB
# blob of E does): exit 2, one line, the previous checkpoint unchanged file for file, no
# temporary or backup left behind.
cp -r good big
run "$NLTRAIN" train --steps 20 --checkpoint-every 5 --out big32 --quiet --stop-at 10
expect_rc 0
cp -r big32 big32.keep
(ulimit -f 16; trap '' XFSZ; exec "$NLTRAIN" train --resume big32 --quiet) >"$WORK/out" 2>"$WORK/err" </dev/null
RC=$?
LAST="train --resume big32 under ulimit -f 16"
expect_rc 2
expect_err_one_line
expect_err_has "cannot write checkpoint big32/checkpoint/checkpoint.meta"
expect_err_has "the previous checkpoint is unchanged"
diff -r big32.keep big32 >/dev/null || fail "a failed write changed the run directory: $(diff -rq big32.keep big32)"
run "$NLTRAIN" eval --checkpoint big32 --max-chunks 2
expect_rc 0

# stdout on a full device.
if [ -c /dev/full ]; then
  "$NLTRAIN" gradcheck --rule delta >/dev/full 2>"$WORK/err"
  RC=$?
  LAST="gradcheck >/dev/full"
  expect_rc 2
  expect_err_has "cannot write to stdout"
  "$NLTRAIN" train --steps 3 --out full "${SMALL[@]}" --metrics - >/dev/full 2>"$WORK/err"
  RC=$?
  LAST="train --metrics - >/dev/full"
  expect_rc 2
  expect_err_has "--metrics -: cannot write to stdout"
fi

# NaN/Inf: stop, say at which step, keep the last good checkpoint.
run "$NLTRAIN" train --lr 1e30 --steps 50 --checkpoint-every 1 --out nan "${SMALL[@]}"
expect_rc 1
expect_err_one_line
expect_err_has "NaN or Inf in the loss or gradients"
step=$(sed -nE 's/^nltrain: step ([0-9]+): .*/\1/p' "$WORK/err")
saved=$(sed -nE 's/.*last good checkpoint \(after ([0-9]+) steps\).*/\1/p' "$WORK/err")
[ -n "$step" ] && [ "$saved" == "$step" ] || fail "NaN step $step, kept checkpoint after $saved steps"
# The kept checkpoint loads: resuming it reaches the same step and stops there again.
run "$NLTRAIN" train --resume nan
expect_rc 1
expect_err_has "nltrain: step $step: NaN or Inf"

# A state with a missing or out-of-range parameter, and a missing state file.
run "$NLTRAIN" init --d 8 --heads 2 --seq-len 8 --out st.json
expect_rc 0
/usr/bin/env python3 -c '
import json
s = json.load(open("st.json"))
del s["parameters"][3]
json.dump(s, open("st_missing.json", "w"))
s = json.load(open("st.json"))
s["parameters"][0]["data"][5] = 1e39
json.dump(s, open("st_big.json", "w"))'
run "$NLTRAIN" grads st_missing.json
expect_error 2 'st_missing.json: /parameters: missing parameter "W_V"'
run "$NLTRAIN" grads st_big.json
expect_error 2 "st_big.json: /parameters/0/data/5: expected a finite fp32 value, got 1e+39"
# The state reader: unknown keys, wrong types and missing keys name their JSON path.
/usr/bin/env python3 -c '
import json
s = json.load(open("st.json"))
s["config"]["hedas"] = 2
json.dump(s, open("st_key.json", "w"))
s = json.load(open("st.json"))
s["tokens"]["ids"][2] = "a"
json.dump(s, open("st_type.json", "w"))
s = json.load(open("st.json"))
del s["config"]["d"]
json.dump(s, open("st_nod.json", "w"))'
run "$NLTRAIN" grads st_key.json
expect_error 2 "st_key.json: /config/hedas: unknown key; expected one of vocab, d, heads"
run "$NLTRAIN" grads st_type.json
expect_error 2 'st_type.json: /tokens/ids/2: expected a non-negative integer, got "a"'
run "$NLTRAIN" grads st_nod.json
expect_error 2 "st_nod.json: /config: missing required key 'd'"
run "$NLTRAIN" grads nothere.json
expect_error 2 "nothere.json"
# A target id >= vocab is an ignored position (nltrain-math section 9), whatever its size: the
# loss is that of the other positions, the same for 256 and 2^64-1.
/usr/bin/env python3 -c '
import json
s = json.load(open("st.json"))
s["tokens"]["targets"][0] = 256
json.dump(s, open("st_target.json", "w"))
s["tokens"]["targets"][0] = 18446744073709551615
json.dump(s, open("st_target64.json", "w"))'
"$NLTRAIN" grads st_target.json --out t256.json || fail "grads with an ignored target 256"
"$NLTRAIN" grads st_target64.json --out t64.json || fail "grads with an ignored target 2^64-1"
"$NLTRAIN" grads st.json --out t0.json || fail "grads"
/usr/bin/env python3 -c 'import json,sys; a,b,c=(json.load(open(f))["loss"] for f in sys.argv[1:]); assert a == b != c, (a, b, c)' \
  t256.json t64.json t0.json || fail "an ignored target changed the loss differently for 256 and 2^64-1, or not at all"

# A start refused once the run directory was taken leaves no directory behind (the run's own,
# nested ones too), and never removes one that was there already.
head -c 3000 /dev/urandom | tr -dc 'a-z ' >refused.txt
for opts in "--episodes ep.jsonl" "--placement-table t.tab" "--memory-budget 0" "--metrics nodir/m.jsonl" \
            "--receipts nodir/r.jsonl" "--trace-out nodir/t.json"; do
  # shellcheck disable=SC2086
  run "$NLTRAIN" train "${SMALL[@]}" --data refused.txt --steps 3 --out refused-run/a/b $opts
  [ "$RC" -ne 0 ] || fail "$opts: not refused"
  [ ! -e refused-run ] || fail "$opts: a refused start left $(find refused-run | head -3 | tr '\n' ' ')"
done
mkdir -p kept-run
run "$NLTRAIN" train "${SMALL[@]}" --data refused.txt --steps 3 --out kept-run --metrics nodir/m.jsonl
expect_rc 2
[ -d kept-run ] || fail "a refused start removed a directory it did not create"

# Output files are never partial: init to a directory fails cleanly.
mkdir outdir
run "$NLTRAIN" init --out outdir --d 8 --heads 2 --seq-len 8
expect_error 2 "outdir: is a directory"
finish
