import type { Scope } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { untilStored } from "../runtime/index.js";
import type { NewJob } from "../storage/index.js";
import { segmentState, withSegmentState } from "./segment-record.js";

/**
 * Applies queued retrieval visits: each visited segment gets visits + 1 and a fresh last-visit time. The
 * write is conditional on the segments as read, so a page another process's tier job joined meanwhile is
 * kept (the counts are then applied to the segment as it is now).
 */
export async function recordVisits(
  ctx: EngineContext,
  scope: Scope,
  segmentIds: readonly string[],
  then: NewJob,
): Promise<void> {
  await untilStored("visit counting", () => recordOnce(ctx, scope, segmentIds, then));
}

async function recordOnce(
  ctx: EngineContext,
  scope: Scope,
  segmentIds: readonly string[],
  then: NewJob,
): Promise<true | null> {
  const segments = await ctx.storage.get(scope, [...new Set(segmentIds)]);
  if (segments.length === 0) return true;
  const now = ctx.clock().toISOString();
  const counts = new Map<string, number>();
  for (const id of segmentIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  const { conflicts } = await ctx.storage.write(scope, {
    expect: segments,
    // Same write: the promotion check is queued atomically with the counts it depends on.
    jobs: [then],
    upsert: segments.map((s) => {
      const state = segmentState(s);
      const n = counts.get(s.id) ?? 0;
      const visits = { visits: state.visits + n, totalVisits: state.totalVisits + n, lastVisitAt: now };
      return { record: withSegmentState(s, visits) };
    }),
  });
  return conflicts.length ? null : true;
}
