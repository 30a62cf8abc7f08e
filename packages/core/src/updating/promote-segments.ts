import {
  type MemoryRecord,
  messageMarks,
  type Scope,
  type StoredMemory,
  withMessageMarks,
} from "../model/index.js";
import type { EngineContext, ExtractedFact } from "../runtime/index.js";
import { CONFLICT_TRIES, tooManyConflicts } from "../runtime/index.js";
import { type JobControl, UNCONTROLLED } from "../scheduler/index.js";
import { planFacts } from "./apply-facts.js";
import { enforceKnowledgeCapacity } from "./enforce-capacity.js";
import { segmentHeat } from "./heat.js";
import { notYetScreened } from "./screen-explicit-facts.js";
import { segmentState, withSegmentState } from "./segment-record.js";

/** Messages extracted per write when segments are promoted. */
const PROMOTION_STEP = 256;

/** The segments' unanalysed member messages, each segment's oldest first. */
async function unanalysedMembers(
  ctx: EngineContext,
  scope: Scope,
  segments: readonly MemoryRecord[],
): Promise<Map<string, MemoryRecord[]>> {
  const edges = await ctx.storage.edges(scope, { to: segments.map((s) => s.id), type: "part_of" });
  const members = await ctx.storage.get(
    scope,
    edges.map((e) => e.from),
  );
  const segmentOf = new Map(edges.map((e) => [e.from, e.to]));
  const out = new Map<string, MemoryRecord[]>(segments.map((s) => [s.id, []]));
  for (const m of members) {
    if (!messageMarks(m).analyzed) out.get(segmentOf.get(m.id) as string)?.push(m);
  }
  for (const list of out.values()) list.sort((a, b) => (a.validFrom ?? "").localeCompare(b.validFrom ?? ""));
  return out;
}

/** The segment with its heat counters reset by a promotion. */
function promotedSegment(segment: MemoryRecord, now: string): MemoryRecord {
  const promotions = segmentState(segment).promotions + 1;
  return {
    ...withSegmentState(segment, { visits: 0, pages: 0, lastVisitAt: now, promotions }),
    updatedAt: now,
  };
}

/**
 * Extracts persona memory from segments' unanalysed pages and resets their heat counters, or, with
 * `remove`, deletes them once extracted (mid-term eviction). The messages go to the extractor
 * PROMOTION_STEP at a time, oldest segment first; each step's facts and `analyzed` marks land in one
 * write, and the last step's write also resets (or deletes) the segments. So a crash or an interrupt
 * between steps leaves the analysed messages analysed and the segments as they were, still due for the
 * rest; a promotion of one page (a live chat) is one write, as it always was. Every write is conditional
 * on the messages, segments and facts it rewrites being stored as read; when another process's job
 * changed one meanwhile, the segments are read again and the promotion continues from what is stored.
 * Returns the segments promoted (or removed).
 */
export async function promoteSegments(
  ctx: EngineContext,
  scope: Scope,
  /** The segments to promote, read from the store (again after a lost write). */
  choose: () => Promise<MemoryRecord[]>,
  options: { readonly remove: boolean; readonly control?: JobControl },
): Promise<string[]> {
  const control = options.control ?? UNCONTROLLED;
  for (let lost = 0; lost < CONFLICT_TRIES; lost++) {
    const segments = await choose();
    if (segments.length === 0) return [];
    const members = await unanalysedMembers(ctx, scope, segments);
    // Without `remove`, only segments with something to extract are promoted.
    const closing = options.remove ? segments : segments.filter((s) => members.get(s.id)?.length);
    if (closing.length === 0) return [];
    const messages = closing.flatMap((s) => members.get(s.id) ?? []);
    const steps: MemoryRecord[][] = [];
    for (let i = 0; i < messages.length; i += PROMOTION_STEP)
      steps.push(messages.slice(i, i + PROMOTION_STEP));
    if (steps.length === 0) steps.push([]);
    let stored = true;
    for (const [i, step] of steps.entries()) {
      const last = i === steps.length - 1;
      stored = await promotionStep(ctx, scope, step, last ? closing : [], options.remove);
      if (!stored) break;
      if (!last) await control.checkpoint();
    }
    if (stored) return closing.map((s) => s.id);
  }
  throw tooManyConflicts("segment promotion");
}

/**
 * The facts promotion adds from `messages`: what the extractor reads, less what the prompt path already
 * decided. When the extractor is the prompt path's own rules (the offline default), a screened turn would
 * only give back the facts already decided, so it is not read again: each user turn is read once.
 */
async function promotedFacts(
  ctx: EngineContext,
  messages: readonly MemoryRecord[],
  existing: readonly MemoryRecord[],
): Promise<ExtractedFact[]> {
  if (ctx.rules !== null && ctx.extractor === ctx.rules) {
    const unread = messages.filter((m) => !(m.role === "user" && messageMarks(m).screened));
    return unread.length ? ctx.extractor.persona(unread, existing) : [];
  }
  return (await ctx.extractor.persona(messages, existing)).filter(await notYetScreened(ctx, messages));
}

/**
 * One write: the facts of `messages` and their `analyzed` marks, and the `closing` segments reset (or
 * removed). False when the write lost to another writer.
 */
async function promotionStep(
  ctx: EngineContext,
  scope: Scope,
  messages: readonly MemoryRecord[],
  closing: readonly MemoryRecord[],
  remove: boolean,
): Promise<boolean> {
  const existing = messages.length
    ? await ctx.storage.scan(scope, { filter: { kinds: ["fact"], current: true }, limit: 200, order: "desc" })
    : [];
  const facts = messages.length ? await promotedFacts(ctx, messages, existing) : [];
  // Each fact dates from the message that states it, not from the end of the batch.
  const said = new Map(messages.map((m) => [m.id, m.validFrom]));
  const fallback = messages.at(-1)?.validFrom ?? ctx.clock().toISOString();
  const plan = await planFacts(ctx, scope, facts, (fact) => said.get(fact.evidence) ?? fallback);
  const now = ctx.clock().toISOString();
  const kept = remove ? [] : closing;
  const analysed: StoredMemory[] = messages.map((m) => ({ record: withMessageMarks(m, { analyzed: true }) }));
  const reset: StoredMemory[] = kept.map((s) => ({
    record: promotedSegment(s, now),
  }));
  const { conflicts } = await ctx.storage.write(scope, {
    upsert: [...plan.upsert, ...analysed, ...reset],
    ...(remove && closing.length ? { deleteIds: closing.map((s) => s.id) } : {}),
    history: plan.history,
    edges: plan.edges,
    jobs: plan.jobs,
    expect: [...messages, ...closing, ...plan.read],
    // Only segments are deleted here (summaries of messages that stay stored).
    derivedText: true,
  });
  if (conflicts.length) return false;
  if (plan.created.length) await enforceKnowledgeCapacity(ctx, scope);
  return true;
}

/** Promotes every segment whose heat reached the threshold and that has unanalysed pages. */
export async function promoteHotSegments(
  ctx: EngineContext,
  scope: Scope,
  control: JobControl = UNCONTROLLED,
): Promise<string[]> {
  const now = ctx.clock();
  const segments = await ctx.storage.scan(scope, { filter: { kinds: ["segment"], current: true } });
  const hot = segments.filter(
    (s) => segmentHeat(segmentState(s), now, ctx.policy) >= ctx.policy.heatThreshold,
  );
  const promoted: string[] = [];
  // One segment at a time: a promotion reads its members, and a hot segment can hold thousands.
  const current = async (id: string) =>
    (await ctx.storage.get(scope, [id])).filter((s) => s.kind === "segment" && s.expiredAt === null);
  for (const segment of hot) {
    const read = async () => current(segment.id);
    promoted.push(...(await promoteSegments(ctx, scope, read, { remove: false, control })));
    await control.checkpoint();
  }
  return promoted;
}

/**
 * Keeps mid-term within capacity: the coldest segments (lowest heat, or fewest visits under `lfu`) leave.
 * Their unanalysed pages are promoted first, so no knowledge is lost, and the write that promotes their
 * last pages deletes them; the messages stay stored. The writes are conditional on the segments as read:
 * a visit or a page another process's job gave one meanwhile makes the eviction rank the segments again
 * as stored then.
 */
export async function evictMidTerm(
  ctx: EngineContext,
  scope: Scope,
  control: JobControl = UNCONTROLLED,
): Promise<string[]> {
  const coldest = async () => {
    const segments = await ctx.storage.scan(scope, { filter: { kinds: ["segment"], current: true } });
    const excess = segments.length - ctx.policy.midTermCapacity;
    if (excess <= 0) return [];
    const now = ctx.clock();
    const rank = (s: MemoryRecord) =>
      ctx.policy.eviction === "lfu"
        ? segmentState(s).totalVisits
        : segmentHeat(segmentState(s), now, ctx.policy);
    return [...segments].sort((a, b) => rank(a) - rank(b)).slice(0, excess);
  };
  return promoteSegments(ctx, scope, coldest, { remove: true, control });
}
