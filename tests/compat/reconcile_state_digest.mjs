// The reference's attestation digest of each record of a JSON Lines file, for building Rule 16 cases:
//   node reconcile_state_digest.mjs <reference-package-dir> FILE
// One line per record: "sha256:<hex>" of the canonical bytes of the record with
// attestor.signed_subject_digest removed (what the reference's Rule 16 recomputes), or "error: ...".
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pkgDir, file] = process.argv.slice(2);
const { emitGeneralReceipt } = await import(pathToFileURL(path.join(pkgDir, "dist", "emit.js")).href);
const { hashReceipt } = await import(pathToFileURL(path.join(pkgDir, "dist", "hash.js")).href);
const out = [];
for (const line of readFileSync(file, "utf8").split("\n")) {
  if (line.trim() === "") continue;
  try {
    const r = JSON.parse(line);
    if (r.attestor && typeof r.attestor === "object") delete r.attestor.signed_subject_digest;
    out.push(`sha256:${hashReceipt(emitGeneralReceipt(r))}`);
  } catch (e) {
    out.push(`error: ${e.message}`);
  }
}
process.stdout.write(out.join("\n") + "\n");
