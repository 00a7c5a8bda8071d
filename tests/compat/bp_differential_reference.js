// Runs the reference library's `generate from-config` pipeline (parseTopologyInput ->
// runGeneralStep -> emitGeneralReceipt, what its CLI does) over every case_*.json in a
// directory in ONE node process, writing case_*.ref.jsonl (the receipt bytes) or
// case_*.ref.err (why the reference refused).
//
// usage: node bp_differential_reference.js <reference package dir> <cases dir>
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

async function main() {
  const [pkgDir, casesDir] = process.argv.slice(2);
  if (!pkgDir || !casesDir) {
    process.stderr.write("usage: node bp_differential_reference.js <package dir> <cases dir>\n");
    process.exit(2);
  }
  const lib = await import(pathToFileURL(path.join(pkgDir, "dist", "index.js")).href);
  const cases = fs.readdirSync(casesDir).filter((f) => /^case_\d+\.json$/.test(f)).sort();
  let ok = 0;
  for (const name of cases) {
    const base = path.join(casesDir, name.replace(/\.json$/, ""));
    const text = fs.readFileSync(path.join(casesDir, name), "utf-8");
    const parsed = lib.parseTopologyInput(text);
    if (!parsed.ok) {
      fs.writeFileSync(`${base}.ref.err`, `REJECT ${parsed.error.kind}: ${parsed.error.message}\n`);
      continue;
    }
    try {
      fs.writeFileSync(`${base}.ref.jsonl`, lib.emitGeneralReceipt(lib.runGeneralStep(parsed.input)));
      ok += 1;
    } catch (err) {
      fs.writeFileSync(`${base}.ref.err`, `ENGINE ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
  process.stdout.write(`reference: ${cases.length} cases, ${ok} receipts, ${cases.length - ok} refusals\n`);
}

main().catch((err) => {
  process.stderr.write(`bp_differential_reference.js: ${err && err.stack ? err.stack : err}\n`);
  process.exit(2);
});
