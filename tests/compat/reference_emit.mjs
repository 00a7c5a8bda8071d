// Runs the reference package's own emitter over receipt files, so our emitter can
// be compared with it byte for byte (including on non-canonical and damaged input).
// usage: node reference_emit.mjs <package-dir> <out-dir> <file.jsonl or directory>...
// (a directory stands for the *.jsonl files in it)
// For each input writes <out-dir>/<basename>.emitted (bytes) or <basename>.error (one line).
import { readFileSync, writeFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, outDir, ...args] = process.argv.slice(2);
const files = args.flatMap((a) => statSync(a).isDirectory()
  ? readdirSync(a).filter((n) => n.endsWith(".jsonl")).sort().map((n) => join(a, n))
  : [a]);
const { emitReceipts } = await import(pathToFileURL(join(pkg, "dist", "emit.js")).href);
mkdirSync(outDir, { recursive: true });
let ok = 0, failed = 0;
for (const file of files) {
  const name = basename(file);
  try {
    const lines = readFileSync(file, "utf8").split(/\r?\n/).filter((l) => l.trim().length > 0);
    const out = emitReceipts(lines.map((l) => JSON.parse(l)));
    writeFileSync(join(outDir, name + ".emitted"), out);
    ok++;
  } catch (e) {
    writeFileSync(join(outDir, name + ".error"), `${e.name}: ${e.kind ?? ""}\n`);
    failed++;
  }
}
console.log(`reference emitter: ${ok} emitted, ${failed} refused`);
