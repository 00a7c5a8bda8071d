#!/usr/bin/env python3
"""bp validate / validate-input / scaffold topology: verdicts (0 valid, 1 schema violation with the
JSON path), malformed input (2, one line), JSONL record counting, stdin, BOM handling, --json
shapes, scaffold output that generate from-config accepts, and scaffold --out.

usage: validate_test.py <bp> <repo fixtures dir> <tests/cli/bp/data dir>"""
import json
import os
import shutil
import sys
import tempfile

from bp_cli import Failures, bp_from_argv, expect, run


def main():
    bp = bp_from_argv()
    fixtures, data = sys.argv[2], sys.argv[3]
    tiny_path = os.path.join(data, "tiny.input.json")
    with open(tiny_path) as t:
        tiny = t.read()
    f = Failures()
    work = tempfile.mkdtemp(prefix="bp-validate-test-")

    def write(name, content):
        path = os.path.join(work, name)
        with open(path, "wb") as g:
            g.write(content if isinstance(content, bytes) else content.encode())
        return path

    try:
        for golden in ("mazur.golden.jsonl", "xor.golden.jsonl", "iris.golden.jsonl", "softmax-ce.golden.jsonl",
                       "xor-per-neuron-bias.golden.jsonl"):
            expect(f, bp, "validate " + golden, ["validate", os.path.join(fixtures, golden)], 0, "valid\n", "")
        with open(os.path.join(fixtures, "xor.golden.jsonl"), "rb") as g:
            xor = g.read()
        expect(f, bp, "validate stdin", ["validate", "-"], 0, "valid\n", "", stdin=xor)
        expect(f, bp, "validate --json", ["validate", "-", "--json"], 0, "{\"ok\":true}\n", "", stdin=xor)
        with open(os.path.join(fixtures, "xor.multi-step.jsonl"), "rb") as g:
            records = g.read().count(b"\n")
        expect(f, bp, "validate multi-record jsonl", ["validate", os.path.join(fixtures, "xor.multi-step.jsonl")], 2,
               "", "bp: single-record JSONL is required here; got %d records. Use 'bp verify multi <file.jsonl>' for "
               "multi-record JSONL.\n" % records)
        pretty = write("pretty.jsonl", json.dumps(json.loads(xor), indent=2))
        expect(f, bp, "validate pretty-printed .jsonl", ["validate", pretty], 0, "valid\n", "")
        not_receipt = write("not-receipt.json", tiny)
        expect(f, bp, "validate schema violation", ["validate", not_receipt], 1, "",
               "schema validation failed\n\n  error at (root): must have required property 'schema_version'\n\n")
        expect(f, bp, "validate schema violation --json", ["validate", not_receipt, "--json"], 1,
               "{\"ok\":false,\"errors\":[{\"instancePath\":\"\",\"message\":\"must have required property "
               "'schema_version'\"}]}\n", "")
        receipt = json.loads(xor)
        receipt["learning_rate"] = "fast"
        wrong = write("wrong-type.json", json.dumps(receipt))
        rc, out, err = expect(f, bp, "validate wrong type", ["validate", wrong], 1, "")
        f.truth("validate wrong type names the path", b"  error at /learning_rate: " in err, repr(err))
        bad = write("bad.json", "{\"schema_version\": ")
        rc, out, err = expect(f, bp, "validate malformed", ["validate", bad], 2, "")
        # One line, "file:line: path: what is wrong", and no hint to run bp validate: this is bp validate.
        f.truth("validate malformed: one line with the file",
                err.startswith(("bp: %s:1: /schema_version: invalid JSON: column 20: " % bad).encode()) and err.count(b"\n") == 1,
                repr(err))
        empty = write("empty.jsonl", "")
        expect(f, bp, "validate empty file", ["validate", empty], 2, "",
               "bp: %s:1: invalid JSON: column 1: syntax error while parsing value - unexpected end of input; "
               "expected '[', '{', or a literal\n" % empty)
        rc, out, err = expect(f, bp, "validate empty file --json", ["validate", empty, "--json"], 2, None, "")
        f.check("validate empty file --json", (json.loads(out)["error"]["code"], "hint" in json.loads(out)["error"]),
                ("INVALID_JSON", False))
        # Before reconciling, the hint to validate first still applies (the reference's second line).
        expect(f, bp, "reconcile empty file", ["reconcile", "receipt", empty], 2, "",
               "bp: %s:1: invalid JSON: column 1: syntax error while parsing value - unexpected end of input; "
               "expected '[', '{', or a literal\nHint: validate the receipt structure against its schema "
               "(bp validate) before reconciling.\n" % empty)
        bom = write("bom.json", b"\xef\xbb\xbf" + xor)
        rc, out, err = expect(f, bp, "validate BOM is refused on receipts", ["validate", bom], 2, "")

        expect(f, bp, "validate-input valid", ["validate-input", tiny_path], 0, "valid\n", "")
        expect(f, bp, "validate-input BOM stripped", ["validate-input", "-"], 0, "valid\n", "",
               stdin=b"\xef\xbb\xbf" + tiny.encode())
        d = json.loads(tiny)
        d["loss"] = {}
        extra = write("extra.json", json.dumps(d))
        rc, out, err = expect(f, bp, "validate-input receipt-only key", ["validate-input", extra], 1, "")
        f.truth("validate-input heading", err.startswith(b"input schema validation failed (SCHEMA_VIOLATION)\n\n"
                                                         b"  error at "), repr(err))
        d = json.loads(tiny)
        d["topology"]["hidden_size"] = 65
        big = write("big.json", json.dumps(d))
        expect(f, bp, "validate-input size over the maximum", ["validate-input", big, "--json"], 1,
               "{\"ok\":false,\"errors\":[{\"instancePath\":\"/topology/hidden_size\",\"message\":\"must be <= 64\"}]}\n",
               "")
        rc, out, err = expect(f, bp, "validate-input malformed", ["validate-input", bad], 2, "")
        f.truth("validate-input malformed: one line",
                err.startswith(("bp: validate-input: input rejected: %s:1: " % bad).encode()) and
                err.count(b"\n") == 1, repr(err))

        # scaffold: a two-space-indented document that from-config turns into the builtin's golden.
        for name in ("xor", "iris"):
            rc, doc, err = expect(f, bp, "scaffold " + name, ["scaffold", "topology", "--topology", name], 0, None, "")
            f.truth("scaffold %s shape" % name, doc.startswith(b"{\n  \"topology\": {\n") and doc.endswith(b"\n}\n"),
                    repr(doc[:40]))
            path = write(name + ".input.json", doc)
            expect(f, bp, "scaffold %s is a valid input" % name, ["validate-input", path], 0, "valid\n", "")
            expect(f, bp, "scaffold %s round trip" % name,
                   ["generate", "from-config", path, "--check", "--out", os.path.join(fixtures, name + ".golden.jsonl")],
                   0, "", "")
        out_path = os.path.join(work, "m.json")
        rc, doc, err = run(bp, ["scaffold", "topology", "--topology", "mazur"])
        expect(f, bp, "scaffold --out --json", ["scaffold", "topology", "--topology=mazur", "--out", out_path, "--json"],
               0, "{\"ok\":true,\"output_path\":%s,\"bytes\":%d}\n" % (json.dumps(out_path), len(doc)), "")
        with open(out_path, "rb") as g:
            f.check("scaffold --out bytes", g.read(), doc)
        f.truth("mazur scaffold spells 1e-9 as JavaScript does", b"\"tolerance\": 1e-9" in doc, repr(doc[-600:]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return f.finish()


if __name__ == "__main__":
    sys.exit(main())
