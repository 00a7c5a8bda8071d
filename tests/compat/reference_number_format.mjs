// Writes the reference runtime formatter's answers for many doubles, one process.
// usage: node reference_number_format.mjs <package-dir> <out-file> [count]
// Line: <16 hex digits of the IEEE-754 bits> <v.toPrecision(17)> <formatted | !ERROR_KIND>
// The doubles come from a fixed-seed generator: every decimal magnitude from 1e-16 to
// 1e8 with random digits, random bit patterns in that range, values one ulp around the
// range edges and around 9-digit ties, and short decimals (0.1234567885 and friends).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, out, countArg] = process.argv.slice(2);
const { formatNumberForEngine } = await import(pathToFileURL(join(pkg, "dist", "runtime-format.js")).href);
const count = Number(countArg ?? 100000);

let state = 0x9e3779b97f4a7c15n;
const next64 = () => {  // xorshift64*
  state ^= state >> 12n; state ^= (state << 25n) & 0xffffffffffffffffn; state ^= state >> 27n;
  return (state * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
};
const unit = () => Number(next64() >> 11n) / 2 ** 53;
const view = new DataView(new ArrayBuffer(8));
const fromBits = (b) => { view.setBigUint64(0, b); return view.getFloat64(0); };
const bitsOf = (v) => { view.setFloat64(0, v); return view.getBigUint64(0); };
const nextUp = (v) => fromBits(bitsOf(v) + (v >= 0 ? 1n : -1n));
const nextDown = (v) => fromBits(bitsOf(v) - (v > 0 ? 1n : -1n));

const values = [];
for (const edge of [1e-13, 1e7, 9999999.995, 9.9999999995e-14, 1e-12, 0.1234567885, 0.1234567895, 1000000.00048828125]) {
  for (const v of [edge, nextUp(edge), nextDown(edge)]) values.push(v, -v);
}
values.push(0, -0, 5e-324, 1.7976931348623157e308);
while (values.length < count) {
  const kind = values.length % 4;
  let v;
  if (kind === 0) v = (1 + unit() * 9) * 10 ** (Math.floor(unit() * 25) - 16);     // any magnitude
  else if (kind === 1) v = fromBits((next64() & 0x000fffffffffffffn) | (BigInt(0x3cd + Math.floor(unit() * 0x6d)) << 52n));
  else if (kind === 2) v = Number((unit() * 10 ** (1 + Math.floor(unit() * 7))).toFixed(Math.floor(unit() * 12)));
  else { const t = Number((unit()).toFixed(9)) + 5e-10 * (unit() < 0.5 ? 1 : -1); v = t * 10 ** (Math.floor(unit() * 12) - 6); }
  values.push(unit() < 0.5 ? -v : v);
}
const lines = values.map((v) => {
  let r;
  try { r = formatNumberForEngine(v); } catch (e) { r = "!" + (e.kind ?? e.name); }
  return `${bitsOf(v).toString(16).padStart(16, "0")} ${v.toPrecision(17)} ${r}`;
});
writeFileSync(out, lines.join("\n") + "\n");
console.log(`reference formatter: ${values.length} values written to ${out}`);
