#!/usr/bin/python3
"""Cross-checks our JSON Schemas (schemas/) against the reference package's.

Every document we can find -- the reference's fixtures (goldens, multi-step runs,
sidecars, bad fixtures), topology inputs from the reference's `scaffold`, our own
fixtures, and systematic mutations of all of them -- is validated against BOTH
schema sets. The two verdicts must agree on every document; goldens must be valid.

usage: schema_crosscheck.py --ours DIR --reference PKG_DIR [--our-fixtures DIR] [--node NODE]
Needs python jsonschema (>= 4, Draft 2020-12). Exit 0 on agreement, 1 on any
disagreement, 2 on a setup problem.
"""
import argparse
import copy
import glob
import json
import os
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("schema_crosscheck: python jsonschema is not installed for", sys.executable)
    sys.exit(2)

RECEIPT_VERSIONS = ["0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0"]


ANNOTATIONS = {"$id", "title", "description", "$comment", "examples", "x-purpose"}


def constraints(node, in_names=False):
    """The schema with annotations removed: what validates, plus x-order."""
    if isinstance(node, dict):
        return {k: constraints(v, (k in ("properties", "$defs", "patternProperties")) and not in_names)
                for k, v in node.items()
                if in_names or not (k in ANNOTATIONS or k.startswith("x-changes-from-"))}
    if isinstance(node, list):
        return [constraints(v) for v in node]
    return node


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return path or "/"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}/{k}"
            d = first_difference(a[k], b[k], f"{path}/{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return path
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}/{i}")
            if d:
                return d
        return None
    return None if a == b else path


def load_raw(directory):
    out = {}
    for path in glob.glob(os.path.join(directory, "*.json")):
        with open(path, encoding="utf-8") as fh:
            out[os.path.basename(path)[: -len(".json")]] = json.load(fh)
    return out


def is_bp_format(name):
    """The nltrain formats (nltrain-*) and atenia's (atenia-*) belong to other tools of the suite,
    and bp's own --json results (bp-*) and tensor-step receipts are not wire formats of the reference package: it has no
    counterpart to compare them with."""
    return not name.startswith(("nltrain-", "atenia-", "bp-", "tensor-step"))


def load_schemas(directory):
    schemas = {}
    for path in glob.glob(os.path.join(directory, "*.json")):
        name = os.path.basename(path)[: -len(".json")]
        with open(path, encoding="utf-8") as fh:
            schema = json.load(fh)
        jsonschema.Draft202012Validator.check_schema(schema)
        schemas[name] = jsonschema.Draft202012Validator(schema)
    return schemas


def schema_name_for(doc):
    """Which schema a document is checked against (the reference's dispatch rules)."""
    if not isinstance(doc, dict):
        return "receipt.v0.2.0"
    fmt = doc.get("format")
    if isinstance(fmt, str) and fmt.startswith("framework-trace.v"):
        return fmt
    if "schema_version" in doc or "forward" in doc:
        sv = doc.get("schema_version")
        return "receipt.v" + (sv if sv in RECEIPT_VERSIONS else "0.2.0")
    return "topology-input.v0.4.0"


def read_documents(path):
    with open(path, encoding="utf-8-sig") as fh:
        text = fh.read()
    if path.endswith(".jsonl"):
        lines = [l for l in text.replace("\r\n", "\n").split("\n") if l.strip()]
    else:
        lines = [text]
    docs = []
    for i, line in enumerate(lines):
        try:
            docs.append(json.loads(line))
        except ValueError:
            pass  # some bad fixtures are not JSON on purpose
    return docs


def mutations(doc, limit):
    """A bounded set of structural edits: drop / retype / extend objects, empty arrays,
    spread evenly over the document's paths."""
    out = []
    paths = []

    def walk(node, path, depth):
        if depth > 6 or len(paths) > 400:
            return
        paths.append((path, node))
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + [k], depth + 1)
        elif isinstance(node, list) and node:
            walk(node[0], path + [0], depth + 1)

    walk(doc, [], 0)

    def edit(path, fn):
        d = copy.deepcopy(doc)
        parent = d
        for p in path[:-1]:
            parent = parent[p]
        fn(parent, path[-1])
        return d

    for path, node in paths[1:]:
        out.append(edit(path, lambda parent, key: parent.__delitem__(key)))
        replacement = "x" if not isinstance(node, str) else 7
        out.append(edit(path, lambda parent, key, r=replacement: parent.__setitem__(key, r)))
        if isinstance(node, (int, float)) and not isinstance(node, bool):
            out.append(edit(path, lambda parent, key, n=node: parent.__setitem__(key, -abs(n) - 1)))
        if isinstance(node, dict):
            out.append(edit(path, lambda parent, key: parent[key].__setitem__("zz_unexpected", 1)))
        if isinstance(node, list):
            out.append(edit(path, lambda parent, key: parent.__setitem__(key, [])))
    extra = copy.deepcopy(doc)
    if isinstance(extra, dict):
        extra["zz_unexpected"] = 1
        out.append(extra)
    if len(out) > limit:
        step = len(out) / limit
        out = [out[int(i * step)] for i in range(limit)]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--our-fixtures")
    ap.add_argument("--node", default="node")
    ap.add_argument("--verdicts-out", help="write each document with the reference schema's verdict (JSONL), "
                    "for the C++ validator's differential test")
    ap.add_argument("--mutations-per-schema", type=int, default=25,
                    help="mutations of the first document of each schema version (jsonschema is slow)")
    args = ap.parse_args()

    ours = load_schemas(args.ours)
    ours = {name: doc for name, doc in ours.items() if is_bp_format(name)}
    theirs = load_schemas(os.path.join(args.reference, "schemas"))
    if set(ours) != set(theirs):
        print("schema sets differ: only ours:", sorted(set(ours) - set(theirs)),
              "only reference:", sorted(set(theirs) - set(ours)))
        return 1

    # 1. Same constraints and x-order, keyword for keyword (annotations aside).
    ours_raw, theirs_raw = load_raw(args.ours), load_raw(os.path.join(args.reference, "schemas"))
    ours_raw = {name: doc for name, doc in ours_raw.items() if is_bp_format(name)}
    structural = 0
    for name in sorted(ours_raw):
        d = first_difference(constraints(ours_raw[name]), constraints(theirs_raw[name]))
        if d:
            structural += 1
            print(f"DIFFERENT constraints in {name} at {d}")
    if structural:
        return 1

    # 2. Same verdicts on documents (guards the comparison above and our fixtures).
    sources = []  # (label, doc, must_be_valid)
    fx = os.path.join(args.reference, "fixtures")
    for path in sorted(glob.glob(os.path.join(fx, "*.jsonl")) + glob.glob(os.path.join(fx, "external", "*.jsonl"))
                       + glob.glob(os.path.join(fx, "bad", "*.jsonl"))):
        golden = ".golden." in os.path.basename(path)
        for i, doc in enumerate(read_documents(path)):
            sources.append(("reference:" + os.path.relpath(path, fx) + f"#{i + 1}", doc, golden))
    bp = os.path.join(args.reference, "dist", "bin", "bp.js")
    for topo in ("mazur", "xor", "iris"):
        r = subprocess.run([args.node, bp, "scaffold", "topology", "--topology", topo],
                           capture_output=True, text=True, check=False)
        if r.returncode != 0:
            print(f"reference scaffold {topo} failed: {r.stderr.strip()}")
            return 2
        sources.append((f"reference:scaffold-{topo}", json.loads(r.stdout), True))
    if args.our_fixtures and os.path.isdir(args.our_fixtures):
        for path in sorted(glob.glob(os.path.join(args.our_fixtures, "**", "*.json*"), recursive=True)):
            for i, doc in enumerate(read_documents(path)):
                if not isinstance(doc, dict):
                    continue
                name = schema_name_for(doc)
                if name not in ours:
                    continue  # not one of the bp wire formats (atenia, nltrain ...)
                if name.startswith("topology-input") and "topology" not in doc:
                    continue
                bad = ".bad" in path or "/bad/" in path
                sources.append(("ours:" + os.path.relpath(path, args.our_fixtures) + f"#{i + 1}", doc, not bad))

    verdicts = open(args.verdicts_out, "w", encoding="utf-8") if args.verdicts_out else None
    checked = disagreements = invalid_goldens = mutated = 0
    mutated_schemas = set()
    for label, doc, must_be_valid in sources:
        docs = [(label, doc)]
        name = schema_name_for(doc)
        if name not in mutated_schemas and (name not in ours or ours[name].is_valid(doc)):
            mutated_schemas.add(name)
            docs += [(f"{label} (mutation {k})", m) for k, m in enumerate(mutations(doc, args.mutations_per_schema))]
        for sub_label, d in docs:
            name = schema_name_for(d)
            if name not in ours:
                continue
            a = ours[name].is_valid(d)
            b = theirs[name].is_valid(d)
            checked += 1
            mutated += sub_label is not label
            if verdicts:
                verdicts.write(json.dumps({"label": sub_label, "schema": name, "valid": b, "doc": d},
                                          ensure_ascii=False) + "\n")
            if a != b:
                disagreements += 1
                if disagreements <= 20:
                    err = next(iter((ours if b else theirs)[name].iter_errors(d)), None)
                    print(f"DISAGREE {sub_label} [{name}]: ours={'valid' if a else 'invalid'}, "
                          f"reference={'valid' if b else 'invalid'}; {err.message if err else ''}")
        if must_be_valid:
            name = schema_name_for(doc)
            if name in ours and not ours[name].is_valid(doc):
                invalid_goldens += 1
                err = next(iter(ours[name].iter_errors(doc)))
                print(f"INVALID golden {label} [{name}]: {err.json_path}: {err.message}")
    if verdicts:
        verdicts.close()
    print(f"schema_crosscheck: {len(sources)} documents, {checked} validations ({mutated} on mutations), "
          f"{disagreements} disagreements, {invalid_goldens} invalid goldens")
    return 0 if disagreements == 0 and invalid_goldens == 0 and len(sources) > 50 else 1


if __name__ == "__main__":
    sys.exit(main())
