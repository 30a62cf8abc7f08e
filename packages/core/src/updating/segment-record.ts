import type { MemoryRecord } from "../model/index.js";
import { dot, newRecord } from "../model/index.js";
import type { SegmentHeat } from "./heat.js";

/** What a segment keeps in its metadata: keywords, heat counters, its size and lifetime counts. */
export interface SegmentState extends SegmentHeat {
  readonly keywords: string[];
  /** Pages ever assigned (visits and `pages` reset on promotion; this does not). */
  readonly size: number;
  /** Retrieval visits ever (LFU eviction ranks by it; promotion does not reset it). */
  readonly totalVisits: number;
  /** How many times the segment was promoted to long-term memory. */
  readonly promotions: number;
}

const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** A segment's metadata, read with defaults: the one reader of segment state. */
export function segmentState(record: MemoryRecord): SegmentState {
  const m = record.metadata as Partial<Record<keyof SegmentState, unknown>>;
  return {
    keywords: Array.isArray(m.keywords) ? m.keywords.filter((k): k is string => typeof k === "string") : [],
    visits: count(m.visits),
    pages: count(m.pages),
    lastVisitAt: typeof m.lastVisitAt === "string" ? m.lastVisitAt : record.createdAt,
    size: count(m.size),
    totalVisits: count(m.totalVisits),
    promotions: count(m.promotions),
  };
}

/** The segment with these parts of its state changed, the rest of its metadata kept. */
export function withSegmentState(segment: MemoryRecord, changes: Partial<SegmentState>): MemoryRecord {
  return { ...segment, metadata: { ...segment.metadata, ...changes } };
}

export function newSegment(
  id: string,
  userId: string,
  summary: string,
  now: string,
  at: string | null,
): MemoryRecord {
  const metadata: Omit<SegmentState, "totalVisits" | "promotions"> = {
    keywords: [],
    visits: 0,
    pages: 0,
    lastVisitAt: now,
    size: 0,
  };
  return newRecord(
    { id, userId, kind: "segment", tier: "mid", text: summary, metadata: { ...metadata }, validFrom: at },
    now,
  );
}

/** The similarity of two unit vectors; 0 when one is missing or their sizes differ. */
export function cosine(a: Float32Array | null, b: Float32Array | null): number {
  return a && b && a.length === b.length ? dot(a, b) : 0;
}
