import { readFile } from "node:fs/promises";
import { parseLocomo } from "@engram/cli/locomo";

export interface PoolTurn {
  readonly speaker: string;
  readonly text: string;
}

export interface BenchData {
  /** Real dialogue turns, in conversation order. */
  readonly turns: PoolTurn[];
  /** Real questions about those conversations. */
  readonly questions: string[];
}

/** Turn texts and questions of the LoCoMo dev split: realistic lengths and vocabulary for every figure. */
export async function loadBenchData(file: string): Promise<BenchData> {
  const conversations = parseLocomo(JSON.parse(await readFile(file, "utf8")));
  return {
    turns: conversations.flatMap((c) => c.turns.map((t) => ({ speaker: t.speaker, text: t.text }))),
    questions: conversations.flatMap((c) => c.qa.map((q) => q.question)),
  };
}

/** `count` items taken evenly across the list, so a small sample still spans every conversation. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)] as T);
}

export const meanLength = (texts: readonly string[]): number =>
  Math.round(texts.reduce((s, t) => s + t.length, 0) / Math.max(1, texts.length));

/** `count` questions not among `asked`, spread over the file: warm-up queries that are never measured. */
export function otherQuestions(all: readonly string[], asked: readonly string[], count: number): string[] {
  const measured = new Set(asked);
  return spread(
    all.filter((q) => !measured.has(q)),
    count,
  );
}
