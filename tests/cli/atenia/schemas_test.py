#!/usr/bin/python3
"""atenia's inputs and --json outputs against schemas/atenia-*.v0.1.0.json (and the v0.2.0 of
the episode and of explain's result: spill placement), with Python's
jsonschema (Debian's): the fixtures and hand-made inputs, and the real outputs of place,
learn, simulate (every line) and checkpoint inspect. A schema that rejects a real output,
or accepts a malformed one, fails the test.

usage: schemas_test.py <atenia> <fixtures/atenia dir> <schemas dir>"""
import glob
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

atenia, fixtures, schemas = sys.argv[1:4]
failures = []


def schema(name, version="0.1.0"):
    with open(os.path.join(schemas, name + ".v" + version + ".json")) as f:
        s = json.load(f)
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


def valid(name, doc, what, version="0.1.0"):
    errors = list(schema(name, version).iter_errors(doc))
    if errors:
        failures.append("%s does not match %s: %s" % (what, name, errors[0].message))


def invalid(name, doc, what, version="0.1.0"):
    if not list(schema(name, version).iter_errors(doc)):
        failures.append("%s should not match %s" % (what, name))


def run(*args, rc=0):
    p = subprocess.run([atenia, *args], capture_output=True, text=True)
    if p.returncode != rc:
        failures.append("%s: exit %d, want %d: %s" % (" ".join(args), p.returncode, rc, p.stderr.strip()))
    return p.stdout


with tempfile.TemporaryDirectory() as w:
    # Inputs.
    for f in sorted(glob.glob(os.path.join(fixtures, "*.json"))):
        valid("atenia-scenario", json.load(open(f)), f)
    invalid("atenia-scenario", {"gpu_available": True, "tensors": [], "nodes": [], "ticks": [], "x": 1}, "unknown key")
    snap = {"gpus": [{"id": "gpu0", "backend": "cuda", "vram_total_bytes": 8000000000, "vram_free_bytes": 7000000000}],
            "ram": {"total_bytes": 32000000000, "free_bytes": 25000000000},
            "ssd": {"fs_total_bytes": 10 ** 12, "fs_free_bytes": 5 * 10 ** 11}, "pressure": {"ram_pressure": 0.2, "vram_pressure": None}}
    valid("atenia-snapshot", snap, "hand-made snapshot")
    invalid("atenia-snapshot", {"gpus": [{"id": "g", "backend": "nvidia", "vram_total_bytes": 1, "vram_free_bytes": 1}]}, "bad backend")
    rates = {"cpu": {"gflops_est": 50, "mem_gb_s_est": 20},
             "gpus": [{"id": "gpu0", "vram_total_bytes": 8, "vram_free_bytes": 8, "bandwidth_gbps_est": 900, "gflops_est": 20000,
                       "h2d_gb_s_est": 25, "d2h_gb_s_est": 24.5, "launch_us_est": 5}],
             "ssd": {"read_mb_s_est": 3000, "write_mb_s_est": 1500, "latency_ms_est": 0.1}}
    valid("atenia-snapshot", rates, "snapshot with every rate")
    for bad in ({"h2d_gb_s_est": 0}, {"d2h_gb_s_est": -1}, {"gflops_est": 2e9}, {"launch_us_est": -0.5}):
        g = dict(rates["gpus"][0], **bad)
        invalid("atenia-snapshot", dict(rates, gpus=[g]), "snapshot with %s" % bad)
    invalid("atenia-snapshot", {"ssd": {"write_mb_s_est": 0}}, "SSD write rate 0")
    ep = {"id": "e1", "gpu_available": True, "vram_pressure": 0.2, "ram_pressure": 0.6, "backend": "gpu",
          "success": True, "score": 9, "had_drift": False}
    valid("atenia-episode", ep, "episode")
    invalid("atenia-episode", dict(ep, vram_pressure=1.5), "episode with pressure 1.5")
    # v0.2.0: v0.1.0's records unchanged, and the spill placement episode (nltrain train --episodes).
    valid("atenia-episode", ep, "v0.1.0 episode", "0.2.0")
    spill_ep = {"decision": "spill", "ram_pressure": 0.1, "tier": "fast", "codec": "zstd", "spilled_bytes": 1048576,
                "restored_bytes": 1048576, "stored_bytes": 900000, "write_s": 0.01, "read_s": 0.01, "score": 102400}
    valid("atenia-episode", spill_ep, "spill episode", "0.2.0")
    invalid("atenia-episode", spill_ep, "spill episode in v0.1.0")
    invalid("atenia-episode", dict(spill_ep, backend="cpu"), "spill episode with a backend", "0.2.0")
    invalid("atenia-episode", dict(spill_ep, codec="lz4"), "spill episode with codec lz4", "0.2.0")
    invalid("atenia-episode", dict(spill_ep, write_s=-1), "spill episode with negative seconds", "0.2.0")
    tensors = {"tensors": [{"id": "w1", "bytes": 4096, "tier": "ram"}, {"id": "g", "bytes": 64, "tier": "ssd", "grad": True}]}
    valid("atenia-tensors", tensors, "tensor list")
    invalid("atenia-tensors", {"tensors": [{"id": "a", "bytes": 67108865, "tier": "ram"}]}, "a tensor over 64 MiB")

    # Outputs of the real binary.
    sp = os.path.join(w, "snap.json")
    json.dump(snap, open(sp, "w"))
    valid("atenia-snapshot", json.loads(run("profile", "--cache-dir", os.path.join(w, "cache"), "--json")), "profile --json")
    for n, rc in (("4096", 0), ("100000000000", 0), ("9000000000000", 1)):
        valid("atenia-place-result", json.loads(run("place", "--bytes", n, "--snapshot", sp, "--json", rc=rc)), "place " + n)
    nogpu = os.path.join(w, "nogpu.json")
    json.dump({"ram": {"total_bytes": 1000, "free_bytes": 900}}, open(nogpu, "w"))
    valid("atenia-place-result", json.loads(run("place", "--bytes", "10", "--snapshot", nogpu, "--json")), "place without GPU")
    epf = os.path.join(w, "e.jsonl")
    open(epf, "w").write(json.dumps(ep) + "\n" + json.dumps(dict(ep, id="e2", backend="cpu")) + "\n")
    valid("atenia-learn-result", json.loads(run("learn", epf, "--table", os.path.join(w, "t.table"), "--json")), "learn --json")
    for f in sorted(glob.glob(os.path.join(fixtures, "*.json"))):
        out = run("simulate", f, "--json").splitlines()
        for i, line in enumerate(out):
            valid("atenia-simulate-record", json.loads(line), "%s line %d" % (os.path.basename(f), i + 1))
        if not out or "final_tiers" not in json.loads(out[-1]):
            failures.append("simulate --json does not end with the final record")
    rp = os.path.join(w, "rates.json")
    json.dump(rates, open(rp, "w"))
    for f in sorted(glob.glob(os.path.join(fixtures, "*.json"))):
        for i, line in enumerate(run("simulate", f, "--json", "--snapshot", rp).splitlines()):
            valid("atenia-simulate-record", json.loads(line), "%s --snapshot line %d" % (os.path.basename(f), i + 1))
    tp = os.path.join(w, "tensors.json")
    json.dump(tensors, open(tp, "w"))
    root = os.path.join(w, "root")
    valid("atenia-checkpoint-save", json.loads(run("checkpoint", "save", root, "--tensors", tp, "--json")), "save --json")
    valid("atenia-checkpoint-inspect", json.loads(run("checkpoint", "inspect", root, "--json")), "inspect --json")
    for extra in ([], ["--lazy"], ["--gpu-available"]):
        valid("atenia-checkpoint-restore", json.loads(run("checkpoint", "restore", root, "--json", *extra)), "restore --json")
    table = os.path.join(w, "t.table")
    valid("atenia-stats-result", json.loads(run("stats", "--table", table, "--json")), "stats --json")
    seen = set()
    for band in ("0", "1"):  # the episodes are in RAM band 1: one learned answer, one without data
        out = json.loads(run("explain", "--gpu-available=true", "--vram-band=0", "--ram-band=" + band, "--table", table, "--json"))
        valid("atenia-explain-result", out, "explain --json ram band " + band)
        valid("atenia-explain-result", out, "explain --json ram band %s (v0.2.0)" % band, "0.2.0")
        seen.add(out["learned"])
    if seen != {True, False}:
        failures.append("explain did not give both a learned and an unlearned answer")
    spill_epf = os.path.join(w, "spill.jsonl")
    open(spill_epf, "w").write(json.dumps(spill_ep) + "\n" + json.dumps(dict(spill_ep, tier="slow", write_s=1.0, read_s=1.0, score=1024)) + "\n")
    spill_table = os.path.join(w, "spill.table")
    valid("atenia-learn-result", json.loads(run("learn", spill_epf, "--table", spill_table, "--json")), "learn --json (spill)")
    seen = set()
    for band in ("0", "1"):  # the spill episodes are in RAM band 0
        out = json.loads(run("explain", "--spill", "--ram-band=" + band, "--table", spill_table, "--json"))
        valid("atenia-explain-result", out, "explain --spill --json ram band " + band, "0.2.0")
        invalid("atenia-explain-result", out, "explain --spill --json ram band %s (v0.1.0)" % band)
        seen.add(out["learned"])
    if seen != {True, False}:
        failures.append("explain --spill did not give both a learned and an unlearned answer")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("all atenia schemas hold")
