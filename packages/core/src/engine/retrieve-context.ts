import { z } from "zod";
import { type AssembledContext, assembleContext, DEFAULT_CONTEXT_BUDGET } from "../generation/index.js";
import { idString, type MemoryRecord, parseInput, type Scope } from "../model/index.js";
import { groupPages } from "../updating/pages.js";
import type { TierContext } from "../updating/tier-context.js";
import { type ProfileTrait, readProfile } from "./profile.js";
import { timeSchema } from "./schemas.js";
import { type SearchResult, searchMemories } from "./search-memories.js";

export const retrieveInputSchema = z.object({
  userId: idString,
  query: z.string({ error: "expected query to be a string" }).trim().min(1, "query must not be empty"),
  budgetTokens: z.number().int().min(0).max(1_000_000).default(DEFAULT_CONTEXT_BUDGET),
  at: timeSchema.optional(),
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

async function recentTurns(ctx: TierContext, scope: Scope): Promise<MemoryRecord[]> {
  const short = await ctx.storage.scan(scope, {
    filter: { kinds: ["message"], tiers: ["short"] },
    order: "asc",
  });
  return groupPages(short)
    .slice(-ctx.policy.shortTermCapacity)
    .flatMap((p) => p.messages);
}

/** Second stage: pages inside the best segments, searched among their members only. */
async function pagesInSegments(
  ctx: TierContext,
  input: { userId: string; query: string },
  segments: SearchResult[],
) {
  const scope = { userId: input.userId };
  const members = (
    await Promise.all(segments.map((s) => ctx.storage.edges(scope, { to: s.id, type: "part_of" })))
  ).flat();
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
  const base = { userId: input.userId, query: input.query, ...(input.at ? { at: input.at } : {}) };
  const [profile, facts, segments, direct, recent] = await Promise.all([
    readProfile(ctx.storage, scope, input.at),
    searchMemories(ctx, { ...base, k: ctx.policy.retrieveFacts, kinds: ["fact"] }),
    searchMemories(ctx, { ...base, k: ctx.policy.retrieveSegments, kinds: ["segment"] }),
    searchMemories(ctx, { ...base, k: ctx.policy.retrievePages, kinds: ["message"] }),
    recentTurns(ctx, scope),
  ]);
  const staged = await pagesInSegments(ctx, base, segments);
  const pages = dedupe([...direct, ...staged.pages]);
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
    })),
    recent: recent.map((m) => ({ id: m.id, text: m.text, role: m.role, name: m.name, at: m.validFrom })),
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

function dedupe(results: SearchResult[]): SearchResult[] {
  const seen = new Set<string>();
  return results.filter((r) => !seen.has(r.id) && seen.add(r.id));
}
