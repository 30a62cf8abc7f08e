// The persona-facts part of `pnpm bench`: the offline extractor on the project's labelled statements
// (bench/data/persona-facts.json), scored per slot, for supersession and for false facts, on the tuning
// and the check half apart. Alone: pnpm engram eval facts --data bench/data/persona-facts.json
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { evalFacts, type FactReport, type Scores } from "@engram/cli/facts";

export const FACTS_DATA = fileURLToPath(new URL("./data/persona-facts.json", import.meta.url));

export type FactsResults = FactReport & {
  halves: { tune: FactReport; check: FactReport };
  config: Record<string, string>;
};

export async function factsBench(): Promise<FactsResults> {
  return (await evalFacts({ dataPath: FACTS_DATA })) as unknown as FactsResults;
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
    "",
    "| slot | expected | precision | recall | F1 |",
    "| --- | --- | --- | --- | --- |",
    ...Object.entries(results.by_slot).map(([slot, s]) => row(slot, s)),
  ].join("\n");
}
