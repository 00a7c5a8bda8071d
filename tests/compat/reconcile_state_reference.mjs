// The reference's side of tests/compat/reconcile_state_differential.py:
//   node reconcile_state_reference.mjs <reference-package-dir> digest FILE
//     one line per record: the reference's Rule 16 digest of the record ("sha256:<hex>": canonical
//     bytes of the record without attestor.signed_subject_digest), or "error: ...".
//   node reconcile_state_reference.mjs <reference-package-dir> reconcile [--multi] FILE...
//     as tests/compat/reconcile_reference.mjs (one line per record, or per file with --multi), except
//     that a reference that throws (it does on some malformed records, e.g. a null topology parameter)
//     gives {"reference_threw": message} for that record or bundle instead of ending the run.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pkgDir, mode, ...rest] = process.argv.slice(2);
const load = (name) => import(pathToFileURL(path.join(pkgDir, "dist", name)).href);

function records(file) {
  const text = readFileSync(file, "utf8");
  try {
    return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  } catch {
    return [JSON.parse(text)];
  }
}

const out = [];
if (mode === "digest") {
  const { emitGeneralReceipt } = await load("emit.js");
  const { hashReceipt } = await load("hash.js");
  for (const r of records(rest[0])) {
    try {
      if (r.attestor && typeof r.attestor === "object") delete r.attestor.signed_subject_digest;
      out.push(`sha256:${hashReceipt(emitGeneralReceipt(r))}`);
    } catch (e) {
      out.push(`error: ${e.message}`);
    }
  }
} else {
  const { reconcileReceipt, reconcileMultiStep } = await load("reconcile.js");
  const guarded = (f) => {
    try {
      return JSON.stringify(f());
    } catch (e) {
      return JSON.stringify({ reference_threw: String(e && e.message) });
    }
  };
  let multi = false;
  for (const arg of rest) {
    if (arg === "--multi") { multi = true; continue; }
    let recs;
    try { recs = records(arg); } catch (e) { out.push(JSON.stringify({ parse_error: String(e.message) })); continue; }
    if (multi) out.push(guarded(() => reconcileMultiStep(recs)));
    else for (const r of recs) out.push(guarded(() => reconcileReceipt(r)));
  }
}
process.stdout.write(out.length ? out.join("\n") + "\n" : "");
