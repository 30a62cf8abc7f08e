// The persona-facts part of `pnpm bench`: the offline extractor on the project's labelled statements
// (bench/data/persona-facts.json), scored per slot, for supersession and for false facts, on the tuning
// and the check half apart; then the second set (bench/data/persona-facts-second.json), written later by
// another author who had not seen the first, reported on its own. Alone: pnpm engram eval facts --data FILE
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { evalFacts, extractAll, type FactReport, readFactBenchmark, type Scores } from "@engram/cli/facts";
import { offlineExtractor } from "@engram/english";

export const FACTS_DATA = fileURLToPath(new URL("./data/persona-facts.json", import.meta.url));
export const SECOND_DATA = fileURLToPath(new URL("./data/persona-facts-second.json", import.meta.url));

export type FactsResults = FactReport & {
  halves: { tune: FactReport; check: FactReport };
  /** The second set, whole: statements the readers were not written from until it existed. */
  second: FactReport;
  config: Record<string, string>;
  /** What reading costs: the first message (which loads the English parser), then every statement warm. */
  timing: { first_message_ms: number; warm_ms_per_statement: number; statements: number };
};

export async function factsBench(): Promise<FactsResults> {
  const items = await readFactBenchmark(FACTS_DATA);
  let start = performance.now();
  await extractAll(offlineExtractor, items.slice(0, 1));
  const first = performance.now() - start;
  const report = (await evalFacts({ dataPath: FACTS_DATA })) as unknown as Omit<
    FactsResults,
    "timing" | "second"
  >;
  // The second set's own halves are not reported: it is a set to tune on, not a split one.
  const second = (await evalFacts({ dataPath: SECOND_DATA })) as unknown as FactReport;
  start = performance.now();
  await extractAll(offlineExtractor, items);
  const warm = (performance.now() - start) / items.length;
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    ...report,
    second,
    timing: { first_message_ms: round(first), warm_ms_per_statement: round(warm), statements: items.length },
  };
}

export async function writeFactsResults(results: FactsResults, out: string): Promise<string[]> {
  await writeFile(join(out, "persona-facts.json"), `${JSON.stringify(results, null, 2)}\n`);
  return ["persona-facts.json"];
}

const f3 = (x: number | null) => (x === null ? "-" : x.toFixed(3));
const row = (label: string, s: Scores) =>
  `| ${label} | ${s.tp + s.fn} | ${f3(s.precision)} | ${f3(s.recall)} | ${f3(s.f1)} |`;

/** Markdown: the halves and overall, then precision, recall and F1 per slot. */
export function factsTables(results: FactsResults): string {
  const half = (label: string, r: FactReport) =>
    `| ${label} | ${r.statements} | ${f3(r.overall.precision)} | ${f3(r.overall.recall)} | ${f3(r.overall.f1)} | ${r.supersession.correct}/${r.supersession.statements} | ${r.false_facts.with_facts}/${r.false_facts.statements} |`;
  return [
    "| statements | n | precision | recall | F1 | supersession | false facts (statements) |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    half("tuning half", results.halves.tune),
    half("check half", results.halves.check),
    half("all", results),
    half("second set", results.second),
    "",
    "| slot | expected | precision | recall | F1 |",
    "| --- | --- | --- | --- | --- |",
    ...Object.entries(results.by_slot).map(([slot, s]) => row(slot, s)),
    "",
    `Reading: the first message ${results.timing.first_message_ms.toFixed(0)} ms (it loads the English parser), then ${results.timing.warm_ms_per_statement.toFixed(2)} ms per statement over ${results.timing.statements}.`,
  ].join("\n");
}
