"""Validates an `atenia simulate --trace-out` file against the Chrome trace-event format
(the JSON Object Format of the Trace Event Format document, which Perfetto imports) and the
promises of atenia(1): one track per stream and per device, named slices, slices on one
track that never overlap, pressure counters, every RUN of the timeline as a slice on its
stream and on a device, and causal order (a transfer of a tensor ends before a kernel that
reads it starts). Python 3 standard library only: neither Debian nor the venv packages
Perfetto's trace processor.  Usage: trace_check.py TRACE TIMELINE"""
import json
import re
import sys

doc = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
assert isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list), "no traceEvents array"
assert doc.get("displayTimeUnit") in ("ms", "ns")
ev = doc["traceEvents"]
names = {}
for e in ev:
    assert isinstance(e, dict) and e.get("ph") in ("X", "M", "C"), e
    assert isinstance(e.get("pid"), int) and isinstance(e.get("name"), str) and e["name"], e
    if e["ph"] == "M":
        assert e["name"] in ("process_name", "thread_name") and isinstance(e["args"]["name"], str), e
        if e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    elif e["ph"] == "X":
        assert isinstance(e.get("tid"), int) and (e["pid"], e["tid"]) in names, e
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0 and isinstance(e["dur"], (int, float)) and e["dur"] > 0, e
    else:
        assert isinstance(e["ts"], (int, float)) and e["args"] and all(isinstance(v, (int, float)) for v in e["args"].values()), e
tracks = set(names.values())
for t in ("ticks", "stream Cpu", "stream Gpu", "stream SsdPrefetch", "CPU", "GPU", "RAM<->VRAM", "RAM<->SSD"):
    assert t in tracks, ("missing track", t, tracks)
slices = [e for e in ev if e["ph"] == "X"]
by_track = {}
for e in slices:
    by_track.setdefault((e["pid"], e["tid"]), []).append(e)
for key, es in by_track.items():
    es.sort(key=lambda e: e["ts"])
    for a, b in zip(es, es[1:]):
        assert a["ts"] + a["dur"] <= b["ts"] + 1e-9, ("overlap on", names[key], a["name"], b["name"])
assert any(e["ph"] == "C" and "pressure" in e["name"] for e in ev), "no pressure counters"
runs = [l for l in lines if l.startswith("RUN ")]
for l in runs:
    on = [names[(e["pid"], e["tid"])] for e in slices if e.get("args", {}).get("line") == l]
    stream = re.search(r"stream=(\S+)", l).group(1)
    assert "stream " + stream in on and len(on) == 2, (l, on)
    assert not re.search(r"^(RUN|ENQUEUE)$", [e["name"] for e in slices if e.get("args", {}).get("line") == l][0])
# Causal: for each tensor-named transfer, the next compute slice after it (by timeline
# order) that lists the tensor starts no earlier than the transfer ends.
first = {}
for e in slices:
    if e["cat"] in ("transfer", "compute") and e["pid"] == 1:
        first.setdefault(e["args"]["line"], e)
order = [first[l] for l in runs if l in first]
for i, t in enumerate(order):
    if t["cat"] != "transfer":
        continue
    later = [k for k in order[i + 1:] if k["cat"] == "compute"]
    if later:
        assert later[0]["ts"] >= t["ts"] + t["dur"] - 1e-9, (t["name"], later[0]["name"])
ticks = [e["name"] for e in slices if e["cat"] == "tick"]
assert ticks == [l[len("TICK_START "):] for l in lines if l.startswith("TICK_START ")], ticks
print("trace ok:", len(slices), "slices on", len(by_track), "tracks")
