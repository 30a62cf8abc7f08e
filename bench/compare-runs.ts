// Runs of the code before a change against runs after it, figure by figure, from the results.json files
// `pnpm bench --only perf --out DIR` writes. A figure counts as moved only when the median of the new
// runs differs from the median of the old ones by more than the old runs spread (the noise of this
// machine for that figure); moved figures are listed worse and better apart, and as many moving each
// way is what noise looks like. Run old and new in turn (old, new, old, new...) so drift hits both.
//   pnpm tsx bench/compare-runs.ts OLD1/results.json OLD2/results.json ... --vs NEW1/results.json ...
import { readFileSync } from "node:fs";

type Leaf = [path: string, value: number];

function leaves(value: unknown, path = ""): Leaf[] {
  if (typeof value === "number") return Number.isFinite(value) ? [[path, value]] : [];
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [];
}

/** Whether a larger value of this figure is better (throughput, recall) or worse (time, memory). */
function higherIsBetter(path: string): boolean | null {
  const last = path.split(".").at(-1) ?? "";
  if (/PerSec|PerCpuSec|top1|top3|mrr|recall|speedup|ratio/i.test(last)) return true;
  if (/^(p50|p95|p99|mean|max|cpuMean|seconds|ms|Ms|MiB)$|Ms$|MiB$|Seconds$|Bytes$/.test(last)) return false;
  return null;
}

// Sizes, counts and settings of the run, not measurements.
const SETTINGS =
  /^(machine|method|mode|goals)\.|\.(n|texts|turns|pairs|batch|messagesPerCall|meanChars|memories|users|k)$/;

const args = process.argv.slice(2);
const split = args.indexOf("--vs");
if (split < 2 || args.length - split - 1 < 1) {
  console.error("usage: compare-runs.ts OLD1.json OLD2.json [...] --vs NEW1.json [...]");
  process.exit(2);
}
const read = (files: string[]) => files.map((f) => new Map(leaves(JSON.parse(readFileSync(f, "utf8")))));
const olds = read(args.slice(0, split));
const news = read(args.slice(split + 1));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const fmt = (xs: number[]) => xs.map((x) => x.toPrecision(4)).join(" ");
const worse: string[] = [];
const better: string[] = [];
let compared = 0;
for (const path of (olds[0] as Map<string, number>).keys()) {
  const direction = higherIsBetter(path);
  if (direction === null || SETTINGS.test(path)) continue;
  const a = olds.map((r) => r.get(path));
  const b = news.map((r) => r.get(path));
  if ([...a, ...b].some((x) => x === undefined)) continue;
  const [av, bv] = [a as number[], b as number[]];
  compared++;
  const oldMid = median(av);
  const noise = Math.max(...av) - Math.min(...av);
  const delta = median(bv) - oldMid;
  if (Math.abs(delta) <= noise || oldMid === 0) continue;
  const pct = (x: number) => ((x / Math.abs(oldMid)) * 100).toFixed(1);
  const line = `${path}: old ${fmt(av)}, new ${fmt(bv)} (median ${delta > 0 ? "+" : ""}${pct(delta)}%, old runs spread ${pct(noise)}%)`;
  (delta > 0 === direction ? better : worse).push(line);
}
console.log(
  `${compared} figures compared; moved by more than the old runs differ: ${worse.length} worse, ${better.length} better`,
);
console.log("\nworse:");
for (const line of worse) console.log(`  ${line}`);
console.log("\nbetter:");
for (const line of better) console.log(`  ${line}`);
