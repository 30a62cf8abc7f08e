// The SVG plots of a benchmark run. Run alone it redraws them from an existing results file:
//   pnpm tsx bench/bench-plots.ts [docs/benchmarks/results.json]
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BenchResults } from "./bench-results.js";
import type { SearchFigures } from "./search-bench.js";
import { barChart, lineChart, type Series } from "./svg-plot.js";

type Metric = (s: SearchFigures) => number;

function series(
  rows: readonly SearchFigures[],
  name: string,
  pick: Metric,
  color: number,
  dashed = false,
): Series {
  return { name, dashed, color, points: rows.map((s) => [s.scopeSize, pick(s)] as const) };
}

/** Writes the SVG plots next to results.json; returns their file names. */
export async function writePlots(results: BenchResults, dir: string): Promise<string[]> {
  const single = results.search.filter((s) => s.users === 1);
  const many = results.search.filter((s) => s.users > 1);
  const manySeries = many.flatMap((s) => [
    series([s], `${s.users.toLocaleString("en")} users, p50 excl.`, (x) => x.excludingEmbedding.p50, 4),
    series([s], `${s.users.toLocaleString("en")} users, p95 excl.`, (x) => x.excludingEmbedding.p95, 4, true),
  ]);
  const plots: Record<string, string> = {
    "search-latency.svg": lineChart({
      title: "engram.search latency (k 10, hybrid) vs memories in the scope",
      xLabel: "memories in the queried user's scope",
      yLabel: "milliseconds",
      series: [
        series(single, "p50 excl. embedding", (s) => s.excludingEmbedding.p50, 0),
        series(single, "p95 excl. embedding", (s) => s.excludingEmbedding.p95, 0, true),
        series(single, "p50 incl. embedding", (s) => s.includingEmbedding.p50, 2),
        series(single, "p95 incl. embedding", (s) => s.includingEmbedding.p95, 2, true),
        ...manySeries,
      ],
      guide: { y: 2, label: "goal: p50 2 ms at 10k" },
    }),
    "search-channels.svg": lineChart({
      title: `Channels alone (full-text k ${single[0]?.fulltextK}, vector k ${single.find((x) => !x.annIndex)?.vectorK}, ${single.find((x) => x.annIndex)?.vectorK} through the graph), one scope`,
      xLabel: "memories in the scope",
      yLabel: "milliseconds",
      series: [
        series(single, "full-text p50", (s) => s.fulltextChannel.p50, 0),
        series(single, "full-text p95", (s) => s.fulltextChannel.p95, 0, true),
        series(single, "vector p50", (s) => s.vectorChannel.p50, 2),
        series(single, "vector p95", (s) => s.vectorChannel.p95, 2, true),
      ],
    }),
    "scope-costs.svg": lineChart({
      title: "Costs that grow with the scope",
      xLabel: "memories in the scope",
      yLabel: "milliseconds",
      series: [
        series(single, "first search", (s) => s.firstSearch.max, 1),
        series(single, "add 1 message, p50", (s) => s.addInScope.p50, 3),
        series(single, "add 1 message, p95", (s) => s.addInScope.p95, 3, true),
      ],
    }),
    "ingest-throughput.svg": barChart({
      title: "Raw ingest (no embedding), turns per second",
      yLabel: "turns / s",
      bars: results.ingest.map((i) => ({
        label: `${i.durability}, ${i.messagesPerCall}/call`,
        value: i.turnsPerSec,
      })),
      guide: { y: 2000, label: "goal 2,000 turns/s" },
    }),
  };
  for (const [name, svg] of Object.entries(plots)) await writeFile(join(dir, name), svg);
  return Object.keys(plots);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2] ?? fileURLToPath(new URL("../docs/benchmarks/results.json", import.meta.url));
  const written = await writePlots(JSON.parse(await readFile(file, "utf8")) as BenchResults, dirname(file));
  console.log(`wrote ${written.join(", ")} to ${dirname(file)}`);
}
