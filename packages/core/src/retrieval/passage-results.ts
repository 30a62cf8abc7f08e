import { stemmer } from "stemmer";
import {
  type MemoryRecord,
  passageCount,
  passageIds,
  passageOf,
  passageSpans,
  queryTerms,
  type Scope,
  tokenize,
} from "../model/index.js";
import type { MemoryFilter } from "../storage/index.js";
import type { FoundPassage, QueryPorts } from "./query-ports.js";

export type { FoundPassage } from "./query-ports.js";

/**
 * How a search of turns reaches long turns' passages: they join the kinds searched, a tier filter is
 * applied to the turns they belong to (passages have no tier of their own), and an id filter names the
 * passages of the turns it names. `mapped` is false when the caller asked for passages themselves.
 */
export async function passageFilter(
  ports: Pick<QueryPorts, "storage">,
  scope: Scope,
  filter: MemoryFilter,
): Promise<{ filter: MemoryFilter; mapped: boolean }> {
  const kinds = filter.kinds;
  if (kinds && (!kinds.includes("message") || kinds.includes("passage"))) return { filter, mapped: false };
  const { tiers: _tiers, ...rest } = filter;
  const widened: MemoryFilter = { ...rest, ...(kinds ? { kinds: [...kinds, "passage"] } : {}) };
  if (!filter.ids) return { filter: widened, mapped: true };
  const named = await ports.storage.get(scope, filter.ids);
  return { filter: { ...widened, ids: [...filter.ids, ...named.flatMap(passageIds)] }, mapped: true };
}

/**
 * Results with passages replaced by their turns, best first: a turn takes the place and score of its best
 * hit (itself or one of its passages) and carries that passage; a long turn found whole carries the
 * passage that best matches the query. Turns outside the filter's tiers are left out.
 */
export async function toTurns<T extends { id: string; score: number }>(
  ports: Pick<QueryPorts, "storage">,
  scope: Scope,
  hits: readonly T[],
  records: ReadonlyMap<string, MemoryRecord>,
  query: string,
  tiers: MemoryFilter["tiers"],
): Promise<{ hit: T; memory: MemoryRecord; passage: FoundPassage | null }[]> {
  const owners = hits.flatMap((h) => {
    const p = records.get(h.id);
    const of = p ? passageOf(p) : null;
    return of && !records.has(of.turn) ? [of.turn] : [];
  });
  const turns = new Map(records);
  if (owners.length) for (const t of await ports.storage.get(scope, [...new Set(owners)])) turns.set(t.id, t);
  const seen = new Set<string>();
  const out: { hit: T; memory: MemoryRecord; passage: FoundPassage | null }[] = [];
  for (const hit of hits) {
    const record = records.get(hit.id);
    if (!record) continue;
    const of = passageOf(record);
    const memory = of ? turns.get(of.turn) : record;
    if (!memory || seen.has(memory.id)) continue;
    seen.add(memory.id);
    if (tiers && !tiers.includes(memory.tier)) continue;
    const passage = of
      ? { text: record.text, start: of.start, end: of.end }
      : passageCount(memory)
        ? bestPassage(memory.text, query)
        : null;
    out.push({ hit, memory, passage });
  }
  return out;
}

/** The passage of a long text that holds most of the query's words (by stem); the first among equals. */
export function bestPassage(text: string, query: string): FoundPassage | null {
  const spans = passageSpans(text);
  if (spans.length === 0) return null;
  const wanted = new Set(queryTerms(query).map((t) => stemmer(t)));
  let best = spans[0] as (typeof spans)[number];
  let bestScore = -1;
  for (const span of spans) {
    const found = new Set(
      tokenize(text.slice(span.start, span.end))
        .map((t) => stemmer(t))
        .filter((t) => wanted.has(t)),
    );
    if (found.size > bestScore) [best, bestScore] = [span, found.size];
  }
  return { text: text.slice(best.start, best.end), start: best.start, end: best.end };
}
