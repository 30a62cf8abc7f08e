import { readFact, type Scope } from "../model/index.js";
import type { MemoryFilter } from "../storage/index.js";
import type { ChannelQuery } from "./channels.js";
import { asResult, type RetrievePorts, type SearchResult } from "./query-ports.js";
import { rerankPages } from "./rerank-pages.js";
import { rankMemories } from "./search-pipeline.js";

/** One query for `retrieve`: every search below shares its text, vector and filter. */
export interface RetrieveQuery {
  readonly scope: Scope;
  readonly text: string;
  /** What full-text searches, when not `text` (see speakerQuery). */
  readonly searchText?: string;
  /** Pending while the query is embedded: full-text channels run meanwhile. */
  readonly vector: Float32Array | null | Promise<Float32Array | null>;
  /** Point in time and cubes; kinds and ids are set per search. */
  readonly filter: MemoryFilter;
}

/** What the query path found for a context, best first, and the segment each turn was found through. */
export interface RankedContext {
  readonly facts: SearchResult[];
  readonly segments: SearchResult[];
  readonly pages: SearchResult[];
  /** Turn id -> the segment it was found through (stage 4). */
  readonly owner: ReadonlyMap<string, string>;
}

const search = (ports: RetrievePorts, q: RetrieveQuery, k: number, filter: MemoryFilter, feedback = 0) => {
  const query: ChannelQuery = {
    scope: q.scope,
    text: q.text,
    ...(q.searchText !== undefined ? { searchText: q.searchText } : {}),
    vector: q.vector,
    k,
    filter: { ...q.filter, ...filter },
    channels: new Set(["fulltext", "vector"]),
  };
  return rankMemories(ports, query, { feedback });
};

/** Stage 4, segment expansion: turns inside the best mid-term segments, searched among their members. */
export async function turnsInSegments(ports: RetrievePorts, q: RetrieveQuery, segments: SearchResult[]) {
  const members = segments.length
    ? await ports.storage.edges(q.scope, { to: segments.map((s) => s.id), type: "part_of" })
    : [];
  if (members.length === 0) return { pages: [] as SearchResult[], owner: new Map<string, string>() };
  const owner = new Map(members.map((e) => [e.from, e.to]));
  const pages = await search(ports, q, ports.policy.retrievePages, {
    kinds: ["message"],
    ids: [...owner.keys()],
  });
  return { pages, owner };
}

/** Stage 5, fact evidence: the turns the retrieved facts were read from (`metadata.evidence`). */
export async function factEvidenceTurns(
  ports: RetrievePorts,
  scope: Scope,
  facts: readonly SearchResult[],
  score: number,
): Promise<SearchResult[]> {
  const ids = [...new Set(facts.flatMap((f) => readFact(f.memory).evidence))];
  if (ids.length === 0) return [];
  const records = new Map((await ports.storage.get(scope, ids)).map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const memory = records.get(id);
    return memory && memory.kind === "message" && !memory.expiredAt ? [asResult(memory, score)] : [];
  });
}

function dedupe(results: SearchResult[]): SearchResult[] {
  const seen = new Set<string>();
  return results.filter((r) => !seen.has(r.id) && seen.add(r.id));
}

/**
 * The query path behind `retrieve`: facts, segments and turns searched at once (turns with feedback
 * expansion), turns inside the best segments, the facts' evidence turns, then the rerank. Each stage has
 * its switch in the retrieval config.
 */
export async function rankContext(ports: RetrievePorts, q: RetrieveQuery): Promise<RankedContext> {
  const { policy, retrieval: stages } = ports;
  const turns = Math.max(policy.retrievePages, stages.contextTurns);
  const [facts, segments, direct] = await Promise.all([
    search(ports, q, policy.retrieveFacts, { kinds: ["fact"] }),
    stages.segments
      ? search(ports, q, policy.retrieveSegments, { kinds: ["segment"] })
      : Promise.resolve([] as SearchResult[]),
    // Feedback only here: it fills a 40-turn context better but orders the first ten worse.
    search(ports, q, turns, { kinds: ["message"] }, stages.feedback),
  ]);
  const staged = await turnsInSegments(ports, q, segments);
  // A fact's evidence turns rank just after the best direct hits: they are what the fact was read from.
  const head = direct.slice(0, policy.retrievePages);
  const evidence = stages.factEvidence
    ? await factEvidenceTurns(ports, q.scope, facts, head.at(-1)?.score ?? 0)
    : [];
  const merged = dedupe([...head, ...evidence, ...direct.slice(head.length), ...staged.pages]);
  const pages = stages.rerank ? await rerankPages(ports, q.scope, merged, staged.owner) : merged;
  return { facts, segments, pages, owner: staged.owner };
}
