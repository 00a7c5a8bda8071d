#!/usr/bin/env python3
"""bp generate: builtin receipts equal our committed goldens, --check (equal, drift, missing golden),
--out (exact bytes, atomic, no leftovers, old content kept on failure), from-config from a file and
from stdin, output past 64 KiB, and one stderr line with file and JSON path for every kind of bad
input (exit 2).

usage: generate_test.py <bp> <repo fixtures dir> <tests/cli/bp/data dir>"""
import json
import os
import shutil
import sys
import tempfile

from bp_cli import Failures, bp_from_argv, expect, run

BUILTINS = {
    "mazur": "mazur.golden.jsonl",
    "xor": "xor.golden.jsonl",
    "iris": "iris.golden.jsonl",
    "xor-per-neuron-bias": "xor-per-neuron-bias.golden.jsonl",
    "softmax-ce": "softmax-ce.golden.jsonl",
    "xor-multi-step": "xor.multi-step.jsonl",
}


def read(path):
    with open(path, "rb") as f:
        return f.read()


def dense_config(tiny, n):
    """An n-n-n network built from the tiny sample: its receipt is far beyond 64 KiB for n >= 8."""
    doc = json.loads(tiny)
    ins, hid, outs = ["i%d" % k for k in range(n)], ["h%d" % k for k in range(n)], ["o%d" % k for k in range(n)]
    params = [{"id": "w_%s_%s" % (a, b), "role": "input_to_hidden_weight", "from_unit": a, "to_unit": b}
              for a in ins for b in hid]
    params += [{"id": "w_%s_%s" % (a, b), "role": "hidden_to_output_weight", "from_unit": a, "to_unit": b}
               for a in hid for b in outs]
    params += [{"id": "bh", "role": "hidden_bias", "applies_to_units": hid},
               {"id": "bo", "role": "output_bias", "applies_to_units": outs}]
    t = doc["topology"]
    t.update({"input_size": n, "hidden_size": n, "output_size": n,
              "unit_order": {"input": ins, "hidden": hid, "output": outs},
              "parameter_order": [p["id"] for p in params], "parameters": params, "activation_output": "sigmoid"})
    doc["inputs"] = {u: 0.1 + 0.05 * k for k, u in enumerate(ins)}
    doc["targets"] = {u: 0.9 - 0.05 * k for k, u in enumerate(outs)}
    doc["parameters_before"] = {p["id"]: 0.01 * ((k * 7) % 23 - 11) + 0.005 for k, p in enumerate(params)}
    return json.dumps(doc)


def main():
    bp = bp_from_argv()
    fixtures, data = sys.argv[2], sys.argv[3]
    tiny_path = os.path.join(data, "tiny.input.json")
    tiny = read(tiny_path).decode()
    f = Failures()
    work = tempfile.mkdtemp(prefix="bp-generate-test-")
    try:
        # Builtins reproduce the committed goldens, from any working directory.
        for name, golden in BUILTINS.items():
            want = read(os.path.join(fixtures, golden))
            expect(f, bp, "generate %s" % name, ["generate", name], 0, want.decode(), "", cwd=work)
            expect(f, bp, "generate %s --check" % name, ["generate", name, "--check"], 0, "", "", cwd=work)
        expect(f, bp, "check --json", ["generate", "mazur", "--check", "--json"], 0, "{\"ok\":true}\n", "")
        expect(f, bp, "check --verbose", ["generate", "xor", "--check", "-V"], 0, "",
               "bp: generate xor --check: byte-equal\n")

        # Drift: a golden differing at byte 100.
        drift_dir = os.path.join(work, "drift")
        os.makedirs(drift_dir)
        golden = bytearray(read(os.path.join(fixtures, "mazur.golden.jsonl")))
        golden[100] = ord("#")
        with open(os.path.join(drift_dir, "mazur.golden.jsonl"), "wb") as g:
            g.write(golden)
        env = {"BP_FIXTURES_DIR": drift_dir}
        n = len(golden)
        expect(f, bp, "drift", ["generate", "mazur", "--check"], 1, "",
               "generate mazur --check: drift detected\n  drift_offset:   100\n  emitted_length: %d\n"
               "  golden_length:  %d\n" % (n, n), env=env)
        expect(f, bp, "drift --json", ["generate", "mazur", "--check", "--json"], 1,
               "{\"ok\":false,\"drift_offset\":100,\"emitted_length\":%d,\"golden_length\":%d}\n" % (n, n), "", env=env)
        expect(f, bp, "drift colored", ["generate", "mazur", "--check", "--color=always"], 1, "",
               "\x1b[1m\x1b[31mgenerate mazur --check: drift detected\x1b[0m\n  drift_offset:   100\n"
               "  emitted_length: %d\n  golden_length:  %d\n" % (n, n), env=env)
        missing = os.path.join(drift_dir, "xor.golden.jsonl")
        # A bundled golden that is missing is a broken installation, as verify mazur's fixtures are:
        # exit 4, one line naming the file (bp(1) EXIT STATUS).
        expect(f, bp, "check without golden", ["generate", "xor", "--check"], 4, "",
               "bp: this installation is broken: %s: cannot open file: No such file or directory\n" % missing, env=env)
        rc, out, err = expect(f, bp, "check without golden --json", ["generate", "xor", "--check", "--json"], 4, None, "",
                              env=env)
        f.check("check without golden --json code", json.loads(out).get("error", {}).get("code"), "BROKEN_INSTALLATION")
        os.mkdir(missing)
        rc, out, err = expect(f, bp, "check with a directory for a golden", ["generate", "xor", "--check"], 4, "", env=env)
        f.truth("a directory for a golden: one line naming it",
                err.startswith(("bp: this installation is broken: %s: " % missing).encode()) and err.count(b"\n") == 1,
                repr(err))
        os.rmdir(missing)

        # --out: exact bytes, JSON result, no temporary left behind.
        out = os.path.join(work, "out", "iris.jsonl")
        os.makedirs(os.path.dirname(out))
        want = read(os.path.join(fixtures, "iris.golden.jsonl"))
        expect(f, bp, "--out", ["generate", "iris", "--out", out], 0, "", "")
        f.check("--out bytes", read(out), want)
        # "bytes" counts UTF-16 code units, as the reference's JavaScript string length does.
        expect(f, bp, "--out= --json", ["--json", "generate", "iris", "--out=" + out], 0,
               "{\"ok\":true,\"out\":%s,\"bytes\":%d}\n" % (json.dumps(out), len(want.decode().encode("utf-16-le")) // 2), "")
        f.check("--out leaves only the file", sorted(os.listdir(os.path.dirname(out))), ["iris.jsonl"])
        # --check --out F compares against F and never writes it (the reference ignores F).
        expect(f, bp, "builtin --check --out equal", ["generate", "iris", "--check", "--out", out], 0, "", "")
        with open(out, "ab") as fh:
            fh.write(b"x")
        expect(f, bp, "builtin --check --out drift", ["generate", "iris", "--check", "--out", out], 1, "")
        f.check("builtin --check --out does not write", read(out), want + b"x")
        absent = os.path.join(work, "out", "absent.jsonl")
        expect(f, bp, "builtin --check --out missing", ["generate", "iris", "--check", "--out", absent], 2, "")
        f.check("builtin --check --out missing creates nothing", os.path.exists(absent), False)
        with open(out, "wb") as fh:
            fh.write(want)
        nodir = os.path.join(work, "no-such-dir", "x.jsonl")
        rc, o, e = expect(f, bp, "--out into a missing directory", ["generate", "mazur", "--out", nodir], 2, "")
        f.truth("--out error names the path", e.startswith(("bp: could not write %s: " % nodir).encode()) and
                e.count(b"\n") == 2, repr(e))
        f.truth("--out failure leaves nothing", not os.path.exists(os.path.dirname(nodir)))

        # from-config: file, stdin, BOM, --check against --out.
        tiny_receipt = run(bp, ["generate", "from-config", tiny_path])[1]
        f.truth("from-config tiny", tiny_receipt.startswith(b'{"schema_version":"0.2.0","fixture":"bp-cli-tiny"')
                and tiny_receipt.endswith(b"}\n") and tiny_receipt.count(b"\n") == 1, repr(tiny_receipt[:80]))
        expect(f, bp, "from-config stdin", ["generate", "from-config", "-"], 0, tiny_receipt.decode(), "",
               stdin=tiny.encode())
        expect(f, bp, "from-config BOM", ["generate", "from-config", "-"], 0, tiny_receipt.decode(), "",
               stdin=b"\xef\xbb\xbf" + tiny.encode())
        golden_out = os.path.join(work, "tiny.golden.jsonl")
        with open(golden_out, "wb") as g:
            g.write(tiny_receipt)
        expect(f, bp, "from-config --check", ["generate", "from-config", tiny_path, "--check", "--out", golden_out],
               0, "", "")
        f.check("--check does not write", read(golden_out), tiny_receipt)

        # Past 64 KiB on a pipe: nothing is cut (the reference truncates here).
        big = os.path.join(work, "dense.json")
        with open(big, "w") as g:
            g.write(dense_config(tiny, 10))
        rc, o, e = run(bp, ["generate", "from-config", big])
        f.check("large receipt exit", rc, 0)
        f.truth("large receipt past 64 KiB", len(o) > 65536 and o.endswith(b"}\n"), "%d bytes" % len(o))
        big_out = os.path.join(work, "dense.jsonl")
        run(bp, ["generate", "from-config", big, "--out", big_out])
        f.check("large receipt --out equals stdout", read(big_out), o)

        # Bad input: one line naming file, line and JSON path; exit 2; an existing --out is kept.
        keep = os.path.join(work, "keep.jsonl")
        bad_cases = []

        def bad(name, text, prefix):
            path = os.path.join(work, name + ".json")
            with open(path, "wb") as g:
                g.write(text if isinstance(text, bytes) else text.encode())
            bad_cases.append((name, path, prefix.replace("FILE", path)))

        doc = json.loads(tiny)
        bad("malformed", "{bad", "bp: generate from-config: input rejected: FILE:1: /: invalid JSON")
        bad("empty", "", "bp: generate from-config: input rejected: FILE")
        bad("nan", tiny.replace('"learning_rate": 0.25', '"learning_rate": NaN'),
            "bp: generate from-config: input rejected: FILE:")
        bad("overflow", tiny.replace('"learning_rate": 0.25', '"learning_rate": 1e400'),
            "bp: generate from-config: input rejected: FILE:")
        d = json.loads(tiny); d["forward"] = {}
        bad("receipt-field", json.dumps(d), "bp: generate from-config: input rejected: FILE: /forward: ")
        d = json.loads(tiny); d["topology"]["bogus"] = 1
        bad("unknown-key", json.dumps(d), "bp: generate from-config: input rejected: FILE: /topology/bogus: ")
        d = json.loads(tiny); d["topology"]["input_size"] = 10 ** 9
        bad("huge-size", json.dumps(d), "bp: generate from-config: input rejected: FILE: /topology/input_size: ")
        d = json.loads(tiny); d["numeric_policy"]["number_encoding"] = "binary"
        bad("wrong-const", json.dumps(d),
            "bp: generate from-config: input rejected: FILE: /numeric_policy/number_encoding: ")
        d = json.loads(tiny); d["learning_rate"] = "0.25"
        bad("wrong-type", json.dumps(d), "bp: generate from-config: input rejected: FILE: /learning_rate: ")
        d = json.loads(tiny); del d["parameters_before"]["wbc"]
        bad("missing-parameter", json.dumps(d), "bp: generate from-config: ")
        bad("deep", "[" * 100000 + "]" * 100000, "bp: generate from-config: input rejected: FILE:1: /0/0/0/")
        d = json.loads(tiny); d["topology"]["unit_order"]["input"][0] = "a\nb"
        bad("newline-in-id", json.dumps(d),
            "bp: generate from-config: input rejected: FILE: /topology/unit_order/input/0: 'a\\nb' is not")
        d = json.loads(tiny); d["parameters_before"]["wab"] = 1e12
        bad("out-of-range", json.dumps(d), "bp: generate from-config: engine rejected input: FILE")
        for name, path, prefix in bad_cases:
            with open(keep, "wb") as g:
                g.write(b"old content\n")
            rc, o, e = expect(f, bp, "bad input " + name, ["generate", "from-config", path, "--out", keep], 2, "")
            f.truth("bad input %s: one line with file and path" % name,
                    e.startswith(prefix.encode()) and e.count(b"\n") == 1, repr(e[:300]))
            f.check("bad input %s keeps --out" % name, read(keep), b"old content\n")
            rc, o, e = expect(f, bp, "bad input %s --json" % name, ["generate", "from-config", path, "--json"], 2,
                              None, "")
            f.truth("bad input %s --json envelope" % name,
                    o.startswith(b'{"ok":false,"error":{"code":"') and o.endswith(b"}}\n"), repr(o[:200]))
        # A 2 GiB input is refused before it is read.
        sparse = os.path.join(work, "sparse.json")
        with open(sparse, "wb") as g:
            g.truncate(2 * 1024 ** 3)
        expect(f, bp, "2 GiB input", ["generate", "from-config", sparse], 2, "",
               "bp: input too large to read: %s. The limit is 268435456 bytes.\n"
               "Hint: split the input into smaller files.\n" % sparse)
        os.remove(sparse)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return f.finish()


if __name__ == "__main__":
    sys.exit(main())
