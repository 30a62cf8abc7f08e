// The LoCoMo tables (peers, latency, ablation per split) and the recall@k plot. Run alone it prints
// the Markdown of an existing locomo.json and redraws its plot:
//   pnpm tsx bench/locomo-report.ts [docs/benchmarks/locomo.json]
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Table, toMarkdown } from "./bench-report.js";
import type { Goal } from "./bench-results.js";
import type { LocomoBenchResults } from "./locomo-bench.js";
import type { QualityRow } from "./locomo-quality.js";
import { SPLITS } from "./locomo-quality.js";
import type { Latency } from "./stats.js";
import { lineChart } from "./svg-plot.js";

const CATEGORIES = [
  ["1", "multi-hop"],
  ["2", "temporal"],
  ["3", "open-domain"],
  ["4", "single-hop"],
] as const;

const r3 = (x: number | undefined): string => (x ?? 0).toFixed(3);
const signed = (x: number, digits = 3): string =>
  `${x > 0 ? "+" : x < 0 ? "-" : "±"}${Math.abs(x).toFixed(digits)}`;
const ms = (x: number): string => x.toFixed(x < 10 ? 2 : 1);
const pp = (l: Latency | undefined): string =>
  l ? `${ms(l.p50)} / ${ms(l.p95)} (CPU ${ms(l.cpuMean ?? Number.NaN)})` : "-";

function peerTable(r: LocomoBenchResults): Table {
  const n = r.peers[0]?.questions ?? 0;
  return {
    title: `LoCoMo dev, ${n} questions: evidence recall at turn level, and the evidence in a ${r.budgetTokens.toLocaleString("en")}-token context`,
    header: [
      "system",
      "recall@5",
      "recall@10",
      "recall@20",
      ...CATEGORIES.map(([id, name]) => `${id} ${name} @10`),
      "context evidence",
      "context tokens",
      "context from",
    ],
    rows: r.peers.map((p) => [
      p.system,
      r3(p.recall["5"]),
      r3(p.recall["10"]),
      r3(p.recall["20"]),
      ...CATEGORIES.map(([id]) => r3(p.by_category[id]?.recall["10"])),
      r3(p.context_evidence_recall),
      p.context_tokens_avg.toLocaleString("en"),
      p.context === "retrieve" ? "retrieve" : "top 50 hits",
    ]),
  };
}

function latencyTable(r: LocomoBenchResults): Table {
  return {
    title:
      "Query latency on the LoCoMo dev split, ms wall p50 / p95 (mean CPU ms of this process per call); one conversation per user, 369-680 turns",
    header: [
      "system",
      "search k 20, incl. query embedding",
      "search k 20, excl. embedding",
      "retrieve, incl. embedding",
    ],
    rows: r.peers.map((p) => [p.system, pp(p.searchIncl), pp(p.searchExcl), pp(p.retrieveIncl)]),
  };
}

/** One split's ablation: each variant beside the defaults (the first variant) of the same split. */
function ablationTable(rows: readonly QualityRow[], split: string): Table {
  const mine = rows.filter((row) => row.split === split);
  const base = mine[0];
  const delta = (x: number, y: number | undefined) => signed(x - (y ?? 0));
  return {
    title: `Ablation, ${split} (${base?.questions ?? 0} questions; deltas against "${base?.variant}")`,
    header: [
      "variant",
      "recall@5 / 10 / 20",
      "Δ recall@10",
      "multi-hop @10",
      "context evidence",
      "Δ context",
      "context tokens",
      "retrieve ms p50 / p95",
      "Δ p50 ms",
      "retrieve CPU ms",
      "Δ CPU ms",
    ],
    rows: mine.map((row) => [
      row.variant,
      `${r3(row.recall["5"])} / ${r3(row.recall["10"])} / ${r3(row.recall["20"])}`,
      delta(row.recall["10"] ?? 0, base?.recall["10"]),
      r3(row.by_category["1"]?.["10"]),
      r3(row.context_evidence_recall),
      delta(row.context_evidence_recall, base?.context_evidence_recall),
      row.context_tokens_avg.toLocaleString("en"),
      `${ms(row.retrieve_ms_p50)} / ${ms(row.retrieve_ms_p95)}`,
      signed(row.retrieve_ms_p50 - (base?.retrieve_ms_p50 ?? 0), 2),
      ms(row.retrieve_cpu_ms_mean ?? Number.NaN),
      signed((row.retrieve_cpu_ms_mean ?? 0) - (base?.retrieve_cpu_ms_mean ?? 0), 2),
    ]),
  };
}

/** Issue 14's bound on `retrieve` with its query embedding, on the dev split. */
export function retrieveGoal(r: LocomoBenchResults): Goal {
  const l = r.peers.find((p) => p.retrieveIncl)?.retrieveIncl;
  return {
    name: "retrieve on the LoCoMo dev split (budget 1,500), including the query embedding",
    target: "p50 <= 30 ms",
    actual: l ? `p50 ${ms(l.p50)} ms, p95 ${ms(l.p95)} ms` : "not measured",
    met: l !== undefined && l.p50 <= 30,
  };
}

export function locomoTables(r: LocomoBenchResults): Table[] {
  // A data file without conversations 3-4 (e.g. one conversation) has an empty check split: no table.
  const splits = Object.keys(SPLITS).filter((split) =>
    r.ablation.some((row) => row.split === split && row.questions > 0),
  );
  return [peerTable(r), latencyTable(r), ...splits.map((split) => ablationTable(r.ablation, split))];
}

/** recall@k curves, k = 1..20, one line per system; returns the file name. */
export async function writeLocomoPlot(r: LocomoBenchResults, dir: string): Promise<string> {
  const name = "locomo-recall.svg";
  const svg = lineChart({
    title: `LoCoMo dev: evidence recall@k (${r.peers[0]?.questions ?? 0} questions)`,
    xLabel: "k (turns retrieved)",
    yLabel: "recall@k",
    scale: "linear",
    yRange: [0, 1],
    series: r.peers.map((p, i) => ({
      name: p.system.replace(" (infer: false)", ""),
      color: i,
      points: Object.entries(p.recall).map(([k, v]) => [Number(k), v] as const),
    })),
  });
  await writeFile(join(dir, name), svg);
  return name;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2] ?? fileURLToPath(new URL("../docs/benchmarks/locomo.json", import.meta.url));
  const results = JSON.parse(await readFile(file, "utf8")) as LocomoBenchResults;
  await writeLocomoPlot(results, dirname(file));
  console.log(toMarkdown(locomoTables(results)));
}
