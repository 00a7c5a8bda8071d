#!/usr/bin/env bash
# nltrain train --memory-budget, measured as issue 26 item 3 asks (by hand; not a ctest: it takes
# minutes and asserts on no time). Three runs of one configuration in WORK:
#   U  unbudgeted                    (/usr/bin/time -v: peak RSS)
#   A  --memory-budget 1T            (nothing moves; its metrics give the caches' size per step)
#   B  --memory-budget BUDGET        (default: the least accepted, from the refusal of 1 byte;
#                                     "1/N": run A's caches per step over N, e.g. 1/4 for a quarter)
# and, in the same directory and the same run, the disk's raw rate: dd of 512 MiB with
# conv=fsync, then read back. Prints: the losses of U and B compared bit for bit, the checkpoints
# compared, peak RSS of each, B's spill traffic and its rate against dd's write+read rate.
# usage: nltrain_memory_budget.sh NLTRAIN WORK [D S K STEPS BUDGET CODEC]
#   (defaults 256 512 2 20, the least budget, zstd; BUDGET may be "" for the least, 1/N as above)
# Use a build without sanitizers (ASan's quarantine holds freed memory: RSS means nothing there).
set -eu
NLTRAIN=$(realpath "$1")
WORK=$2 D=${3:-256} S=${4:-512} K=${5:-2} STEPS=${6:-20} BUDGET=${7:-} CODEC=${8:-zstd}
mkdir -p "$WORK" && cd "$WORK" && rm -rf U A B ./*.jsonl ./*.time dd.bin
ARGS=(--d "$D" --heads 4 --seq-len "$S" --levels "$K" --steps "$STEPS" --checkpoint-every "$STEPS" --quiet)
rss() { sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+)/\1/p' "$1"; }

dd if=/dev/zero of=dd.bin bs=1M count=512 conv=fsync 2>dd_write.txt
dd if=dd.bin of=/dev/null bs=1M 2>dd_read.txt
rm -f dd.bin
dd_s() { sed -nE 's/.* copied, ([0-9.]+) s,.*/\1/p' "$1"; }
W_S=$(dd_s dd_write.txt) R_S=$(dd_s dd_read.txt)

/usr/bin/time -v "$NLTRAIN" train "${ARGS[@]}" --out U --metrics U.jsonl 2>U.time
/usr/bin/time -v "$NLTRAIN" train "${ARGS[@]}" --out A --metrics A.jsonl --memory-budget 1T 2>A.time
case "$BUDGET" in
  1/*) BUDGET=$(( $(sed -nE 's/.*"peak_resident_bytes":([0-9]+).*/\1/p' A.jsonl | sort -n | tail -1) / ${BUDGET#1/} )) ;;
esac
if [ -z "$BUDGET" ]; then
  "$NLTRAIN" train "${ARGS[@]}" --out B --memory-budget 1 2>refusal.txt || true
  BUDGET=$(sed -nE 's/.*at least ([0-9]+) bytes are needed.*/\1/p' refusal.txt)
  rm -rf B
fi
/usr/bin/time -v "$NLTRAIN" train "${ARGS[@]}" --out B --metrics B.jsonl --memory-budget "$BUDGET" --spill-codec "$CODEC" --metrics-timing 2>B.time

python3 - "$BUDGET" "$W_S" "$R_S" "$(rss U.time)" "$(rss A.time)" "$(rss B.time)" <<'PY'
import json, sys
budget, w_s, r_s, rss_u, rss_a, rss_b = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), *map(int, sys.argv[4:7])
def load(p): return [json.loads(l) for l in open(p)]
u, a, b = load("U.jsonl"), load("A.jsonl"), load("B.jsonl")
key = lambda l: (l["step"], l["loss"], l["grad_norm"], l["lr"])
print("steps %d; losses U == B bit for bit: %s (first %r, last %r)" % (len(u), [key(x) for x in u] == [key(x) for x in b], u[0]["loss"], u[-1]["loss"]))
cache = max(l["memory"]["peak_resident_bytes"] for l in a)
moved = sum(l["memory"]["spilled_bytes"] + l["memory"]["restored_bytes"] for l in b)
stored = sum(l["memory"]["stored_bytes"] for l in b)
spilled = sum(l["memory"]["spilled_bytes"] for l in b)
secs = sum(l["memory"]["write_s"] + l["memory"]["read_s"] for l in b)
MiB = 1 << 20
raw = 2 * 512 / (w_s + r_s)
print("caches per step (run A's peak resident): %.1f MiB; budget %.1f MiB (%.2f of it)" % (cache / MiB, budget / MiB, budget / cache))
print("peak RSS: unbudgeted %.1f MiB, budget 1T %.1f MiB, budgeted %.1f MiB; budgeted - budget = %.1f MiB; unbudgeted - caches = %.1f MiB"
      % (rss_u / 1024, rss_a / 1024, rss_b / 1024, rss_b / 1024 - budget / MiB, rss_u / 1024 - cache / MiB))
print("spilled %.1f MiB (stored %.1f MiB after the codec, %.2f), moved out+back %.1f MiB in %.2f s: %.0f MiB/s"
      % (spilled / MiB, stored / MiB, stored / max(spilled, 1), moved / MiB, secs, moved / MiB / max(secs, 1e-9)))
print("dd 512 MiB: write+fsync %.2f s, read %.2f s: write+read %.0f MiB/s; spill rate / raw = %.2f"
      % (w_s, r_s, raw, moved / MiB / max(secs, 1e-9) / raw))
PY
diff -r U/checkpoint B/checkpoint >/dev/null && diff -r U/blobs B/blobs >/dev/null && echo "checkpoints U == B: byte for byte" || echo "checkpoints U != B"
