// Runs many reference `bp` command lines in ONE node process (each start of the reference CLI
// costs about a second, most of it compiling its schemas; used by the verify and import
// cross-checks and the CLI grammar replay):
// bp.js does its work while its module is evaluated and ends with process.exit(), so each case
// imports it afresh (a new query string is a new module instance; the library it imports is
// shared) with process.argv set, process.exit turned into an exception, and stdout / stderr captured.
//
// usage: node bp_verify_reference.mjs <reference-package-dir> <cases.json> <results.json>
//   cases.json:   [{"args": ["verify", "general", "/path/f.jsonl", "--json"]}, ...]
//   results.json: [{"code": 1, "stdout": "...", "stderr": "..."}, ...]
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pkgDir, casesPath, resultsPath] = process.argv.slice(2);
const bpUrl = pathToFileURL(path.join(pkgDir, "dist", "bin", "bp.js")).href;
const cases = JSON.parse(readFileSync(casesPath, "utf8"));

class Exit {
  constructor(code) {
    this.code = code;
  }
}

const realExit = process.exit;
const realOut = process.stdout.write.bind(process.stdout);
const realErr = process.stderr.write.bind(process.stderr);
const results = [];
for (let i = 0; i < cases.length; i += 1) {
  let out = "";
  let err = "";
  process.argv = [process.argv[0], path.join(pkgDir, "dist", "bin", "bp.js"), ...cases[i].args];
  process.exit = (code) => {
    throw new Exit(code ?? 0);
  };
  process.stdout.write = (chunk) => {
    out += String(chunk);
    return true;
  };
  process.stderr.write = (chunk) => {
    err += String(chunk);
    return true;
  };
  let code;
  try {
    await import(`${bpUrl}?case=${i}`);
    code = 0;
  } catch (e) {
    code = e instanceof Exit ? e.code : `threw: ${e && e.stack ? e.stack : e}`;
  } finally {
    process.exit = realExit;
    process.stdout.write = realOut;
    process.stderr.write = realErr;
  }
  results.push({ code, stdout: out, stderr: err });
}
writeFileSync(resultsPath, JSON.stringify(results));
