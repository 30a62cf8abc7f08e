import type { MemoryRecord, Scope, StoredMemory } from "../model/index.js";
import { planFacts } from "./apply-facts.js";
import { enforceKnowledgeCapacity } from "./enforce-capacity.js";
import { segmentHeat } from "./heat.js";
import { notYetScreened } from "./screen-explicit-facts.js";
import { segmentState } from "./segment-record.js";
import type { TierContext } from "./tier-context.js";
import { untilStored } from "./until-stored.js";

async function unanalysedMembers(ctx: TierContext, scope: Scope, segmentId: string): Promise<MemoryRecord[]> {
  const ids = (await ctx.storage.edges(scope, { to: segmentId, type: "part_of" })).map((e) => e.from);
  const members = await ctx.storage.get(scope, ids);
  return members
    .filter((m) => m.metadata.analyzed !== true)
    .sort((a, b) => (a.validFrom ?? "").localeCompare(b.validFrom ?? ""));
}

/**
 * Extracts persona memory from a segment's unanalysed pages and resets its heat counters, atomically:
 * the facts, the messages marked analysed and the segment's reset land in one write, so a crash before
 * it simply repeats the promotion (idempotent) and a crash after it never repeats it. The write is
 * conditional on the segment, its messages and the facts it rewrites being stored as read; when another
 * process's job changed one meanwhile, the promotion is worked out again from the segment as stored then.
 */
export async function promoteSegment(
  ctx: TierContext,
  scope: Scope,
  segment: MemoryRecord,
): Promise<Promotion> {
  let current: MemoryRecord | undefined = segment;
  return untilStored("segment promotion", async () => {
    if (!current) return { promoted: false, created: 0, segment: null };
    const done = await promoteOnce(ctx, scope, current);
    if (!done) [current] = await ctx.storage.get(scope, [segment.id]);
    return done;
  });
}

/** What a promotion did, with the segment as it left it (null when it was gone). */
interface Promotion {
  readonly promoted: boolean;
  readonly created: number;
  readonly segment: MemoryRecord | null;
}

async function promoteOnce(ctx: TierContext, scope: Scope, segment: MemoryRecord): Promise<Promotion | null> {
  const messages = await unanalysedMembers(ctx, scope, segment.id);
  if (messages.length === 0) return { promoted: false, created: 0, segment };
  const existing = await ctx.storage.scan(scope, {
    filter: { kinds: ["fact"], current: true },
    limit: 200,
    order: "desc",
  });
  const facts = (await ctx.extractor.persona(messages, existing)).filter(notYetScreened(messages));
  // Each fact dates from the message that states it, not from the end of the batch.
  const said = new Map(messages.map((m) => [m.id, m.validFrom]));
  const fallback = messages.at(-1)?.validFrom ?? ctx.clock().toISOString();
  const plan = await planFacts(ctx, scope, facts, (fact) => said.get(fact.evidence) ?? fallback);
  const now = ctx.clock().toISOString();
  const vectors = await ctx.storage.getVectors(scope, [...messages.map((m) => m.id), segment.id]);
  const analysed: StoredMemory[] = messages.map((m) => ({
    record: { ...m, metadata: { ...m.metadata, analyzed: true } },
    vector: vectors.get(m.id) ?? null,
  }));
  const reset = { ...segmentState(segment), visits: 0, pages: 0, lastVisitAt: now };
  const promotions = Number(segment.metadata.promotions ?? 0) + 1;
  const segmentRecord = {
    ...segment,
    metadata: { ...segment.metadata, ...reset, promotions },
    updatedAt: now,
  };
  const { conflicts } = await ctx.storage.write(scope, {
    upsert: [...plan.upsert, ...analysed, { record: segmentRecord, vector: vectors.get(segment.id) ?? null }],
    history: plan.history,
    edges: plan.edges,
    jobs: plan.jobs,
    expect: [...messages, segment, ...plan.read],
  });
  if (conflicts.length) return null;
  if (plan.created.length) await enforceKnowledgeCapacity(ctx, scope);
  return { promoted: true, created: plan.created.length, segment: segmentRecord };
}

/** Promotes every segment whose heat reached the threshold and that has unanalysed pages. */
export async function promoteHotSegments(ctx: TierContext, scope: Scope): Promise<string[]> {
  const now = ctx.clock();
  const segments = await ctx.storage.scan(scope, { filter: { kinds: ["segment"], current: true } });
  const promoted: string[] = [];
  for (const segment of segments) {
    if (segmentHeat(segmentState(segment), now, ctx.policy) < ctx.policy.heatThreshold) continue;
    if ((await promoteSegment(ctx, scope, segment)).promoted) promoted.push(segment.id);
  }
  return promoted;
}

/**
 * Keeps mid-term within capacity: the coldest segments (lowest heat, or fewest visits under `lfu`) leave.
 * Their unanalysed pages are promoted first, so no knowledge is lost; the messages stay stored. The
 * deletion is conditional on each segment being stored as promoted (or as read): a visit or a page another
 * process's job gave one meanwhile makes the eviction rank the segments again as stored then.
 */
export async function evictMidTerm(ctx: TierContext, scope: Scope): Promise<string[]> {
  return untilStored("mid-term eviction", () => evictOnce(ctx, scope));
}

async function evictOnce(ctx: TierContext, scope: Scope): Promise<string[] | null> {
  const segments = await ctx.storage.scan(scope, { filter: { kinds: ["segment"], current: true } });
  const excess = segments.length - ctx.policy.midTermCapacity;
  if (excess <= 0) return [];
  const now = ctx.clock();
  const rank = (s: MemoryRecord) =>
    ctx.policy.eviction === "lfu"
      ? Number(s.metadata.totalVisits ?? 0)
      : segmentHeat(segmentState(s), now, ctx.policy);
  const coldest = [...segments].sort((a, b) => rank(a) - rank(b)).slice(0, excess);
  const leaving: MemoryRecord[] = [];
  for (const s of coldest) {
    const { segment } = await promoteSegment(ctx, scope, s);
    if (segment) leaving.push(segment);
  }
  if (leaving.length === 0) return [];
  const ids = leaving.map((s) => s.id);
  const { conflicts } = await ctx.storage.write(scope, { deleteIds: ids, expect: leaving });
  return conflicts.length ? null : ids;
}
