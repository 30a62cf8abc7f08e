import type { z } from "zod";
import { ValidationError } from "../errors/index.js";
import { MEMORY_KINDS, type MemoryKind, parseInput, type Scope } from "../model/index.js";
import {
  asGiven,
  type Channel,
  embedQuery,
  inStage,
  rankMemories,
  type SearchResult,
  speakerQuery,
  withRelevance,
} from "../retrieval/index.js";
import type { EngineContext } from "../runtime/index.js";
import type { MemoryFilter } from "../storage/index.js";
import { type SearchInput, searchInputSchema } from "./schemas.js";

export type { SearchResult } from "../retrieval/index.js";

/**
 * Kinds a search covers when the caller names none: all but traces, the logs of an agent's tool runs,
 * which would otherwise come back beside the turns they repeat (`kinds: ["trace"]` finds them), and
 * passages, which are searched on behalf of their turns (`kinds: ["passage"]` lists them).
 */
const DEFAULT_KINDS: readonly MemoryKind[] = MEMORY_KINDS.filter(
  (kind) => kind !== "trace" && kind !== "passage",
);

/** The storage filter of a search: what the caller asked for, current state unless a point in time. */
export function searchFilter(input: z.output<typeof searchInputSchema>): MemoryFilter {
  return {
    ...(input.ids ? { ids: input.ids } : {}),
    kinds: input.kinds ?? DEFAULT_KINDS,
    ...(input.tiers ? { tiers: input.tiers } : {}),
    ...(input.cubes ? { cubes: input.cubes } : {}),
    ...(input.agentId ? { agentId: input.agentId } : {}),
    ...(input.sessionId ? { sessionId: input.sessionId } : {}),
    ...(input.from ? { from: input.from } : {}),
    ...(input.to ? { to: input.to } : {}),
    ...(input.filter ? { metadata: input.filter } : {}),
    ...(input.at ? { at: input.at } : { current: true }),
  };
}

/** Results wanted: `limit`, or its old name `k` (reported as deprecated), 10 by default. */
function searchLimit(ctx: EngineContext, input: z.output<typeof searchInputSchema>): number {
  if (input.k === undefined) return input.limit ?? 10;
  if (input.limit !== undefined)
    throw new ValidationError("search: pass limit only (k is its old name, deprecated), not both", {
      details: { path: "k" },
    });
  ctx.events?.({ type: "deprecated", at: ctx.clock().toISOString(), name: "search.k", use: "search.limit" });
  return input.k;
}

/** Hybrid search over the user's memories, best first: the query path of `retrieval/search-pipeline`. */
export async function searchMemories(ctx: EngineContext, raw: SearchInput): Promise<SearchResult[]> {
  const input = parseInput(searchInputSchema, raw, "search");
  const limit = searchLimit(ctx, input);
  const scope: Scope = { userId: input.userId };
  const channels = new Set<Channel>(input.channels ?? ["fulltext", "vector"]);
  // Only a search of turns is asked about their speakers; facts and segments are not said by anyone.
  const turns = !input.kinds || input.kinds.includes("message");
  const forms = turns
    ? await inStage(ctx, "speaker", () => speakerQuery(ctx, scope, input.query))
    : asGiven(input.query);
  const vector = channels.has("vector") ? (input.queryVector ?? (await embedQuery(ctx, forms.dense))) : null;
  const ranked = await rankMemories(ctx, {
    scope,
    text: input.query,
    searchText: forms.text,
    vector,
    k: limit,
    filter: searchFilter(input),
    channels,
  });
  const scored = await inStage(ctx, "relevance", () =>
    withRelevance(ctx, scope, input.query, vector, ranked),
  );
  const { minScore } = input;
  return minScore === undefined ? scored : scored.filter((r) => (r.relevance ?? 0) >= minScore);
}
