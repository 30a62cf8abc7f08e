import type { MemoryEdge, MemoryRecord, MemoryVersion, Scope, StoredMemory } from "../model/index.js";
import { normalizedMean, versionOf } from "../model/index.js";
import type { EngineContext, Page, PageAssignment } from "../runtime/index.js";
import { inSteps } from "../runtime/index.js";
import { type JobControl, UNCONTROLLED } from "../scheduler/index.js";
import { extractiveSummary, extractKeywords, jaccard } from "./keywords.js";
import { groupPages } from "./pages.js";
import { cosine, newSegment, type SegmentState, segmentState } from "./segment-record.js";

interface WorkingSegment {
  record: MemoryRecord;
  state: SegmentState;
  vector: Float32Array | null;
  isNew: boolean;
  changed: boolean;
}

function offlineAssignment(page: Page): Omit<PageAssignment, "segmentId"> {
  const lines = page.messages.map((m) => m.text);
  return {
    pageId: page.id,
    summary: extractiveSummary(lines, 200),
    // From what was said, not the "user:"/"assistant:" labels every page shares.
    keywords: extractKeywords(lines.join("\n")),
  };
}

/** The best segment for a page by cos(vector) + Jaccard(keywords), if it reaches theta. */
function bestSegment(
  ctx: EngineContext,
  segments: WorkingSegment[],
  vector: Float32Array | null,
  keywords: string[],
) {
  let best: WorkingSegment | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const s of segments) {
    const score = cosine(vector, s.vector) + jaccard(keywords, s.state.keywords);
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return best && bestScore >= ctx.policy.theta ? best : null;
}

function join(
  segment: WorkingSegment,
  a: Omit<PageAssignment, "segmentId">,
  vector: Float32Array | null,
  now: string,
) {
  const { state } = segment;
  const keywords = [...new Set([...state.keywords, ...a.keywords])].slice(0, 16);
  if (vector && segment.vector) {
    const merged = normalizedMean([segment.vector.map((x) => x * state.size), vector]);
    segment.vector = merged;
  } else segment.vector ??= vector;
  segment.state = { ...state, keywords, pages: state.pages + 1, size: state.size + 1, lastVisitAt: now };
  const text = segment.record.text ? `${segment.record.text} ${a.summary}` : a.summary;
  segment.record = { ...segment.record, text: text.length > 600 ? segment.record.text : text };
  segment.changed = true;
}

/** Pages moved per write when short-term overflow is worked through (a live chat moves a batch of 7). */
const EVICTION_STEP = 256;

/**
 * Moves short-term overflow to mid-term. When the short-term queue holds `shortTermCapacity +
 * evictionBatch` pages or more, every page beyond the newest `shortTermCapacity` leaves; each lands in
 * exactly one segment. Nothing is dropped: the messages stay stored, re-tiered `mid`, linked `part_of`
 * their segment. The pages leave oldest first, EVICTION_STEP at a time (one model call and one write per
 * step with a language model), and `afterStep` runs after each (mid-term capacity), so an import of any
 * size does bounded work per step against at most `midTermCapacity + EVICTION_STEP` segments. Each write
 * is conditional on the messages and segments being stored as read (another process's embed or tier job
 * may have changed them meanwhile); when it loses, the overflow is read again.
 */
export async function evictShortTerm(
  ctx: EngineContext,
  scope: Scope,
  control: JobControl = UNCONTROLLED,
  afterStep: () => Promise<unknown> = async () => {},
): Promise<{ moved: number; touched: string[] }> {
  const touched = new Set<string>();
  const overflow = async () => {
    const short = await ctx.storage.scan(scope, {
      filter: { kinds: ["message"], tiers: ["short"] },
      order: "asc",
    });
    const pages = groupPages(short);
    const excess = pages.length - ctx.policy.shortTermCapacity;
    return excess < ctx.policy.evictionBatch ? [] : pages.slice(0, excess);
  };
  const moved = await inSteps(
    "short-term eviction",
    EVICTION_STEP,
    overflow,
    async (evicted) => {
      const done = await evictPages(ctx, scope, evicted);
      if (!done) return false;
      for (const id of done) touched.add(id);
      await afterStep();
      return true;
    },
    control,
  );
  return { moved, touched: [...touched] };
}

/** Moves these pages into segments in one write; the segments it wrote, or null when the write lost. */
async function evictPages(
  ctx: EngineContext,
  scope: Scope,
  evicted: readonly Page[],
): Promise<string[] | null> {
  const now = ctx.clock().toISOString();
  const messageVectors = await ctx.storage.getVectors(
    scope,
    evicted.flatMap((p) => p.messages.map((m) => m.id)),
  );
  const existing = await ctx.storage.scan(scope, { filter: { kinds: ["segment"], current: true } });
  const segVectors = await ctx.storage.getVectors(
    scope,
    existing.map((s) => s.id),
  );
  const segments: WorkingSegment[] = existing.map((record) => ({
    record,
    state: segmentState(record),
    vector: segVectors.get(record.id) ?? null,
    isNew: false,
    changed: false,
  }));
  const assigned = ctx.extractor.assign ? await ctx.extractor.assign(evicted, existing) : null;
  const upsert: StoredMemory[] = [];
  const edges: MemoryEdge[] = [];
  const topics = new Map<string, WorkingSegment>();
  for (const page of evicted) {
    const vector = normalizedMean(page.messages.map((m) => messageVectors.get(m.id)));
    const a = assigned?.find((x) => x.pageId === page.id) ?? offlineAssignment(page);
    let segment =
      "segmentId" in a && a.segmentId ? segments.find((s) => s.record.id === a.segmentId) : undefined;
    if ("topic" in a && a.topic) segment ??= topics.get(a.topic);
    if (!assigned) segment = bestSegment(ctx, segments, vector, a.keywords) ?? undefined;
    if (!segment) {
      const record = newSegment(ctx.ids(), scope.userId, "", now, page.messages[0]?.validFrom ?? null);
      segment = { record, state: segmentState(record), vector: null, isNew: true, changed: true };
      segments.push(segment);
      if ("topic" in a && a.topic) topics.set(a.topic, segment);
    }
    join(segment, a, vector, now);
    for (const m of page.messages) {
      const record = {
        ...m,
        tier: "mid" as const,
        metadata: { ...m.metadata, segment: segment.record.id },
        updatedAt: now,
      };
      upsert.push({ record, vector: messageVectors.get(m.id) ?? null });
      edges.push({
        userId: scope.userId,
        from: m.id,
        to: segment.record.id,
        type: "part_of",
        createdAt: now,
      });
    }
  }
  const changed = segments.filter((s) => s.changed);
  const history: MemoryVersion[] = [];
  for (const s of changed) {
    const record = { ...s.record, metadata: { ...s.record.metadata, ...s.state }, updatedAt: now };
    upsert.push({ record, vector: s.vector });
    if (s.isNew) history.push(versionOf(record, "create", now));
  }
  const read = new Map(existing.map((r) => [r.id, r]));
  const expect = [
    ...evicted.flatMap((p) => p.messages),
    ...changed.flatMap((s) => (s.isNew ? [] : [read.get(s.record.id) as MemoryRecord])),
  ];
  // Segment summaries are rewritten as pages join: derived text, whose old terms need no erasing.
  const { conflicts } = await ctx.storage.write(scope, { upsert, edges, history, expect, derivedText: true });
  return conflicts.length ? null : changed.map((s) => s.record.id);
}
