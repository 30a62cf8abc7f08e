// The summary tables of a benchmark run, as aligned text (printed by `pnpm bench`) or Markdown (for
// docs/benchmarks.md). Run alone it prints the Markdown of an existing results file:
//   pnpm tsx bench/bench-report.ts [docs/benchmarks/results.json]
import { readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { aiSdkTables } from "./ai-sdk-report.js";
import type { BenchResults } from "./bench-results.js";
import type { Latency } from "./stats.js";

export interface Table {
  readonly title: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

const n = (x: number): string => x.toLocaleString("en");
/** Milliseconds with about three significant digits. */
const ms = (x: number): string => x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0);
const pp = (l: Latency): string => `${ms(l.p50)} / ${ms(l.p95)}`;
const cpu = (l: Latency): string => (l.cpuMean === undefined ? "" : ms(l.cpuMean));

function embeddingTables(r: BenchResults): Table[] {
  const c = r.embedderCheck;
  const e = r.embedding;
  return [
    {
      title: `Offline embedder (${c.embedder})`,
      header: ["figure", "value"],
      rows: [
        ["first call in a fresh process (model load + 1 text)", `${ms(c.loadMs)} ms`],
        [
          "RSS before load / after load / after the check",
          `${c.rssBeforeMiB} / ${c.rssAfterLoadMiB} / ${c.rssAfterMiB} MiB`,
        ],
        [
          `batch 32, ${c.batch32.texts} turns (mean ${c.batch32.meanChars} chars)`,
          `${c.batch32.textsPerSec} texts/s (${c.batch32.textsPerCpuSec} per CPU s)`,
        ],
        [
          `batch 1, ${c.batch1.texts} turns`,
          `${c.batch1.textsPerSec} texts/s (${c.batch1.textsPerCpuSec} per CPU s)`,
        ],
        [
          `corpus pool, ${n(e.turns.texts)} turns (mean ${e.turns.meanChars} chars), batch 32`,
          `${e.turns.textsPerSec} texts/s (${e.turns.textsPerCpuSec} per CPU s)`,
        ],
        [
          `questions, ${n(e.questions.texts)} (mean ${e.questions.meanChars} chars), batch 32`,
          `${e.questions.textsPerSec} texts/s (${e.questions.textsPerCpuSec} per CPU s)`,
        ],
        ["one query per call, p50 / p95", `${pp(e.singleQuery)} ms`],
      ],
    },
    {
      title: `Paraphrase check (${c.paraphrase.pairs} memory/query pairs, engine search)`,
      header: ["channels", "top-1", "top-3", "MRR"],
      rows: (["vector", "fulltext", "hybrid"] as const).map((k) => {
        const q = c.paraphrase[k];
        return [k, `${q.top1}/${c.paraphrase.pairs}`, `${q.top3}/${c.paraphrase.pairs}`, String(q.mrr)];
      }),
    },
  ];
}

function ingestTables(r: BenchResults): Table[] {
  return [
    {
      title: "Raw ingest, no embedding (engram.add)",
      header: ["durability", "turns per add", "turns", "turns/s", "turns per CPU s", "add p50 / p95 ms"],
      rows: r.ingest.map((i) => [
        i.durability,
        String(i.messagesPerCall),
        n(i.turns),
        n(i.turnsPerSec),
        n(i.turnsPerCpuSec),
        pp(i.perCall),
      ]),
    },
    {
      title: "Deferred tier processing (flush after the adds; offline extractor)",
      header: [
        "turns of one user",
        "add seconds",
        "flush seconds",
        "turns/s of tier processing",
        "longest event-loop stall, ms",
      ],
      rows: [
        [
          n(r.tierProcessing.turns),
          String(r.tierProcessing.addSeconds),
          String(r.tierProcessing.flushSeconds),
          n(r.tierProcessing.turnsPerSec),
          r.tierProcessing.longestStallMs === undefined ? "-" : String(r.tierProcessing.longestStallMs),
        ],
      ],
    },
    {
      title: "Corpus build: storage.write with precomputed vectors, 100 turns per write, durability normal",
      header: ["corpus", "memories", "seconds", "turns/s"],
      rows: r.corpusBuild.map((b) => [b.scenario, n(b.memories), String(b.seconds), n(b.turnsPerSec)]),
    },
  ];
}

function searchTables(r: BenchResults): Table[] {
  return [
    {
      title: `Search latency, ms (p50 / p95); k 10 hybrid; channels alone at the engine's settings (full-text ${r.search[0]?.fulltextK} hits, statistics over the best 1,000 matches; vector ${r.search.find((x) => !x.annIndex)?.vectorK}, ${r.search.find((x) => x.annIndex)?.vectorK} through the HNSW graph)`,
      header: [
        "scenario",
        "queries (excl. / incl.)",
        "index",
        "first search",
        "first 100 queries",
        "excl. embedding",
        "CPU mean: search / full-text / vector",
        "incl. embedding",
        "full-text",
        "vector",
        "add 1 message",
      ],
      rows: r.search.map((s) => [
        s.scenario,
        `${s.excludingEmbedding.n} / ${s.includingEmbedding.n}`,
        s.annIndex ? "HNSW" : "exact",
        s.users > 1 ? pp(s.firstSearch) : ms(s.firstSearch.max),
        pp(s.firstQueries),
        pp(s.excludingEmbedding),
        [s.excludingEmbedding, s.fulltextChannel, s.vectorChannel].map(cpu).join(" / "),
        pp(s.includingEmbedding),
        pp(s.fulltextChannel),
        pp(s.vectorChannel),
        pp(s.addInScope),
      ]),
    },
    {
      title: "Vector channel vs an exact scan (same vectors)",
      header: [
        "scenario",
        "queries",
        "top-10 at k 10",
        "vector k",
        "top-10 at vector k",
        "top-k at vector k",
      ],
      rows: r.search.flatMap((s) =>
        s.annAgreement
          ? [
              [
                s.scenario,
                String(s.annAgreement.queries),
                String(s.annAgreement.top10AtK10),
                String(s.annAgreement.k),
                String(s.annAgreement.top10AtK),
                String(s.annAgreement.topKAtK),
              ],
            ]
          : [],
      ),
    },
    {
      title: "Goals",
      header: ["goal", "target", "measured", "met"],
      rows: r.goals.map((g) => [g.name, g.target, g.actual, g.met ? "yes" : "no"]),
    },
  ];
}

export function reportTables(r: BenchResults): Table[] {
  return [...embeddingTables(r), ...ingestTables(r), ...searchTables(r), ...aiSdkTables(r.aiSdk)];
}

export function toMarkdown(tables: readonly Table[]): string {
  return tables
    .map((t) => {
      const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
      return [
        `**${t.title}**`,
        "",
        line(t.header),
        line(t.header.map(() => "---")),
        ...t.rows.map(line),
      ].join("\n");
    })
    .join("\n\n");
}

export function toText(tables: readonly Table[]): string {
  return tables
    .map((t) => {
      const widths = t.header.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? "").length)));
      const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
      return [t.title, line(t.header), line(widths.map((w) => "-".repeat(w))), ...t.rows.map(line)].join(
        "\n",
      );
    })
    .join("\n\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2] ?? fileURLToPath(new URL("../docs/benchmarks/results.json", import.meta.url));
  console.log(toMarkdown(reportTables(JSON.parse(await readFile(file, "utf8")) as BenchResults)));
}
