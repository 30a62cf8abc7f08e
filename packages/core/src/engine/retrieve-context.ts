import { z } from "zod";
import { type AssembledContext, assembleContext, DEFAULT_CONTEXT_BUDGET } from "../generation/index.js";
import { cubeSchema, idString, type MemoryRecord, parseInput, type Scope } from "../model/index.js";
import { rerank } from "../retrieval/index.js";
import { segmentHeat } from "../updating/heat.js";
import { groupPages } from "../updating/pages.js";
import { segmentState } from "../updating/segment-record.js";
import type { TierContext } from "../updating/tier-context.js";
import { type ProfileTrait, readProfile } from "./profile.js";
import { timeSchema } from "./schemas.js";
import { embedQuery, type SearchResult, searchMemories } from "./search-memories.js";

export const retrieveInputSchema = z.object({
  userId: idString,
  query: z.string({ error: "expected query to be a string" }).trim().min(1, "query must not be empty"),
  budgetTokens: z.number().int().min(0).max(1_000_000).default(DEFAULT_CONTEXT_BUDGET),
  at: timeSchema.optional(),
  /** Read from these cubes only (compose several memory spaces of the user); default: all of them. */
  cubes: z.array(cubeSchema).min(1).optional(),
});
export type RetrieveInput = z.input<typeof retrieveInputSchema>;

export interface RetrieveResult {
  readonly profile: ProfileTrait[];
  readonly facts: SearchResult[];
  readonly segments: SearchResult[];
  readonly pages: SearchResult[];
  readonly recent: MemoryRecord[];
  /** What fitted the budget, and the rendered, fenced memory block. */
  readonly context: AssembledContext;
  readonly text: string;
}

/**
 * The newest short-term pages, read newest-first in a growing window: only the window's oldest page can be
 * cut off, so once the window holds more pages than wanted, the wanted ones are whole. The short tier is
 * small in steady state, but a store written without tier processing can hold all of its messages there.
 */
async function recentTurns(ctx: TierContext, scope: Scope): Promise<MemoryRecord[]> {
  const wanted = ctx.policy.shortTermCapacity;
  for (let limit = wanted * 4; ; limit *= 4) {
    const newest = await ctx.storage.scan(scope, {
      filter: { kinds: ["message"], tiers: ["short"] },
      order: "desc",
      limit,
    });
    const pages = groupPages(newest.reverse());
    if (pages.length > wanted || newest.length < limit) {
      return pages.slice(-wanted).flatMap((p) => p.messages);
    }
  }
}

/** Second stage: pages inside the best segments, searched among their members only. */
async function pagesInSegments(
  ctx: TierContext,
  input: { userId: string; query: string; queryVector?: Float32Array },
  segments: SearchResult[],
) {
  const scope = { userId: input.userId };
  const members = segments.length
    ? await ctx.storage.edges(scope, { to: segments.map((s) => s.id), type: "part_of" })
    : [];
  if (members.length === 0) return { pages: [] as SearchResult[], owner: new Map<string, string>() };
  const owner = new Map(members.map((e) => [e.from, e.to]));
  const inside = await searchMemories(ctx, {
    ...input,
    k: ctx.policy.retrievePages,
    kinds: ["message"],
    ids: [...owner.keys()],
  });
  return { pages: inside, owner };
}

/**
 * The memory context for a query: profile, relevant facts, retrieved pages (directly and through their
 * segments), recent short-term turns; assembled within the token budget. Visits to segments are queued.
 */
export async function retrieveContext(
  ctx: TierContext,
  raw: RetrieveInput,
  onVisit: (userId: string, segmentIds: string[]) => Promise<void>,
): Promise<RetrieveResult> {
  const input = parseInput(retrieveInputSchema, raw, "retrieve");
  const scope = { userId: input.userId };
  // The query is embedded once for every search below.
  const vector = await embedQuery(ctx, input.query);
  const base = {
    userId: input.userId,
    query: input.query,
    ...(vector ? { queryVector: vector } : {}),
    ...(input.at ? { at: input.at } : {}),
    ...(input.cubes ? { cubes: input.cubes } : {}),
  };
  const stages = ctx.retrieval;
  const turns = Math.max(ctx.policy.retrievePages, stages.contextTurns);
  const [profile, facts, segments, direct, recent] = await Promise.all([
    readProfile(ctx.storage, scope, input.at),
    searchMemories(ctx, { ...base, k: ctx.policy.retrieveFacts, kinds: ["fact"] }),
    stages.segments
      ? searchMemories(ctx, { ...base, k: ctx.policy.retrieveSegments, kinds: ["segment"] })
      : Promise.resolve([] as SearchResult[]),
    // Feedback only here: it fills a 40-turn context better but orders the first ten worse.
    searchMemories(ctx, { ...base, k: turns, kinds: ["message"] }, { feedback: stages.feedback }),
    recentTurns(ctx, scope),
  ]);
  const staged = await pagesInSegments(ctx, base, segments);
  // A fact's evidence turns rank just after the best direct hits: they are what the fact was read from.
  const head = direct.slice(0, ctx.policy.retrievePages);
  const evidence = stages.factEvidence ? await evidenceTurns(ctx, scope, facts, head.at(-1)?.score ?? 0) : [];
  const merged = dedupe([...head, ...evidence, ...direct.slice(head.length), ...staged.pages]);
  const pages = stages.rerank ? await rerankPages(ctx, scope, merged, staged.owner) : merged;
  const context = assembleContext({
    now: ctx.clock().toISOString(),
    profile: profile.map((t) => ({ key: t.key, value: t.value, confidence: t.confidence })),
    facts: facts.map((f) => ({
      id: f.id,
      text: f.text,
      subject: f.memory.role === "assistant" ? "assistant" : "user",
      validFrom: f.at,
      score: f.score,
    })),
    pages: pages.map((p) => ({
      id: p.id,
      text: p.text,
      role: p.memory.role,
      name: p.memory.name,
      at: p.at,
      score: p.score,
      sessionId: p.memory.sessionId,
      before: leadOf(p.memory, stages.neighbours),
    })),
    recent: recent
      .slice(recent.length - Math.min(recent.length, stages.recentTurns))
      .map((m) => ({ id: m.id, text: m.text, role: m.role, name: m.name, at: m.validFrom })),
    budgetTokens: input.budgetTokens,
  });
  // A segment is visited when the context shows one of its pages (found directly or through it).
  const shown = new Set(context.pages.map((p) => p.id));
  const visited = [
    ...new Set(
      pages
        .filter((p) => shown.has(p.id))
        .map((p) => staged.owner.get(p.id) ?? p.memory.metadata.segment)
        .filter((s): s is string => typeof s === "string"),
    ),
  ];
  if (visited.length) await onVisit(input.userId, visited);
  return { profile, facts, segments, pages, recent, context, text: context.text };
}

const segmentOf = (p: SearchResult, owner: Map<string, string>) => {
  const s = owner.get(p.id) ?? p.memory.metadata.segment;
  return typeof s === "string" ? s : null;
};

/**
 * Heat boost (pages of hot segments), relative threshold and MMR over the retrieved pages. The returned
 * scores encode the new order, which is what the context assembly ranks by.
 */
async function rerankPages(
  ctx: TierContext,
  scope: Scope,
  pages: SearchResult[],
  owner: Map<string, string>,
) {
  if (pages.length === 0) return pages;
  const segmentIds = [
    ...new Set(pages.map((p) => segmentOf(p, owner)).filter((s): s is string => s !== null)),
  ];
  const now = ctx.clock();
  const heat = new Map(
    (await ctx.storage.get(scope, segmentIds)).map((s) => [
      s.id,
      segmentHeat(segmentState(s), now, ctx.policy),
    ]),
  );
  const vectors = await ctx.storage.getVectors(
    scope,
    pages.map((p) => p.id),
  );
  const boost = (p: SearchResult) => {
    const h = heat.get(segmentOf(p, owner) ?? "") ?? 0;
    return ctx.policy.heatBoost * Math.min(1, h / Math.max(ctx.policy.heatThreshold, 1e-9));
  };
  const order = rerank(
    pages.map((p) => ({ id: p.id, score: p.score, vector: vectors.get(p.id) ?? null, boost: boost(p) })),
    { k: pages.length, lambda: ctx.policy.mmrLambda, relativeThreshold: ctx.policy.relativeThreshold },
  );
  const byId = new Map(pages.map((p) => [p.id, p]));
  return order.map((id, i) => ({ ...(byId.get(id) as SearchResult), score: order.length - i }));
}

function dedupe(results: SearchResult[]): SearchResult[] {
  const seen = new Set<string>();
  return results.filter((r) => !seen.has(r.id) && seen.add(r.id));
}

/** The turn a retrieved turn answers (its session's turn before it), when the context should show it. */
function leadOf(memory: MemoryRecord, neighbours: TierContext["retrieval"]["neighbours"]): string | null {
  if (neighbours === "off" || !memory.context) return null;
  return neighbours === "always" || memory.context.includes("?") ? memory.context : null;
}

/** The turns the retrieved facts were extracted from (`metadata.evidence`), best fact first. */
async function evidenceTurns(
  ctx: TierContext,
  scope: Scope,
  facts: SearchResult[],
  score: number,
): Promise<SearchResult[]> {
  const ids = [
    ...new Set(
      facts.flatMap((f) => {
        const evidence = f.memory.metadata.evidence;
        return Array.isArray(evidence) ? evidence.filter((id): id is string => typeof id === "string") : [];
      }),
    ),
  ];
  if (ids.length === 0) return [];
  const records = new Map((await ctx.storage.get(scope, ids)).map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const memory = records.get(id);
    if (!memory || memory.kind !== "message" || memory.expiredAt) return [];
    return [
      {
        id,
        text: memory.text,
        score,
        kind: memory.kind,
        tier: memory.tier,
        at: memory.validFrom,
        channels: {},
        memory,
      },
    ];
  });
}
