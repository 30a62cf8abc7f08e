import type { AiSdkFigures } from "./ai-sdk.js";
import type { Goal } from "./bench-results.js";
import type { Latency } from "./stats.js";

interface Table {
  readonly title: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

const ms = (x: number): string => x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0);
const pp = (l: Latency): string => `${ms(l.p50)} / ${ms(l.p95)}`;
const cpu = (l: Latency): string => (l.cpuMean === undefined ? "" : ms(l.cpuMean));

/** The middleware's goal, judged on the state a user reaches through engram.add (after tier processing). */
export function aiSdkGoal(figures: readonly AiSdkFigures[]): Goal | null {
  const tiered = figures[0];
  if (!tiered) return null;
  const { p50, p95 } = tiered.transformParams;
  return {
    name: "AI SDK middleware per call (retrieval + injection, model and embedding excluded), 10k memories for the user",
    target: "p50 <= 5 ms",
    actual: `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
    met: p50 <= 5,
  };
}

export function aiSdkTables(figures: readonly AiSdkFigures[] | undefined): Table[] {
  if (!figures?.length) return [];
  const rows = (pick: (f: AiSdkFigures) => Latency) =>
    figures.map((f) => `${pp(pick(f))} (CPU ${cpu(pick(f))})`);
  const names: [string, (f: AiSdkFigures) => Latency][] = [
    ["middleware transformParams (retrieval + injection)", (f) => f.transformParams],
    ["  the wrapper's own part (retrieve answering instantly)", (f) => f.wrapperOnly],
    ["engram.retrieve alone", (f) => f.retrieve],
    ["  search facts (k 10)", (f) => f.searchFacts],
    ["  search segments (k 5)", (f) => f.searchSegments],
    ["  search pages (k 10)", (f) => f.searchPages],
    ["  short-term scan", (f) => f.recentScan],
    ["generateText with the middleware (instant mock model)", (f) => f.generateWithMiddleware],
    ["generateText without it", (f) => f.generateWithout],
    ["write-back left after the response (the turn is written inside the call)", (f) => f.writeBack],
  ];
  return [
    {
      title: "AI SDK middleware per call, ms p50 / p95 (CPU mean), query embedding excluded",
      header: ["figure", ...figures.map((f) => f.scenario)],
      rows: [
        [
          "memories by kind/tier",
          ...figures.map((f) =>
            Object.entries(f.store)
              .map(([k, v]) => `${k} ${v}`)
              .join(", "),
          ),
        ],
        ["memory block tokens (mean)", ...figures.map((f) => String(f.contextTokensMean))],
        ...names.map(([name, pick]) => [name, ...rows(pick)]),
      ],
    },
    {
      title: `Where transformParams spends CPU (${figures[0]?.scenario}; self time, sampling profiler)`,
      header: ["file", "share"],
      rows: (figures[0]?.profile.byFile ?? []).map((r) => [r.where, `${(r.share * 100).toFixed(1)}%`]),
    },
  ];
}
