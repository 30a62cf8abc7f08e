import type { Policy } from "../runtime/index.js";

/** The counters a segment keeps for its heat (MemoryOS: N_visit, L_interaction, last visit). */
export interface SegmentHeat {
  /** Retrieval visits since the last promotion. */
  readonly visits: number;
  /** Pages added since the last promotion. */
  readonly pages: number;
  /** ISO time of the last visit, page added, or promotion. */
  readonly lastVisitAt: string;
}

/**
 * heat = a * visits + b * pages + c * recency, recency = exp(-dt / mu) with dt in seconds. Computed from the
 * clock at read time, so decay applies without touching the segment (MemoryOS only recomputed on touch).
 */
export function segmentHeat(counters: SegmentHeat, now: Date, policy: Policy): number {
  return heatParts(counters, now, policy).heat;
}

/** Heat with its three weighted terms, for showing why a segment is hot. */
export interface HeatParts {
  readonly heat: number;
  /** Each term as it enters the sum: a * visits, b * pages, c * recency. */
  readonly parts: { readonly visits: number; readonly pages: number; readonly recency: number };
  /** exp(-dt / mu), before its weight. */
  readonly recency: number;
}

export function heatParts(counters: SegmentHeat, now: Date, policy: Policy): HeatParts {
  const dt = Math.max(0, (now.getTime() - Date.parse(counters.lastVisitAt)) / 1000);
  const recency = Math.exp(-dt / policy.recencyMuSeconds);
  const parts = {
    visits: policy.heatA * counters.visits,
    pages: policy.heatB * counters.pages,
    recency: policy.heatC * recency,
  };
  return { heat: parts.visits + parts.pages + parts.recency, parts, recency };
}
