#!/usr/bin/env python3
"""bp verify mazur: what the receipt declares about its network must be the network it carries.
The Mazur receipt that `bp generate mazur` writes is tampered one declaration at a time
(topology.input_size / hidden_size / output_size, topology.layers shortened, lengthened and
reordered, topology.bias_sharing, bias_policy.updated_in_step); each is exit 1 with a failing
`topology` check whose one line names the field, the declared value and the actual one. The
untampered receipt stays a pass with the reference's exact report (no `topology` line).

usage: verify_mazur_topology_test.py <bp>"""
import json
import os
import shutil
import sys
import tempfile

from bp_cli import Failures, bp_from_argv, expect, run

MAZUR_PASS = ("verification passed\n\n  [PASS] schema\n  [PASS] reconcile\n  [PASS] engine-reproduce\n"
              "  [PASS] byte-equal-vs-golden\n  [PASS] fixture-status\n  [PASS] published-anchor-drift\n")

# (case, JSON path of the declaration, tampered value, words the failing line must hold)
TAMPERS = [
    ("input_size 2 -> 7", ("topology", "input_size"), 7,
     "topology.input_size is 7 but the receipt's network has 2 input unit(s) (i1, i2)"),
    ("hidden_size 2 -> 3", ("topology", "hidden_size"), 3,
     "topology.hidden_size is 3 but the receipt's network has 2 hidden unit(s) (h1, h2)"),
    ("output_size 2 -> 9", ("topology", "output_size"), 9,
     "topology.output_size is 9 but the receipt's network has 2 output unit(s) (o1, o2)"),
    ("hidden layer deleted", ("topology", "layers"), ["input", "output"],
     'topology.layers is ["input","output"] but the receipt\'s network has 3 layers ["input","hidden","output"]'),
    ("hidden layer added", ("topology", "layers"), ["input", "hidden", "hidden", "output"],
     'topology.layers is ["input","hidden","hidden","output"] but the receipt\'s network has 3 layers'),
    ("layers reordered", ("topology", "layers"), ["output", "hidden", "input"],
     'topology.layers is ["output","hidden","input"]'),
    ("bias_sharing per_neuron", ("topology", "bias_sharing"), "per_neuron",
     'topology.bias_sharing is "per_neuron", which needs 4 bias(es), but parameters_before has 2 (b1, b2)'),
    ("updated_in_step true", ("bias_policy", "updated_in_step"), True,
     "bias_policy.updated_in_step is true but parameters_after keeps the biases (b1, b2), so it is false"),
]


def main():
    bp = bp_from_argv()
    f = Failures()
    work = tempfile.mkdtemp(prefix="bp-mazur-topology-")
    try:
        rc, out, err = run(bp, ["generate", "mazur"])
        f.check("generate mazur exit", rc, 0)
        receipt = json.loads(out.decode("utf-8"))
        good = os.path.join(work, "mazur.jsonl")
        with open(good, "wb") as g:
            g.write(out)
        expect(f, bp, "untampered", ["verify", "mazur", good], 0, stdout="", stderr=MAZUR_PASS)
        for case, path, value, words in TAMPERS:
            doc = json.loads(json.dumps(receipt))
            doc[path[0]][path[1]] = value
            name = os.path.join(work, "tampered.jsonl")
            with open(name, "w", encoding="utf-8") as g:
                g.write(json.dumps(doc, separators=(",", ":")) + "\n")
            rc, out, err = expect(f, bp, case, ["verify", "mazur", name], 1, stdout="")
            lines = err.decode("utf-8", "replace").splitlines()
            failing = [l for l in lines if l.startswith("  [FAIL] topology: ")]
            f.check(case + ": one failing topology line", len(failing), 1)
            f.truth(case + ": names field and both values", any(words in l for l in failing),
                    "%r not in %r" % (words, failing))
            f.check(case + ": verdict line", lines[:1], ["verification failed"])
            rc, out, _ = run(bp, ["verify", "mazur", name, "--json"])
            f.check(case + " --json exit", rc, 1)
            report = json.loads(out.decode("utf-8"))
            topo = [c for c in report["report"]["checks"] if c["name"] == "topology"]
            f.check(case + " --json evidence", [e["field"] for c in topo for e in c.get("evidence", [])],
                    [".".join(path)])
            f.check(case + " --json declared", [e["declared"] for c in topo for e in c.get("evidence", [])], [value])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return f.finish()


if __name__ == "__main__":
    sys.exit(main())
