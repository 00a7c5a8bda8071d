#!/usr/bin/env bash
# atenia simulate: modelled durations come from the hardware snapshot's rates. Every expected
# duration here is computed by the test from the scenario and the snapshot (bytes / link
# bandwidth, flops / compute rate, plus the latencies), never copied from atenia's output:
# doubling the RAM->VRAM bandwidth halves the moves, a kernel with twice the flops takes
# twice as long, each rate names its source, and bad rates are refused with exit 3 (or 2 for
# JSON that is not JSON) and one line, before anything is written.
ATENIA=$1
HERE="$(dirname "$0")"
. "$HERE/cli_assert.sh"

# Two GPU kernels (k2 has twice k1's flops) over two 1 MiB tensors that start in RAM, then a
# high-pressure tick that offloads to the SSD.
cat > "$WORK/sc.json" <<'J'
{"gpu_available": true,
 "offload": {"cooldown_ticks": 0, "max_actions_per_tick": 4},
 "tensors": [{"id": "a", "bytes": 1048576, "tier": "ram"}, {"id": "b", "bytes": 1048576, "tier": "ram"}],
 "nodes": [{"name": "k1", "kind": "compute_heavy", "flops": 3000000000, "bytes": 4096, "tensors": ["a"]},
           {"name": "k2", "kind": "compute_heavy", "flops": 6000000000, "bytes": 4096, "tensors": ["b"]}],
 "ticks": [{"vram": {"pressure": 0.1}, "ram": {"pressure": 0.1}},
           {"vram": {"pressure": 0.99}, "ram": {"pressure": 0.99}}]}
J
snap() {  # $1: file, $2: h2d GB/s, $3: GPU GFLOP/s, $4: SSD write MB/s
  cat > "$1" <<J
{"cpu": {"gflops_est": 50},
 "gpus": [{"id": "gpu0", "backend": "cuda", "vram_total_bytes": 8000000000, "vram_free_bytes": 7000000000,
           "h2d_gb_s_est": $2, "d2h_gb_s_est": 12.5, "gflops_est": $3, "launch_us_est": 7}],
 "ssd": {"read_mb_s_est": 3000, "write_mb_s_est": $4, "latency_ms_est": 0.25}}
J
}
snap "$WORK/s1.json" 8 1000 500
snap "$WORK/s2.json" 16 2000 1000
run "$ATENIA" simulate "$WORK/sc.json" --snapshot "$WORK/s1.json" --json
expect_rc 0; expect_err_empty; cp "$WORK/out" "$WORK/r1.jsonl"
run "$ATENIA" simulate "$WORK/sc.json" --snapshot "$WORK/s2.json" --json
expect_rc 0; expect_err_empty; cp "$WORK/out" "$WORK/r2.jsonl"
run "$ATENIA" simulate "$WORK/sc.json" --json
expect_rc 0; cp "$WORK/out" "$WORK/r0.jsonl"
run "$ATENIA" simulate "$WORK/sc.json" --snapshot "$WORK/s1.json" --trace-out "$WORK/trace.json" --timeline-out "$WORK/tl.txt"
expect_rc 0; cp "$WORK/out" "$WORK/r1.txt"

/usr/bin/python3 - "$WORK" <<'PY' || fail "modelled durations do not follow the snapshot's rates"
import json, sys
w = sys.argv[1]
MiB = 1048576

def timing(name):
    recs = [json.loads(l) for l in open(f"{w}/{name}")]
    t = [r for r in recs if "tasks" in r]
    assert len(t) == 1 and "final_tiers" in recs[-1], "one timing record, before the final record"
    return t[0]

def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))

def tasks(t, name, tick=None):
    return [x for x in t["tasks"] if x["task"] == name and tick in (None, x["tick"])]

r1, r2, r0 = timing("r1.jsonl"), timing("r2.jsonl"), timing("r0.jsonl")
for t, h2d, gflops, wr in ((r1, 8e9, 1000e9, 500e6), (r2, 16e9, 2000e9, 1000e6)):
    launch, lat = 7.0, 250.0
    for k, flops in (("k1", 3e9), ("k2", 6e9)):
        (x,) = tasks(t, k, 0)
        assert x["device"] == "GPU" and x["stream"] == "Gpu", x
        assert close(x["dur_us"], launch + flops / gflops * 1e6), (k, x["dur_us"], launch + flops / gflops * 1e6)
    for i in ("a", "b"):
        (m,) = tasks(t, f"move:ram->vram:{i}")
        assert m["device"] == "RAM<->VRAM" and close(m["dur_us"], MiB / h2d * 1e6), (m, MiB / h2d * 1e6)
    # Tick 1 runs on the CPU (VRAM pressure): moves back at 12.5 GB/s, kernels at 50 GFLOP/s.
    for i in ("a", "b"):
        (m,) = tasks(t, f"move:vram->ram:{i}")
        assert close(m["dur_us"], MiB / 12.5e9 * 1e6), m
    (k1cpu,) = tasks(t, "k1", 1)
    assert k1cpu["device"] == "CPU" and close(k1cpu["dur_us"], 3e9 / 50e9 * 1e6), k1cpu
    offs = [x for x in t["tasks"] if x["task"].startswith("offload:ram->ssd:")]
    assert offs, "no offload to SSD was timed"
    for o in offs:
        assert o["device"] == "RAM<->SSD" and close(o["dur_us"], lat + MiB / wr * 1e6), (o, lat + MiB / wr * 1e6)
    # Causal: a tensor's move ends before the kernel that reads it starts; tasks never overlap on a device.
    for k, i in (("k1", "a"), ("k2", "b")):
        (m,) = tasks(t, f"move:ram->vram:{i}")
        (x,) = tasks(t, k, 0)
        assert x["start_us"] >= m["start_us"] + m["dur_us"] - 1e-9, (k, x, m)
    by_dev = {}
    for x in t["tasks"]:
        by_dev.setdefault(x["device"], []).append(x)
    for dev, xs in by_dev.items():
        xs.sort(key=lambda x: x["start_us"])
        for p, q in zip(xs, xs[1:]):
            assert q["start_us"] >= p["start_us"] + p["dur_us"] - 1e-9, (dev, p, q)
    end = max(x["start_us"] + x["dur_us"] for x in t["tasks"])
    assert close(t["total_us"], end), (t["total_us"], end)

# Doubling the bandwidth halves the moves; doubling the flops doubles the kernel time (launch aside).
m1 = tasks(r1, "move:ram->vram:a")[0]["dur_us"]; m2 = tasks(r2, "move:ram->vram:a")[0]["dur_us"]
assert close(m1, 2 * m2), (m1, m2)
k1 = tasks(r1, "k1", 0)[0]["dur_us"] - 7; k2 = tasks(r1, "k2", 0)[0]["dur_us"] - 7
assert close(k2, 2 * k1), (k1, k2)

src = lambda t: {r["name"]: (r["source"], r["field"], r["value"]) for r in t["rates"]}
s1, s0 = src(r1), src(r0)
assert s1["ram_to_vram"] == ("snapshot", "/gpus/0/h2d_gb_s_est", 8e9), s1["ram_to_vram"]
assert s1["ssd_latency"] == ("snapshot", "/ssd/latency_ms_est", 250.0), s1["ssd_latency"]
assert s1["cpu_mem"][0] == "default" and s1["gpu_mem"][0] == "default", s1
assert all(v[0] == "default" for v in s0.values()), s0
# Without a snapshot the documented defaults time the tasks: RAM->VRAM 16 GB/s, GPU 10 TFLOP/s.
assert close(tasks(r0, "move:ram->vram:a")[0]["dur_us"], MiB / 16e9 * 1e6)
assert close(tasks(r0, "k1", 0)[0]["dur_us"], 3e9 / 10e12 * 1e6)

# The text form carries the same numbers (to the nanosecond) and names each rate's source.
text = open(f"{w}/r1.txt").read().splitlines()
assert "RATE name=ram_to_vram value=8000000000 unit=B/s source=snapshot field=/gpus/0/h2d_gb_s_est" in text
assert "RATE name=cpu_mem value=20000000000 unit=B/s source=default field=/cpu/mem_gb_s_est" in text
line = [l for l in text if l.startswith("TIME tick=0 ") and " task=move:ram->vram:a " in l][0]
assert line.endswith(" dur_us=%.3f" % (MiB / 8e9 * 1e6)), line
# The trace's slices have the modelled durations.
tr = json.load(open(f"{w}/trace.json"))["traceEvents"]
sl = [e for e in tr if e.get("ph") == "X" and e["name"] == "move a ram->vram" and e["pid"] == 2]
assert sl and close(sl[0]["dur"], MiB / 8e9 * 1e6), sl
PY
/usr/bin/python3 "$HERE/trace_check.py" "$WORK/trace.json" "$WORK/tl.txt" >/dev/null || fail "trace check failed"

# --profile: rates probed from this machine now; the CPU and the SSD are measured, so their
# rates are "profiled".
run "$ATENIA" simulate "$WORK/sc.json" --profile --cache-dir "$WORK/pc"
expect_rc 0
grep -qE '^RATE name=ram_to_ssd value=[1-9][0-9]* unit=B/s source=profiled field=/ssd/write_mb_s_est$' "$WORK/out" \
  || fail "--profile did not time SSD writes with the probed rate"
for r in cpu_flops:flop/s:/cpu/gflops_est cpu_mem:B/s:/cpu/mem_gb_s_est ssd_to_ram:B/s:/ssd/read_mb_s_est; do
  IFS=: read -r name unit field <<< "$r"
  grep -qE "^RATE name=$name value=[1-9][0-9]* unit=$unit source=profiled field=$field\$" "$WORK/out" \
    || fail "--profile did not measure $name"
done
# profile does not measure RAM<->VRAM copies: that rate is the documented default, and says so.
expect_out_has "RATE name=ram_to_vram value=16000000000 unit=B/s source=default field=/gpus/0/h2d_gb_s_est"
# sc.json says a GPU is available. A profile that finds no GPU says so plainly and models the GPU
# work on the CPU (main ran k1 "on the GPU" at the default 10 TFLOP/s); with a GPU, it is used.
run "$ATENIA" profile --json --cache-dir "$WORK/pc2"
expect_rc 0
gpus=$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["gpus"]))' "$WORK/out")
run "$ATENIA" simulate "$WORK/sc.json" --profile --cache-dir "$WORK/pc"
expect_rc 0
if [ "$gpus" = 0 ]; then
  expect_err_eq "atenia: note: --profile found no GPU on this machine; the scenario's GPU work is modelled on the CPU (gpu_available taken as false)"
  grep -q "device=GPU" "$WORK/out" && fail "work was timed on a GPU this machine does not have"
  expect_out_has "TIME tick=0 stream=Cpu device=CPU task=k1 "
else
  expect_err_empty
  expect_out_has "device=GPU task=k1 "
fi
run "$ATENIA" simulate "$WORK/sc.json" --profile --snapshot "$WORK/s1.json"
expect_rc 2; expect_out_empty

# Bad rates: one line naming the file and the field, exit 3, nothing on stdout, no output file.
badrate() {  # $1: JSON fragment for gpus[0], $2: expected exit code, $3: expected stderr
  printf '{"gpus":[{"id":"gpu0","vram_total_bytes":8,"vram_free_bytes":8,%s}]}' "$1" > "$WORK/bad.json"
  run "$ATENIA" simulate "$WORK/sc.json" --snapshot "$WORK/bad.json" --plans-out "$WORK/never.jsonl" --cache-dir "$WORK/never"
  expect_rc "$2"; expect_out_empty
  [ -z "$3" ] || expect_err_eq "atenia: $WORK/bad.json: $3"
  [ "$(wc -l < "$WORK/err")" -eq 1 ] || fail "error is not one line"
  [ ! -e "$WORK/never.jsonl" ] && [ ! -e "$WORK/never" ] || fail "something was written for a bad snapshot"
  grep -qiE 'inf|nan' "$WORK/out" && fail "inf/nan in the output"
}
badrate '"h2d_gb_s_est":0' 3 '/gpus/0/h2d_gb_s_est: expected a number in [0.001, 1000000] (GB/s), got 0'
badrate '"h2d_gb_s_est":-16' 3 '/gpus/0/h2d_gb_s_est: expected a number in [0.001, 1000000] (GB/s), got -16'
badrate '"d2h_gb_s_est":1e-300' 3 '/gpus/0/d2h_gb_s_est: expected a number in [0.001, 1000000] (GB/s), got 1e-300'
badrate '"gflops_est":1e300' 3 '/gpus/0/gflops_est: expected a number in [0.001, 1000000000] (GFLOP/s), got 1e+300'
badrate '"launch_us_est":-1' 3 '/gpus/0/launch_us_est: expected a number in [0, 1000000000] (us), got -1'
badrate '"h2d_gb_s_est":1e400' 2 ''
badrate '"h2d_gb_s_est":NaN' 2 ''
badrate '"h2d_gb_s_est":"16"' 2 '/gpus/0/h2d_gb_s_est: expected a number, got "16"'
for bad in '{"ssd":{"write_mb_s_est":0}}' '{"ssd":{"read_mb_s_est":-5}}' '{"cpu":{"gflops_est":0}}' '{"cpu":{"mem_gb_s_est":2e6}}' \
           '{"ssd":{"latency_ms_est":-0.1}}'; do
  printf '%s' "$bad" > "$WORK/bad.json"
  run "$ATENIA" simulate "$WORK/sc.json" --snapshot "$WORK/bad.json"
  expect_rc 3; expect_out_empty
  grep -qE "^atenia: $WORK/bad.json: /(ssd|cpu)/[a-z_]+: expected a number in \[" "$WORK/err" || fail "no one-line domain error for $bad"
done
# The smallest and largest accepted rates still give finite durations.
snap "$WORK/tiny.json" 0.001 0.001 0.001
run "$ATENIA" simulate "$WORK/sc.json" --snapshot "$WORK/tiny.json" --json
expect_rc 0
/usr/bin/python3 -c 'import json,math,sys
t=[json.loads(l) for l in open(sys.argv[1])][-2]
assert all(math.isfinite(x["dur_us"]) and x["dur_us"] > 0 for x in t["tasks"]) and math.isfinite(t["total_us"])' "$WORK/out" \
  || fail "durations are not finite at the smallest rates"
snap "$WORK/huge.json" 1000000 1000000000 1000000000
run "$ATENIA" simulate "$WORK/sc.json" --snapshot "$WORK/huge.json" --json
expect_rc 0
/usr/bin/python3 -c 'import json,math,sys
t=[json.loads(l) for l in open(sys.argv[1])][-2]
assert all(math.isfinite(x["dur_us"]) and x["dur_us"] >= 0.001 for x in t["tasks"])' "$WORK/out" \
  || fail "durations are not finite and at least 1 ns at the largest rates"
# A snapshot on stdin; scenario and snapshot both on stdin is refused.
run bash -c '"$0" simulate "$1" --snapshot - < "$2"' "$ATENIA" "$WORK/sc.json" "$WORK/s1.json"
expect_rc 0; expect_out_has "RATE name=ram_to_vram value=8000000000 unit=B/s source=snapshot"
run bash -c '"$0" simulate - --snapshot - < "$1"' "$ATENIA" "$WORK/sc.json"
expect_rc 2; expect_err_eq "atenia: scenario and --snapshot cannot both be read from stdin"
finish
