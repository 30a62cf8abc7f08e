import type { MemoryRecord } from "../model/index.js";
import { newRecord } from "../model/index.js";
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

export function normalizedMean(vectors: readonly (Float32Array | undefined)[]): Float32Array | null {
  const present = vectors.filter((v): v is Float32Array => v !== undefined);
  const first = present[0];
  if (!first) return null;
  const out = new Float32Array(first.length);
  for (const v of present)
    for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (v[i] as number);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += (out[i] as number) ** 2;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

export function cosine(a: Float32Array | null, b: Float32Array | null): number {
  if (!a || !b || a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}
