#!/usr/bin/env python3
"""Differential test of the reconciler (libcore/reconcile) against the reference's reconcileReceipt.

Runs our build/tests/reconcile_probe and the reference library (one node process per batch, every
record in its own try/catch) on the same receipts and compares them record by record, as parsed
JSON: for every failure of a rule in the chosen set, the tuple (rule, field_path, parameter_id,
cascade_of_rule) in order, and stored / recomputed / delta / tolerance within 1e-12 relative where
the reference's value is a number (null, i.e. NaN, must be null on both sides). Messages are not
compared (the wording may differ).

Inputs: the files given, or by default every receipt the reference ships (goldens, multi-step
goldens, external goldens, fixtures/bad), plus seeded mutations of every golden record written to
a work directory, by family:
  num_outside   a number moved well outside tolerance
  num_inside    a number moved inside (or just around) tolerance
  respelled     numbers re-spelled in the text (same value: 5e-1, 0.50000, 5.0E-1)
  removed_key   a key removed
  duplicate_key a key written twice in the text (last one wins), either order
  unknown_key   an unknown key added (plain, integer-like, unit-like)
  type_change   a value replaced by another JSON type (null, bool, string, numeric string, [], [x], {})
  swapped_array two elements of an array swapped, or an array reversed
Each family's count and its disagreements are printed. fixtures/bad receipts whose meta names a
rule of the set must be caught by that rule on our side.

Where the reference throws out of reconcileReceipt (a TypeError in its Rule 0 pass, outside its
own try/catch), ours must reject with a Rule 0 failure: counted as `reference_threw`, documented,
not a disagreement. Where the reference's try/catch turned a throw inside a rule outside the set
into its Rule 0 "updates" failure, that failure is not compared.

usage: reconcile_differential.py --probe PROBE --reference PKG_DIR [--node NODE] [--rules 0-8,11-13 | --all-rules]
         [--per-family N] [--seed S] [--work DIR] [--no-mutations] [--verbose] [FILE...]
Exit 0: no disagreement; 1: disagreements; 77: the reference is not installed (1 under CI=true)."""
import argparse
import copy
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

from reference_gate import reference_missing

FAMILIES = ["num_outside", "num_inside", "respelled", "removed_key", "duplicate_key", "unknown_key",
            "type_change", "swapped_array", "js_edge"]

# The reference, instrumented only to say which rule was running when a throw happened: each rule call
# in reconcileReceipt is preceded by `globalThis.__bpRule = N;`.
WRAPPER = r"""
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";
const [dist, listFile] = process.argv.slice(2);
const { reconcileReceipt } = await import(pathToFileURL(path.join(dist, "reconcile.js")).href);
const files = readFileSync(listFile, "utf8").split("\n").filter((l) => l !== "");
const out = [];
for (const file of files) {
  const text = readFileSync(file, "utf8");
  let records = [];
  try {
    for (const line of text.split("\n")) if (line.trim() !== "") records.push(JSON.parse(line));
  } catch {
    try { records = [JSON.parse(text)]; } catch (e) { out.push(JSON.stringify({ file, parse_error: String(e.message) })); continue; }
  }
  records.forEach((r, index) => {
    globalThis.__bpRule = null;
    try {
      const result = reconcileReceipt(r);
      out.push(JSON.stringify({ file, index, result, rule_running: globalThis.__bpRule }));
    } catch (e) {
      out.push(JSON.stringify({ file, index, threw: String(e && e.message), rule_running: globalThis.__bpRule }));
    }
  });
}
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
"""

CALL_RE = re.compile(r"^(\s*)((?:rule14 = )?check(Rule\d+)\w*\()", re.M)
RULE_OF_CALL = {"Rule0": 0, "Rule1": 1, "Rule2": 2, "Rule3": 3, "Rule4": 4, "Rule5": 5, "Rule6": 6, "Rule7": 7,
                "Rule8": 8, "Rule11": 11, "Rule12": 12, "Rule13": 13, "Rule14": 14, "Rule15": 15, "Rule16": 16,
                "Rule18": 18, "Rule19": 19, "Rule20": 20, "Rule21": 21, "Rule22": 22, "Rule23": 23, "Rule24": 24}


def instrument_reference(pkg, work):
    """A copy of the reference's dist/ whose reconcileReceipt records the rule it is running."""
    dest = os.path.join(work, "reference")
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    shutil.copytree(os.path.join(pkg, "dist"), os.path.join(dest, "dist"))
    for extra in ("package.json", "schemas"):
        src = os.path.join(pkg, extra)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, extra))
        elif os.path.isfile(src):
            shutil.copy(src, os.path.join(dest, extra))
    js_path = os.path.join(dest, "dist", "reconcile.js")
    with open(js_path, encoding="utf-8") as f:
        js = f.read()
    start = js.index("export function reconcileReceipt(")
    end = js.index("\nfunction ", start)
    body = js[start:end]

    def mark(m):
        rule = RULE_OF_CALL.get(m.group(3))
        if rule is None:
            return m.group(0)
        return "%sglobalThis.__bpRule = %d; %s" % (m.group(1), rule, m.group(2))

    body = CALL_RE.sub(mark, body)
    with open(js_path, "w", encoding="utf-8") as f:
        f.write(js[:start] + body + js[end:])
    wrapper = os.path.join(dest, "wrapper.mjs")
    with open(wrapper, "w", encoding="utf-8") as f:
        f.write(WRAPPER)
    return os.path.join(dest, "dist"), wrapper


def parse_rules(spec):
    rules = set()
    for part in spec.split(","):
        if "-" in part:
            a, b = part.split("-")
            rules.update(range(int(a), int(b) + 1))
        elif part:
            rules.add(int(part))
    return rules


def records_of(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return [json.loads(line) for line in text.split("\n") if line.strip()]
    except ValueError:
        try:
            return [json.loads(text)]
        except ValueError:
            return None


# ---------------------------------------------------------------------------------------------------------------
# Mutations

def walk(node, path=()):
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, path + (i,))


def get_at(root, path):
    for p in path:
        root = root[p]
    return root


def set_at(root, path, value):
    get_at(root, path[:-1])[path[-1]] = value


# The parts of a receipt the per-record rules read; most mutations land there.
FOCUS = {"topology", "bias_policy", "numeric_policy", "forward", "loss", "targets", "backward", "updates",
         "parameters_before", "parameters_after", "optimizer_config", "fixture_status", "attestor",
         "source_framework", "batch"}


def pick(paths, rng, containers_of=None):
    """A path, 85% of the time inside FOCUS; with containers_of (the record) a third of the picks are
    objects or arrays, so whole sub-trees get replaced too."""
    focused = [p for p in paths if p and p[0] in FOCUS]
    pool = focused if focused and rng.random() < 0.85 else paths
    if containers_of is not None and rng.random() < 0.33:
        boxes = [p for p in pool if isinstance(get_at(containers_of, p), (dict, list))]
        if boxes:
            pool = boxes
    return rng.choice(pool)


def numbers(rec):
    return [p for p, v in walk(rec) if isinstance(v, (int, float)) and not isinstance(v, bool) and p]


def dump(rec):
    return json.dumps(rec, separators=(",", ":"), ensure_ascii=False)


def dump_duplicate(node, path, target, key, first, last):
    """The record's text with `key` of the object at `target` written twice: `first` at the front, then the
    key again where it was, holding `last` (JSON.parse keeps the last)."""
    if isinstance(node, dict):
        parts = []
        if path == target:
            parts.append(json.dumps(key, ensure_ascii=False) + ":" + dump(first))
        for k, v in node.items():
            if path == target and k == key:
                parts.append(json.dumps(k, ensure_ascii=False) + ":" + dump(last))
            else:
                parts.append(json.dumps(k, ensure_ascii=False) + ":" + dump_duplicate(v, path + (k,), target, key, first, last))
        return "{" + ",".join(parts) + "}"
    if isinstance(node, list):
        return "[" + ",".join(dump_duplicate(v, path + (i,), target, key, first, last) for i, v in enumerate(node)) + "]"
    return dump(node)


def first_key(obj):
    return next(iter(obj)) if isinstance(obj, dict) and obj else None


def js_edges():
    """Edits aimed at JavaScript semantics the reference's rules rely on (coercion, `+` concatenation,
    typeof object for arrays, Object.keys order, === on keys, throws on null)."""
    def upd(field, value):
        def f(r):
            if r.get("updates") and isinstance(r["updates"][0], dict):
                r["updates"][0][field] = value
                return True
        return f

    def factor_value(value, single=False):
        def f(r):
            u = r.get("updates") and r["updates"][0]
            fs = isinstance(u, dict) and isinstance(u.get("optimizer"), dict) and u["optimizer"].get("factors")
            if not fs:
                return False
            if single:
                u["optimizer"]["factors"] = fs[:1]
            u["optimizer"]["factors"][0]["value"] = value
            return True
        return f

    def at(path, value):
        def f(r):
            try:
                parent = get_at(r, path[:-1])
            except (KeyError, IndexError, TypeError):
                return False
            if isinstance(parent, dict) or (isinstance(parent, list) and path[-1] < len(parent)):
                parent[path[-1]] = value
                return True
        return f

    def unit_order_output(value_fn):
        def f(r):
            uo = r.get("topology", {}).get("unit_order")
            if not isinstance(uo, dict) or not uo.get("output"):
                return False
            uo["output"] = value_fn(uo["output"])
            return True
        return f

    def integer_key(container):
        def f(r):
            m = r.get(container)
            if not isinstance(m, dict) or not m:
                return False
            k = first_key(m)
            r[container] = dict([("7", m[k])] + list(m.items()) + [("0", m[k])])
            return True
        return f

    def hidden(field, value):
        def f(r):
            h = r.get("backward", {}).get("hidden_error_signals")
            k = first_key(h)
            if k is None or not isinstance(h[k], dict):
                return False
            h[k][field] = value
            return True
        return f

    def dual(field, value):
        def f(r):
            for u in (r.get("backward", {}).get("output_error_signals") or {}).values():
                if isinstance(u, dict) and isinstance(u.get("dual_form"), dict):
                    u["dual_form"][field] = value
                    return True
        return f

    def dup_update(r):
        if r.get("updates"):
            r["updates"].append(copy.deepcopy(r["updates"][0]))
            r["updates"][-1]["update"] = 0.5
            return True

    return [
        ("factor value numeric string", factor_value("0.25")),
        ("single factor numeric string", factor_value("0.25", single=True)),
        ("factor value [x]", factor_value([0.25])),
        ("factor value true", factor_value(True)),
        ("factor value null", factor_value(None)),
        ("single factor null", factor_value(None, single=True)),
        ("weight_before null", upd("weight_before", None)),
        ("weight_before numeric string", upd("weight_before", "0.5")),
        ("weight_before [x]", upd("weight_before", [0.5])),
        ("update true", upd("update", True)),
        ("gradient numeric string", upd("gradient", "-0.01")),
        ("optimizer null", upd("optimizer", None)),
        ("optimizer name null", lambda r: upd("optimizer", dict(r["updates"][0].get("optimizer") or {}, name=None))(r) if r.get("updates") else False),
        ("parameter_id number", upd("parameter_id", 5)),
        ("update element null", lambda r: r.get("updates") is not None and (r["updates"].append(None) or True)),
        ("update element number", lambda r: r.get("updates") is not None and (r["updates"].insert(0, 5) or True)),
        ("duplicate parameter_id", dup_update),
        ("forward as string", at(("forward",), "ab")),
        ("forward as array", at(("forward",), [1, 2])),
        ("forward null", at(("forward",), None)),
        ("parameters_after as array", at(("parameters_after",), [0.1, 0.2])),
        ("parameters_after integer keys", integer_key("parameters_after")),
        ("targets integer keys", integer_key("targets")),
        ("unit_order.output numbers", unit_order_output(lambda o: [1] + o)),
        ("unit_order.output [id]", unit_order_output(lambda o: [[o[0]]] + o[1:])),
        ("unit_order.output null entry", unit_order_output(lambda o: o + [None])),
        ("unit_order.input as string", at(("topology", "unit_order", "input"), "abc")),
        ("unit_order.hidden {length}", at(("topology", "unit_order", "hidden"), {"length": 3})),
        ("topology.parameters as object", at(("topology", "parameters"), {"a": 1})),
        ("topology.parameters as string", at(("topology", "parameters"), "xyz")),
        ("topology.parameters null element", lambda r: isinstance(r.get("topology", {}).get("parameters"), list) and (r["topology"]["parameters"].append(None) or True)),
        ("bias_policy.mode sgd", at(("bias_policy", "mode"), "sgd")),
        ("bias_policy.mode constant", at(("bias_policy", "mode"), "constant")),
        ("bias_policy null", at(("bias_policy",), None)),
        ("hidden summation_order numbers", hidden("summation_order", [1, 2])),
        ("hidden contribution null", hidden("downstream_contributions", [None])),
        ("hidden backpropagated_sum string", hidden("backpropagated_sum", "0.1")),
        ("hidden product_order null", hidden("product_order", None)),
        ("dual summation_order nulls", dual("summation_order", [None, None])),
        ("dual jacobian_terms null element", dual("jacobian_terms", [None])),
        ("dual summed_value string", dual("summed_value", "0.5")),
        ("loss.total null", at(("loss", "total"), None)),
        ("loss.per_output as array", at(("loss", "per_output"), [0.1])),
        ("batch null", at(("batch",), None)),
        ("topology.loss null", at(("topology", "loss"), None)),
        ("optimizer_config.weight_decay string", at(("optimizer_config", "weight_decay"), "0.01")),
        ("fixture_status.authoring_state number", at(("fixture_status", "authoring_state"), 3)),
        ("source_framework marker", at(("source_framework",), {"name": "pytorch"})),
        ("numeric_policy.tolerance scalar", at(("numeric_policy", "tolerance"), 1e-9)),
    ]


JS_EDGES = js_edges()


def mutate(rec, family, rng, index=0):
    """One mutated record as JSON text, and a description; None when the family does not apply."""
    rec = copy.deepcopy(rec)
    if family == "js_edge":
        if index >= len(JS_EDGES):
            return None
        name, edit = JS_EDGES[index]
        try:
            applied = edit(rec)
        except (KeyError, IndexError, TypeError, AttributeError):
            applied = False
        return (dump(rec), "js edge: " + name) if applied else None
    if family in ("num_outside", "num_inside"):
        nums = numbers(rec)
        if not nums:
            return None
        path = pick(nums, rng)
        v = get_at(rec, path)
        if family == "num_outside":
            how = rng.choice(["rel", "abs", "sign", "zero", "huge"])
            if how == "rel":
                nv = v * (1 + rng.choice([1e-2, 1e-3, 1e-4, 1e-5, -1e-5, 3e-6]))
            elif how == "abs":
                nv = v + rng.choice([1e-6, -1e-6, 1e-3, 0.5, -2.0])
            elif how == "sign":
                nv = -v if v != 0 else 1.0
            elif how == "zero":
                nv = 0.0 if v != 0 else 1e-3
            else:
                nv = v * 1e12 + 1e12
            if nv == v:
                nv = v + 1.0
        else:
            how = rng.choice(["ulp", "rel_small", "abs_small", "boundary"])
            if how == "ulp":
                nv = math.nextafter(v, math.inf if rng.random() < 0.5 else -math.inf)
            elif how == "rel_small":
                nv = v * (1 + rng.choice([1e-12, -1e-12, 1e-10, -3e-10, 5e-9]))
            elif how == "abs_small":
                nv = v + rng.choice([1e-13, -1e-12, 5e-12, 1e-11, -1e-10, 9e-10])
            else:
                nv = v + rng.choice([1e-9, -1e-9, 1.0000001e-9, 1e-11, 2e-11, 1e-7 * abs(v) if v else 1e-9])
        set_at(rec, path, nv)
        return dump(rec), "%s %s: %r -> %r" % (family, path, v, nv)
    if family == "respelled":
        text = dump(rec)
        count = [0]

        def respell(m):
            tok = m.group(0)
            if rng.random() < 0.5:
                return tok
            try:
                v = float(tok)
            except ValueError:
                return tok
            count[0] += 1
            choice = rng.choice(["exp", "zeros", "EXP", "int"])
            if choice == "exp":
                return "%.17e" % v
            if choice == "EXP":
                return repr(v).upper() if "e" in repr(v) else "%.16E" % v
            if choice == "zeros":
                return (tok + "000") if "." in tok and "e" not in tok.lower() else tok
            return tok if "." in tok or "e" in tok.lower() or "E" in tok else tok + ".0"

        out = re.sub(r'(?<=[:\[,])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=[,\]}])', respell, text)
        return out, "respelled %d numbers" % count[0]
    if family == "removed_key":
        keys = [p for p, v in walk(rec) if p and isinstance(get_at(rec, p[:-1]), dict)]
        path = pick(keys, rng)
        del get_at(rec, path[:-1])[path[-1]]
        return dump(rec), "removed %s" % (path,)
    if family == "unknown_key":
        objs = [p for p, v in walk(rec) if isinstance(v, dict)]
        path = pick(objs, rng)
        key = rng.choice(["x_unknown", "7", "0", "o9", "h9", "w_unknown", "__extra"])
        value = rng.choice([0.25, "text", None, True, {"net": 0.1, "out": 0.2}, [1, 2], 0])
        get_at(rec, path)[key] = value
        return dump(rec), "unknown key %r=%r at %s" % (key, value, path)
    if family == "type_change":
        nodes = [p for p, v in walk(rec) if p]
        path = pick(nodes, rng, rec)
        old = get_at(rec, path)
        options = [None, True, False, 0, "abc", "", [], {}, [old], {"value": old}]
        if isinstance(old, (int, float)) and not isinstance(old, bool):
            options += [repr(old), repr(old), " %r " % old, [old]]
        new = rng.choice(options)
        set_at(rec, path, new)
        return dump(rec), "type change %s: %s -> %s" % (path, type(old).__name__, json.dumps(new)[:40])
    if family == "swapped_array":
        arrays = [p for p, v in walk(rec) if isinstance(v, list) and len(v) >= 2]
        if not arrays:
            return None
        path = pick(arrays, rng)
        arr = get_at(rec, path)
        if rng.random() < 0.3:
            arr.reverse()
            return dump(rec), "reversed %s" % (path,)
        i, j = rng.sample(range(len(arr)), 2)
        arr[i], arr[j] = arr[j], arr[i]
        return dump(rec), "swapped %s[%d]<->[%d]" % (path, i, j)
    if family == "duplicate_key":
        objs = [p for p, v in walk(rec) if isinstance(v, dict) and v]
        target = pick(objs, rng)
        obj = get_at(rec, target)
        key = rng.choice(list(obj.keys()))
        old = obj[key]
        other = rng.choice([None, 0.123, "dup", old * 2 if is_num(old) else 1])
        altered = rng.random() < 0.5
        first, last = (old, other) if altered else (other, old)
        return dump_duplicate(rec, (), target, key, first, last), "duplicate key %r at %s (%s value last)" % (
            key, target, "altered" if altered else "original")
    raise ValueError(family)


# ---------------------------------------------------------------------------------------------------------------
# Comparison

def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if a == b:
        return True
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b)) or abs(a - b) <= 1e-300


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def failure_key(f):
    pid = f.get("parameter_id")
    return (f.get("rule"), f.get("field_path"), pid if isinstance(pid, str) else None, f.get("cascade_of_rule"))


THREW_PREFIX = "Receipt is structurally malformed: a reconciliation rule threw"


def compare(ref, ours, rules, all_rules):
    """A list of differences (empty when they agree) and a category."""
    if "parse_error" in ref or "parse_error" in ours:
        if ("parse_error" in ref) != ("parse_error" in ours):
            return ["parse: reference %s, ours %s" % (ref.get("parse_error", "parsed"), ours.get("parse_error", "parsed"))], "parse"
        return [], "parse"
    if "threw" in ref:
        # The reference threw out of reconcileReceipt: ours must reject with a Rule 0 failure.
        bad = ours.get("ok") is not False or not any(f.get("rule") == 0 for f in ours.get("failures", []))
        return (["reference threw (%s) but ours did not reject with Rule 0" % ref["threw"]] if bad else []), "reference_threw"
    rres = ref["result"]
    rfail = list(rres.get("failures", []))
    ofail = list(ours.get("failures", []))
    category = "compared"
    if rfail and str(rfail[-1].get("message", "")).startswith(THREW_PREFIX) and rfail[-1].get("rule") == 0:
        running = ref.get("rule_running")
        if running is not None and running not in rules and not all_rules:
            rfail = rfail[:-1]  # a rule outside the set threw: not ours to match
            category = "threw_outside_set"
    if not all_rules:
        rfail = [f for f in rfail if f.get("rule") in rules]
        ofail = [f for f in ofail if f.get("rule") in rules]
    diffs = []
    if all_rules and rres.get("ok") != ours.get("ok"):
        diffs.append("ok: reference %s, ours %s" % (rres.get("ok"), ours.get("ok")))
    rk = [failure_key(f) for f in rfail]
    ok_ = [failure_key(f) for f in ofail]
    if rk != ok_:
        only = [k for k in rk if k not in ok_] + [k for k in ok_ if k not in rk] or rk + ok_
        diffs.append("failures: reference %s, ours %s; rules differing: %s" % (
            rk, ok_, sorted({k[0] for k in only})))
        return diffs, category
    for rf, of in zip(rfail, ofail):
        # A delta is a difference of near-equal numbers: judge it against their magnitude (a 1-ulp
        # difference in a recomputed logarithm, V8's Math.log against the C library's, moves it).
        scale = max([abs(v) for v in (rf.get("stored"), rf.get("recomputed")) if is_num(v) and math.isfinite(v)] or [0])
        for field in ("stored", "recomputed", "delta", "tolerance"):
            rv = rf.get(field, "<absent>")
            ov = of.get(field, "<absent>")
            if rv == "<absent>":
                if ov != "<absent>":
                    diffs.append("%s %s: reference absent, ours %r" % (rf.get("field_path"), field, ov))
                continue
            if rv is None or is_num(rv):
                near = close(rv, ov) if ov is None or is_num(ov) else False
                if field == "delta" and is_num(rv) and is_num(ov) and abs(rv - ov) <= 1e-12 * scale:
                    near = True
                if ov == "<absent>" or not (ov is None or is_num(ov)) or not near:
                    diffs.append("%s %s: reference %r, ours %r" % (rf.get("field_path"), field, rv, ov))
            # a non-number the reference echoes (a string, a boolean) is not compared
    return diffs, category


def run_ours(probe, files):
    lines = []
    for i in range(0, len(files), 500):
        p = subprocess.run([probe] + files[i:i + 500], capture_output=True, text=True)
        if p.returncode not in (0,):
            raise SystemExit("probe failed (%d): %s" % (p.returncode, p.stderr[:2000]))
        lines += p.stdout.splitlines()
    return [json.loads(l) for l in lines]


def run_reference(node, dist, wrapper, files, work):
    list_file = os.path.join(work, "files.txt")
    with open(list_file, "w", encoding="utf-8") as f:
        f.write("\n".join(files) + "\n")
    p = subprocess.run([node, wrapper, dist, list_file], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("reference wrapper failed (%d): %s" % (p.returncode, p.stderr[:2000]))
    return [json.loads(l) for l in p.stdout.splitlines()]


def default_files(pkg):
    fx = os.path.join(pkg, "fixtures")
    goldens = sorted(os.path.join(fx, f) for f in os.listdir(fx) if f.endswith(".golden.jsonl") or f.endswith(".multi-step.jsonl"))
    ext = os.path.join(fx, "external")
    goldens += sorted(os.path.join(ext, f) for f in os.listdir(ext) if f.endswith(".golden.jsonl"))
    bad_dir = os.path.join(fx, "bad")
    bad = sorted(os.path.join(bad_dir, f) for f in os.listdir(bad_dir) if f.endswith(".jsonl"))
    return goldens, bad


def target_rule(meta):
    """The rule a bad fixture's meta names as the one that must catch it."""
    if meta.get("expected_rules_fired"):
        return meta["expected_rules_fired"][0]
    for f in meta.get("expected_failures") or []:
        if isinstance(f, dict) and "rule" in f:
            return f["rule"]
    text = str(meta.get("reconciliation_check_targeted_first") or meta.get("fixture") or "")
    if text.startswith("Aspirational Rule 0") or text.startswith("Rule 0"):
        return 0
    m = re.search(r"Rule (\d+)", text)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probe", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--node", default="node")
    ap.add_argument("--rules", default="0-8,11-13")
    ap.add_argument("--all-rules", action="store_true")
    ap.add_argument("--per-family", type=int, default=14, help="mutations per golden record per family")
    ap.add_argument("--seed", type=int, default=20261123)
    ap.add_argument("--work")
    ap.add_argument("--no-mutations", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    missing = reference_missing(args.reference, args.node)
    if missing is not None:
        return missing
    rules = set(range(0, 27)) if args.all_rules else parse_rules(args.rules)
    work = args.work or tempfile.mkdtemp(prefix="reconcile_differential.")
    os.makedirs(work, exist_ok=True)
    dist, wrapper = instrument_reference(args.reference, work)

    goldens, bad = default_files(args.reference)
    inputs = []  # (file, family)
    if args.files:
        inputs += [(f, "given") for f in args.files]
    else:
        inputs += [(f, "golden") for f in goldens] + [(f, "bad_fixture") for f in bad]
    descriptions = {}
    if not args.no_mutations:
        rng = random.Random(args.seed)
        mut_dir = os.path.join(work, "mutations")
        if os.path.isdir(mut_dir):
            shutil.rmtree(mut_dir)
        os.makedirs(mut_dir)
        sources = [f for f, fam in inputs if fam in ("golden", "given")]
        n = 0
        for src in sources:
            recs = records_of(src)
            if not recs:
                continue
            for ri, rec in enumerate(recs):
                for family in FAMILIES:
                    for k in range(len(JS_EDGES) if family == "js_edge" else args.per_family):
                        m = mutate(rec, family, rng, k)
                        if m is None:
                            continue
                        text, desc = m
                        n += 1
                        path = os.path.join(mut_dir, "%05d.%s.jsonl" % (n, family))
                        with open(path, "w", encoding="utf-8") as f:
                            f.write(text + "\n")
                        inputs.append((path, family))
                        descriptions[path] = "%s record %d: %s" % (os.path.basename(src), ri, desc)

    files = [f for f, _ in inputs]
    ref = run_reference(args.node, dist, wrapper, files, work)
    ours = run_ours(args.probe, files)
    # Both sides print one line per record (or one parse_error line per file), in file order.
    ref_by_file = {}
    for r in ref:
        ref_by_file.setdefault(r["file"], []).append(r)
    cursor = 0
    stats = {}
    disagreements = []
    per_rule = {}
    reported = {}  # rule -> records where the reference reported it (coverage of the comparison)
    caught_throws = [0]
    for f, family in inputs:
        want = ref_by_file.get(f, [])
        got = ours[cursor:cursor + len(want)]
        cursor += len(want)
        st = stats.setdefault(family, {"records": 0, "disagree": 0, "reference_threw": 0, "threw_outside_set": 0})
        for w, g in zip(want, got):
            st["records"] += 1
            diffs, category = compare(w, g, rules, args.all_rules)
            if "result" in w:
                rs = {x.get("rule") for x in w["result"].get("failures", [])}
                for r_ in rs:
                    if r_ in rules:
                        reported[r_] = reported.get(r_, 0) + 1
                if any(str(x.get("message", "")).startswith(THREW_PREFIX) for x in w["result"].get("failures", [])) \
                        and w.get("rule_running") in rules:
                    caught_throws[0] += 1
            if category in ("reference_threw", "threw_outside_set"):
                st[category] += 1
            if diffs:
                st["disagree"] += 1
                m_ = re.search(r"rules differing: \[([^\]]*)\]", " ".join(diffs))
                rule_hint = [x.strip() for x in m_.group(1).split(",")] if m_ else []
                for r_ in rule_hint or ["?"]:
                    per_rule[r_] = per_rule.get(r_, 0) + 1
                disagreements.append("%s [%s] %s\n    %s" % (f, family, descriptions.get(f, ""), "\n    ".join(diffs)))
    if cursor != len(ours):
        disagreements.append("line count: reference %d records, ours %d" % (cursor, len(ours)))

    # fixtures/bad: the rule the meta names, when it is in the set, must be among our failures.
    bad_report = []
    ref_fired_by_file = {}
    for r in ref:
        if "result" in r:
            ref_fired_by_file.setdefault(r["file"], set()).update(x.get("rule") for x in r["result"].get("failures", []))
    if not args.files:
        for f in bad:
            meta_path = f[:-len(".jsonl")] + ".meta.json"
            if not os.path.isfile(meta_path):
                continue
            with open(meta_path, encoding="utf-8") as m:
                meta = json.load(m)
            rule = target_rule(meta)
            if rule is None or rule not in rules or rule in (9, 10, 17, 25, 26):
                continue  # cross-record rules fire from reconcileMultiStep, not per record
            got = run_ours(args.probe, [f])
            fired = sorted({x.get("rule") for g in got for x in g.get("failures", [])})
            caught = rule in fired
            ref_fired = sorted(ref_fired_by_file.get(f, set()))
            status = "caught" if caught else "MISSED"
            if not caught and rule not in ref_fired and fired:
                # The meta's rule is aspirational: the reference does not fire it either; both reject.
                status = "rejected by %s (the reference fires %s, not Rule %d either)" % (fired, ref_fired, rule)
            bad_report.append((os.path.basename(f), rule, status, fired))
            if status == "MISSED":
                disagreements.append("%s: meta names Rule %d, ours fired %s" % (f, rule, fired))

    for d in disagreements[: (len(disagreements) if args.verbose else 40)]:
        print("DISAGREE", d)
    print("reconcile differential: rules %s, work dir %s" % ("all" if args.all_rules else args.rules, work))
    total = 0
    for family in ["golden", "bad_fixture", "given"] + FAMILIES:
        if family in stats:
            s = stats[family]
            total += s["records"]
            print("  %-14s records %5d  disagreements %4d  reference_threw %4d  threw_outside_set %4d" % (
                family, s["records"], s["disagree"], s["reference_threw"], s["threw_outside_set"]))
    print("  total records %d, disagreements %d" % (total, sum(s["disagree"] for s in stats.values())))
    print("  records where the reference reports each rule:", ", ".join(
        "%d: %d" % kv for kv in sorted(reported.items())))
    print("  records where a rule of the set threw inside the reference's try (compared as Rule 0 'updates'): %d"
          % caught_throws[0])
    if per_rule:
        print("  disagreements by rule:", ", ".join("%s: %d" % kv for kv in sorted(per_rule.items())))
    if bad_report:
        caught = sum(1 for b in bad_report if b[2] == "caught")
        print("  bad fixtures naming a rule in the set: %d, caught by that rule: %d" % (len(bad_report), caught))
        for name, rule, status, fired in bad_report:
            print("    %-60s Rule %-2d %s (ours fired %s)" % (name, rule, status, fired))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
