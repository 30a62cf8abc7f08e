import { z } from "zod";
import { type AssembledContext, assembleContext, DEFAULT_CONTEXT_BUDGET } from "../generation/index.js";
import {
  cubeSchema,
  idString,
  type MemoryRecord,
  parseInput,
  passageCount,
  type Scope,
} from "../model/index.js";
import {
  bestPassage,
  embedQuery,
  type FoundPassage,
  inStage,
  rankContext,
  type SearchResult,
  segmentOf,
  speakerQuery,
  storedTimeMentions,
  timeNote,
} from "../retrieval/index.js";
import type { EngineContext } from "../runtime/index.js";
import { matchSkills, type SkillMatch } from "../skills/index.js";
import { type MetadataFilter, metadataMatcher } from "../storage/index.js";
import { groupPages, segmentHeat, segmentState } from "../updating/index.js";
import { type ProfileTrait, readProfile } from "./profile.js";
import { metadataFilterSchema, timeSchema } from "./schemas.js";

export const retrieveInputSchema = z.object({
  userId: idString,
  /** Also consider the skills shared with this agent's users (see `skills.share`). */
  agentId: idString.optional(),
  query: z.string({ error: "expected query to be a string" }).trim().min(1, "query must not be empty"),
  budgetTokens: z.number().int().min(0).max(1_000_000).default(DEFAULT_CONTEXT_BUDGET),
  at: timeSchema.optional(),
  /** Read from these cubes only (compose several memory spaces of the user); default: all of them. */
  cubes: z.array(cubeSchema).min(1).optional(),
  /** Count the visit to each segment whose pages the context shows (heat). Default true; false to only look. */
  recordVisits: z.boolean().default(true),
  /**
   * The messages the caller sends the model along with this context (their texts), as the AI SDK
   * middleware and the LangChain and LangGraph wrappers do: recent turns with these texts are left out,
   * and their share of the budget goes to what is retrieved. Recent turns the caller does not send stay.
   */
  conversation: z.array(z.string()).max(10_000).optional(),
  /**
   * Only memories whose metadata passes these conditions, as `search` takes them: the turns shown (found
   * and recent) and any fact or segment given such metadata. Facts and segments the tiers derive carry
   * none of yours and are left out of a filtered context; the profile and skills stay.
   */
  filter: metadataFilterSchema.optional(),
});
export type RetrieveInput = z.input<typeof retrieveInputSchema>;

export interface RetrieveResult {
  readonly profile: ProfileTrait[];
  readonly facts: SearchResult[];
  readonly segments: SearchResult[];
  readonly pages: SearchResult[];
  readonly recent: MemoryRecord[];
  /** Skills whose trigger matched the query (those shown are in `context.skills`). */
  readonly skills: SkillMatch[];
  /** What fitted the budget, and the rendered, fenced memory block. */
  readonly context: AssembledContext;
  readonly text: string;
}

/**
 * The newest short-term pages, read newest-first in a growing window: only the window's oldest page can be
 * cut off, so once the window holds more pages than wanted, the wanted ones are whole. The short tier is
 * small in steady state, but a store written without tier processing can hold all of its messages there.
 */
async function recentTurns(
  ctx: EngineContext,
  scope: Scope,
  metadata: MetadataFilter | undefined,
): Promise<MemoryRecord[]> {
  const wanted = ctx.policy.shortTermCapacity;
  for (let limit = wanted * 4; ; limit *= 4) {
    const newest = await ctx.storage.scan(scope, {
      filter: { kinds: ["message"], tiers: ["short"], ...(metadata ? { metadata } : {}) },
      order: "desc",
      limit,
    });
    const pages = groupPages(newest.reverse());
    if (pages.length > wanted || newest.length < limit) {
      return pages.slice(-wanted).flatMap((p) => p.messages);
    }
  }
}

/**
 * The memory context for a query: profile, relevant facts, retrieved pages (directly and through their
 * segments), recent short-term turns; assembled within the token budget. Visits to segments are queued.
 */
export async function retrieveContext(
  ctx: EngineContext,
  raw: RetrieveInput,
  onVisit: (userId: string, segmentIds: string[]) => Promise<void>,
): Promise<RetrieveResult> {
  const input = parseInput(retrieveInputSchema, raw, "retrieve");
  const scope = { userId: input.userId };
  // The query is embedded once for every search below, in the words of the speaker it names.
  const forms = await inStage(ctx, "speaker", () => speakerQuery(ctx, scope, input.query));
  // Not awaited: the model embeds on its own thread while the full-text channels and reads run here.
  const vector = embedQuery(ctx, forms.dense);
  // Its failure reaches every search that awaits it; this only keeps it from counting as unhandled first.
  vector.catch(() => {});
  const filter = {
    ...(input.at ? { at: input.at } : { current: true }),
    ...(input.cubes ? { cubes: input.cubes } : {}),
    ...(input.filter ? { metadata: input.filter } : {}),
  };
  const stages = ctx.retrieval;
  const [profile, ranked, recent, skills] = await Promise.all([
    readProfile(ctx.storage, scope, input.at),
    rankContext(
      { ...ctx, segmentHeat: (s, now) => segmentHeat(segmentState(s), now, ctx.policy) },
      { scope, text: input.query, searchText: forms.text, vector, filter },
    ),
    recentTurns(ctx, scope, input.filter),
    // Skills describe the present way of doing things: a point-in-time query gets none.
    input.at
      ? []
      : vector.then((v) =>
          matchSkills(ctx, {
            userId: input.userId,
            ...(input.agentId ? { agentId: input.agentId } : {}),
            query: input.query,
            vector: v,
          }),
        ),
  ]);
  // Turns reached by id (a fact's evidence) are read without the filter: it is applied to them here.
  const matches = input.filter ? metadataMatcher(input.filter) : null;
  const passes = (r: SearchResult) => !matches || matches(r.memory.metadata);
  const facts = ranked.facts.filter(passes);
  const segments = ranked.segments.filter(passes);
  const pages = ranked.pages.filter(passes);
  const noteOf = (m: MemoryRecord) =>
    stages.timeNotes ? timeNote(storedTimeMentions(m.metadata)) || null : null;
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
      text: shownText(p.memory.text, p.passage ?? null),
      role: p.memory.role,
      name: p.memory.name,
      at: p.at,
      score: p.score,
      sessionId: p.memory.sessionId,
      before: leadOf(p.memory, stages.neighbours),
      note: noteOf(p.memory),
    })),
    skills: skills.map((s) => ({ id: s.skill.id, text: s.text, score: s.score })),
    recent: shownRecent(
      unsent(recent, input.conversation),
      stages.recentTurns,
      stages.recentHours,
      ctx.clock(),
    ).map((m) => ({
      id: m.id,
      text: shownText(m.text, passageCount(m) ? bestPassage(m.text, input.query) : null),
      role: m.role,
      name: m.name,
      at: m.validFrom,
      note: noteOf(m),
    })),
    budgetTokens: input.budgetTokens,
    recentShare: stages.recentShare,
    caches: ctx.caches,
  });
  // A segment is visited when the context shows one of its pages (found directly or through it).
  const shown = new Set(context.pages.map((p) => p.id));
  const visited = [
    ...new Set(
      pages
        .filter((p) => shown.has(p.id))
        .map((p) => segmentOf(p.memory, ranked.owner))
        .filter((s): s is string => s !== null),
    ),
  ];
  if (visited.length && input.recordVisits) await onVisit(input.userId, visited);
  return { profile, facts, segments, pages, recent, skills, context, text: context.text };
}

/** The recent turns the caller does not send the model itself (see `conversation`). */
function unsent(turns: readonly MemoryRecord[], conversation: readonly string[] | undefined): MemoryRecord[] {
  if (!conversation?.length) return [...turns];
  const sent = new Set(conversation.map((text) => text.trim()));
  return turns.filter((m) => !sent.has(m.text.trim()));
}

/** The newest `count` turns said within `hours` before now (any age with 0 hours). */
function shownRecent(
  turns: readonly MemoryRecord[],
  count: number,
  hours: number,
  now: Date,
): MemoryRecord[] {
  const since = hours > 0 ? now.getTime() - hours * 3_600_000 : Number.NEGATIVE_INFINITY;
  const within = turns.filter((m) => Date.parse(m.validFrom ?? m.createdAt) >= since);
  return count > 0 ? within.slice(-count) : [];
}

/**
 * What the context shows of a turn: all of it, or for a long turn the passage it was found by, with an
 * ellipsis where the turn goes on before or after it.
 */
function shownText(text: string, passage: FoundPassage | null): string {
  if (!passage) return text;
  return `${passage.start > 0 ? "…" : ""}${passage.text}${passage.end < text.length ? "…" : ""}`;
}

/** The turn a retrieved turn answers (its session's turn before it), when the context should show it. */
function leadOf(memory: MemoryRecord, neighbours: EngineContext["retrieval"]["neighbours"]): string | null {
  if (neighbours === "off" || !memory.context) return null;
  return neighbours === "always" || memory.context.includes("?") ? memory.context : null;
}
