import { EngramError } from "../errors/index.js";
import type { MemoryKind, MemoryRecord, Scope, Tier } from "../model/index.js";
import { parseInput } from "../model/index.js";
import {
  applyContentPrior,
  applySpeakerPrior,
  type Channel,
  type ChannelScore,
  fuseRankings,
  rocchio,
} from "../retrieval/index.js";
import type { Hit, MemoryFilter } from "../storage/index.js";
import type { EngineContext } from "../updating/engine-context.js";
import { type SearchInput, searchInputSchema } from "./schemas.js";

export interface SearchResult {
  readonly id: string;
  readonly text: string;
  /** Fused score; comparable within one result list only. */
  readonly score: number;
  readonly kind: MemoryKind;
  readonly tier: Tier;
  /** Event time of the memory (ISO), or null. */
  readonly at: string | null;
  /** Why it was found: each channel that returned it, with its rank and raw score. */
  readonly channels: Partial<Record<Channel, ChannelScore>>;
  readonly memory: MemoryRecord;
}

/** Best hits whose vectors the feedback moves the query toward. */
const FEEDBACK_HITS = 3;

interface DenseChannel {
  readonly hits: Hit[];
  readonly stats: { mean: number; sd: number } | null;
}

/** The vector channel's hits, and its z-score statistics over the whole scope when the backend can tell. */
async function denseChannel(
  ctx: EngineContext,
  scope: Scope,
  vector: Float32Array | null,
  k: number,
  filter: MemoryFilter,
  zscore: boolean,
): Promise<DenseChannel> {
  if (!vector) return { hits: [], stats: null };
  const hits = await ctx.storage.vectorSearch(scope, {
    vector,
    k: Math.max(ctx.fusion.vectorCandidates, k),
    approximateK: Math.max(ctx.fusion.approximateCandidates, k),
    filter,
  });
  const stats =
    hits.length && zscore && ctx.storage.vectorStats
      ? await ctx.storage.vectorStats(scope, { vector, k: hits.length, filter })
      : null;
  return { hits, stats };
}

/** Candidates the priors re-rank at least. */
const PRIOR_WINDOW = 60;

/** Hybrid search: full-text and vector channels over the user's memories, fused, best first. */
export async function searchMemories(
  ctx: EngineContext,
  raw: SearchInput,
  stages: { feedback?: number } = {},
): Promise<SearchResult[]> {
  const input = parseInput(searchInputSchema, raw, "search");
  const scope: Scope = { userId: input.userId };
  const filter: MemoryFilter = {
    ...(input.ids ? { ids: input.ids } : {}),
    ...(input.kinds ? { kinds: input.kinds } : {}),
    ...(input.tiers ? { tiers: input.tiers } : {}),
    ...(input.cubes ? { cubes: input.cubes } : {}),
    ...(input.agentId ? { agentId: input.agentId } : {}),
    ...(input.sessionId ? { sessionId: input.sessionId } : {}),
    ...(input.from ? { from: input.from } : {}),
    ...(input.to ? { to: input.to } : {}),
    // Current state unless the caller asks for a point in time.
    ...(input.at ? { at: input.at } : { current: true }),
  };
  const wanted = new Set<Channel>(input.channels ?? ["fulltext", "vector"]);
  const n = Math.max(ctx.fusion.candidates, input.k);
  // A backend that describes more full-text matches than it lists (textStats) lists fewer: the fusion
  // then takes its statistics over n matches and ranks the best listed ones.
  const zscore = ctx.fusion.method === "zscore";
  const describes = zscore && ctx.storage.textStats !== undefined;
  const textQuery = describes
    ? { text: input.query, k: Math.max(ctx.fusion.textCandidates, input.k), filter, statsOver: n }
    : { text: input.query, k: n, filter };
  const vector = wanted.has("vector") ? await queryVector(ctx, input.query, input.queryVector) : null;
  const dense = (v: Float32Array | null) => denseChannel(ctx, scope, v, input.k, filter, zscore);
  const [fulltext, first] = await Promise.all([
    wanted.has("fulltext") ? ctx.storage.textSearch(scope, textQuery) : [],
    dense(vector),
  ]);
  const textStats =
    fulltext.length && describes && ctx.storage.textStats
      ? await ctx.storage.textStats(scope, textQuery)
      : null;
  const fuse = (channel: DenseChannel) => {
    const stats = {
      ...(channel.stats ? { vector: channel.stats } : {}),
      ...(textStats ? { fulltext: textStats } : {}),
    };
    const fusion = channel.stats || textStats ? { ...ctx.fusion, stats } : ctx.fusion;
    return fuseRankings({ fulltext, vector: channel.hits }, fusion);
  };
  let fusedAll = fuse(first);
  const feedback = stages.feedback ?? 0;
  if (vector && feedback > 0 && fusedAll.length > 0) {
    // Pseudo-relevance feedback (Rocchio): the query vector moves toward the best hits' vectors and the
    // vector channel runs again, reaching turns about the same thing that share no words with the query.
    const best = fusedAll.slice(0, FEEDBACK_HITS).map((f) => f.id);
    const vectors = [...(await ctx.storage.getVectors(scope, best)).values()];
    if (vectors.length > 0) fusedAll = fuse(await dense(rocchio(vector, vectors, feedback)));
  }
  const { contentPrior, speakerPrior, questionPrior } = ctx.retrieval;
  // The priors can lift a hit from below k: they re-rank a few times more candidates than are returned.
  const reranks = contentPrior > 0 || speakerPrior > 0 || questionPrior > 0;
  const window = reranks ? Math.max(input.k * 3, PRIOR_WINDOW) : input.k;
  const ranked = fusedAll.slice(0, window);
  const records = new Map(
    (
      await ctx.storage.get(
        scope,
        ranked.map((f) => f.id),
      )
    ).map((r) => [r.id, r]),
  );
  const fused = applySpeakerPrior(
    applyContentPrior(ranked, (f) => records.get(f.id)?.text, contentPrior, questionPrior),
    input.query,
    (f) => records.get(f.id)?.name,
    speakerPrior,
  ).slice(0, input.k);
  return fused.flatMap((f) => {
    const memory = records.get(f.id);
    if (!memory) return [];
    return [
      {
        id: f.id,
        text: memory.text,
        score: f.score,
        kind: memory.kind,
        tier: memory.tier,
        at: memory.validFrom,
        channels: f.channels,
        memory,
      },
    ];
  });
}

async function queryVector(
  ctx: EngineContext,
  query: string,
  given: Float32Array | undefined,
): Promise<Float32Array | null> {
  return given ?? embedQuery(ctx, query);
}

/** The query's vector, or null without an embedder or when the embedding model is down. */
export async function embedQuery(ctx: EngineContext, query: string): Promise<Float32Array | null> {
  if (!ctx.embedder) return null;
  try {
    const [vector] = await ctx.embedder.embed([query]);
    return vector ?? null;
  } catch (cause) {
    // The embedding model is down: answer from full-text rather than fail the read.
    if (EngramError.isInstance(cause) && cause.code === "MODEL") return null;
    throw cause;
  }
}
