import type { MemoryRecord } from "../model/index.js";
import { dot, newRecord } from "../model/index.js";
import type { SegmentHeat } from "./heat.js";

/** What a segment keeps in its metadata: keywords, heat counters and its size. */
export interface SegmentState extends SegmentHeat {
  readonly keywords: string[];
  /** Pages ever assigned (visits and `pages` reset on promotion; this does not). */
  readonly size: number;
}

export function segmentState(record: MemoryRecord): SegmentState {
  const m = record.metadata as Partial<SegmentState>;
  return {
    keywords: m.keywords ?? [],
    visits: m.visits ?? 0,
    pages: m.pages ?? 0,
    lastVisitAt: m.lastVisitAt ?? record.createdAt,
    size: m.size ?? 0,
  };
}

export function newSegment(
  id: string,
  userId: string,
  summary: string,
  now: string,
  at: string | null,
): MemoryRecord {
  const metadata: SegmentState = { keywords: [], visits: 0, pages: 0, lastVisitAt: now, size: 0 };
  return newRecord(
    { id, userId, kind: "segment", tier: "mid", text: summary, metadata: { ...metadata }, validFrom: at },
    now,
  );
}

/** The similarity of two unit vectors; 0 when one is missing or their sizes differ. */
export function cosine(a: Float32Array | null, b: Float32Array | null): number {
  return a && b && a.length === b.length ? dot(a, b) : 0;
}
