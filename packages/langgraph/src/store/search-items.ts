import type { Engram, MemoryRecord } from "@engram/core";
import type { SearchItem, SearchOperation } from "@langchain/langgraph-checkpoint";
import { assertFilter, matchesFilter } from "./item-filter.js";
import { itemMetadata, toSearchItem } from "./item-record.js";
import { hasPrefix } from "./namespace-registry.js";

export interface SearchDeps {
  readonly engram: Engram;
  /** The users whose items the prefix can reach. */
  readonly owners: (prefix: readonly string[]) => Promise<string[]>;
}

/** Engram's search answers at most this many results per call. */
const MAX_RANKED = 1000;

async function candidates(deps: SearchDeps, op: SearchOperation): Promise<Map<string, MemoryRecord[]>> {
  const byOwner = new Map<string, MemoryRecord[]>();
  for (const userId of await deps.owners(op.namespacePrefix)) {
    const scope = { userId };
    const cubes = (await deps.engram.items.cubes(scope)).filter((ns) => hasPrefix(ns, op.namespacePrefix));
    if (cubes.length === 0) continue;
    const records = await deps.engram.items.list(scope, { cubes });
    const kept = op.filter
      ? records.filter((r) => matchesFilter(itemMetadata(r).value, op.filter ?? {}))
      : records;
    if (kept.length) byOwner.set(userId, kept);
  }
  return byOwner;
}

/**
 * Found by Engram's hybrid search (full-text and vector channels) across owners, scored as LangGraph's
 * stores score: the cosine similarity of the query to the item, best first. Items the full-text channel
 * alone found (no similarity known) follow those, without a score, in the search's order.
 */
async function ranked(
  deps: SearchDeps,
  byOwner: Map<string, MemoryRecord[]>,
  query: string,
  k: number,
): Promise<{ record: MemoryRecord; score: number | undefined }[]> {
  const hits = await Promise.all(
    [...byOwner].map(async ([userId, records]) => {
      const ids = records.filter((r) => itemMetadata(r).indexed).map((r) => r.id);
      if (ids.length === 0) return [];
      // Every indexed item (up to k) is scored, so the similarity order is complete, as InMemoryStore's.
      const found = await deps.engram.search({
        userId,
        query,
        kinds: ["item"],
        ids,
        limit: Math.max(k, Math.min(MAX_RANKED, ids.length)),
      });
      return found.map((f, rank) => ({ record: f.memory, score: f.channels.vector?.score, rank }));
    }),
  );
  const all = hits.flat();
  const scored = all.filter((h) => h.score !== undefined).sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  const textOnly = all.filter((h) => h.score === undefined).sort((a, b) => a.rank - b.rank);
  return [...scored, ...textOnly];
}

/** One owner, no filter, no query: the page is read by the storage itself, not sliced from every item. */
async function listPage(
  deps: SearchDeps,
  prefix: readonly string[],
  offset: number,
  limit: number,
): Promise<SearchItem[] | null> {
  const owners = await deps.owners(prefix);
  if (owners.length !== 1) return null;
  const scope = { userId: owners[0] as string };
  const cubes = (await deps.engram.items.cubes(scope)).filter((ns) => hasPrefix(ns, prefix));
  if (cubes.length === 0) return [];
  const records = await deps.engram.items.list(scope, { cubes, limit, offset });
  return records.map((r) => toSearchItem(r, undefined));
}

/**
 * LangGraph's search: items under the prefix that pass the filter. With a query, matches come first, best
 * first, with their score; items the query does not rank (unindexed ones) follow without a score, as
 * InMemoryStore does. Without a query, items come in the order they were first stored.
 */
export async function searchItems(deps: SearchDeps, op: SearchOperation): Promise<SearchItem[]> {
  if (op.filter) assertFilter(op.filter);
  const offset = op.offset ?? 0;
  const limit = op.limit ?? 10;
  const query = op.query?.trim();
  if (!query && !op.filter) {
    const page = await listPage(deps, op.namespacePrefix, offset, limit);
    if (page) return page;
  }
  const byOwner = await candidates(deps, op);
  const all = [...byOwner.values()].flat();
  if (!query) return all.slice(offset, offset + limit).map((r) => toSearchItem(r, undefined));
  const hits = await ranked(deps, byOwner, query, Math.min(MAX_RANKED, offset + limit));
  const rankedIds = new Set(hits.map((h) => h.record.id));
  const unranked = all.filter((r) => !rankedIds.has(r.id));
  const page = hits.slice(offset, offset + limit).map((h) => toSearchItem(h.record, h.score));
  const skip = Math.max(0, offset - hits.length);
  const fill = unranked.slice(skip, skip + limit - page.length).map((r) => toSearchItem(r, undefined));
  return [...page, ...fill];
}
