// The reference reconciler's raw results, for comparison with build/tests/reconcile_probe:
//   node reconcile_reference.mjs <reference-package-dir> [--multi] FILE...
// Same output shape and line structure as the probe (one line per record, or per file with --multi).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pkgDir, ...rest] = process.argv.slice(2);
const { reconcileReceipt, reconcileMultiStep } = await import(
  pathToFileURL(path.join(pkgDir, "dist", "reconcile.js")).href
);
let multi = false;
const out = [];
for (const arg of rest) {
  if (arg === "--multi") { multi = true; continue; }
  // JSON Lines, unless some line is not JSON on its own: then the file is one (pretty) document.
  const text = readFileSync(arg, "utf8");
  let records = [];
  try {
    for (const line of text.split("\n")) if (line.trim() !== "") records.push(JSON.parse(line));
  } catch {
    try { records = [JSON.parse(text)]; } catch (e) { out.push(JSON.stringify({ parse_error: String(e.message) })); continue; }
  }
  if (multi) out.push(JSON.stringify(reconcileMultiStep(records)));
  else for (const r of records) out.push(JSON.stringify(reconcileReceipt(r)));
}
process.stdout.write(out.length ? out.join("\n") + "\n" : "");
