// For every receipt file under the reference's fixtures/ tree, what the reference's `bp validate`
// decides, computed in ONE node process with its library (the same reading rules as its CLI:
// .jsonl = one record per line, exactly one, else the whole file as one document).
// Writes one JSON line per file: {"file", "read_error"} or {"file", "ok", "errors":[{instancePath, message}]}.
//
// usage: node bp_validate_reference.js <reference package dir>
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

function walk(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (/\.jsonl?$/.test(e.name) && !e.name.endsWith(".meta.json")) out.push(p);
  }
  return out.sort();
}

function readReceipt(file) {
  const raw = fs.readFileSync(file, "utf-8");
  if (path.extname(file).toLowerCase() === ".jsonl") {
    const lines = raw.split(/\r?\n/).filter((l) => l.trim().length > 0);
    const records = [];
    let all = true;
    for (const l of lines) {
      try { records.push(JSON.parse(l)); } catch { all = false; break; }
    }
    if (all && records.length > 0) {
      if (records.length !== 1) throw new Error("multi-record");
      return records[0];
    }
  }
  return JSON.parse(raw);
}

async function main() {
  const pkgDir = process.argv[2];
  const lib = await import(pathToFileURL(path.join(pkgDir, "dist", "index.js")).href);
  for (const file of walk(path.join(pkgDir, "fixtures"))) {
    let receipt;
    try {
      receipt = readReceipt(file);
    } catch (err) {
      process.stdout.write(JSON.stringify({ file, read_error: String(err && err.message) }) + "\n");
      continue;
    }
    const r = lib.validateReceiptSchema(receipt);
    const errors = r.ok ? [] : r.errors.map((e) => ({ instancePath: e.instancePath, message: e.message }));
    process.stdout.write(JSON.stringify({ file, ok: r.ok, errors }) + "\n");
  }
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + "\n");
  process.exit(2);
});
