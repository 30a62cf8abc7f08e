import type { Hit } from "../storage/index.js";

export const CHANNELS = ["fulltext", "vector"] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * How channel scores combine. `zscore` (default): each channel's scores standardised over its candidates,
 * then summed with weights; `minmax`: scaled to [0, 1] per channel, weighted sum; `rrf`: reciprocal-rank
 * fusion, sum of w / (60 + rank). Chosen by measurement on LoCoMo dev (docs/benchmarks.md): with the
 * offline embedder, score-level fusion beats RRF, which loses to full-text alone at k <= 10.
 */
export const FUSION_METHODS = ["zscore", "minmax", "rrf"] as const;
export type FusionMethod = (typeof FUSION_METHODS)[number];

export interface ChannelScore {
  /** 1-based rank within the channel's list. */
  readonly rank: number;
  /** The channel's raw score: BM25 for full-text (higher is better), cosine for vector. */
  readonly score: number;
}

export interface ChannelStats {
  readonly mean: number;
  readonly sd: number;
  readonly floor?: number;
}

export interface FusedHit {
  readonly id: string;
  readonly score: number;
  readonly channels: Partial<Record<Channel, ChannelScore>>;
}

export interface FusionOptions {
  readonly method: FusionMethod;
  readonly weights: Readonly<Record<Channel, number>>;
  /**
   * z-score only: a channel's mean and standard deviation when the backend knows them (over the whole
   * scope, or over more matches than it listed), and optionally the score a candidate the channel did not
   * list gets; otherwise they are estimated from the channel's own candidates.
   */
  readonly stats?: Partial<Record<Channel, ChannelStats>>;
}

const RRF_K = 60; // the textbook constant (Cormack et al. 2009)

function normaliser(
  method: FusionMethod,
  hits: readonly Hit[],
  known?: ChannelStats,
): (score: number, rank: number) => number {
  if (method === "rrf") return (_score, rank) => 1 / (RRF_K + rank);
  if (method === "zscore" && known && known.sd > 0) return (score) => (score - known.mean) / known.sd;
  const scores = hits.map((h) => h.score);
  if (method === "minmax") {
    const min = Math.min(...scores);
    const range = Math.max(...scores) - min;
    return (score) => (range > 0 ? (score - min) / range : 1);
  }
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / scores.length);
  // One hit, or all equal: being listed is all the channel says, so a listed hit counts +1 (missed: 0).
  return (score) => (sd > 0 ? (score - mean) / sd : 1);
}

/**
 * What a candidate that the channel did not list gets: the known floor's value, else the channel's lowest
 * listed value (0 when degenerate).
 */
function floorOf(method: FusionMethod, hits: readonly Hit[], known?: ChannelStats): number {
  if (method === "zscore" && known && known.sd > 0 && known.floor !== undefined) {
    return (known.floor - known.mean) / known.sd;
  }
  const scores = hits.map((h) => h.score);
  const min = Math.min(...scores);
  if (method === "minmax" || min === Math.max(...scores)) return 0;
  return normaliser(method, hits, known)(min, hits.length);
}

/** Fuses per-channel rankings into one, best first; each hit keeps what every channel said of it. */
export function fuseRankings(
  lists: Partial<Record<Channel, readonly Hit[]>>,
  options: FusionOptions,
): FusedHit[] {
  const fused = new Map<string, { score: number; channels: Partial<Record<Channel, ChannelScore>> }>();
  const present = CHANNELS.filter((c) => (lists[c]?.length ?? 0) > 0);
  for (const channel of present) {
    const hits = lists[channel] as readonly Hit[];
    const norm = normaliser(options.method, hits, options.stats?.[channel]);
    const weight = options.weights[channel];
    for (let i = 0; i < hits.length; i++) {
      const hit = hits[i] as Hit;
      let entry = fused.get(hit.id);
      if (!entry) {
        entry = { score: 0, channels: {} };
        fused.set(hit.id, entry);
      }
      entry.score += weight * norm(hit.score, i + 1);
      entry.channels[channel] = { rank: i + 1, score: hit.score };
    }
  }
  // A candidate one channel did not return gets that channel's floor: its lowest listed score
  // (rrf: nothing), so being missed counts as ranking last, not as an average.
  if (options.method !== "rrf") {
    for (const channel of present) {
      const hits = lists[channel] as readonly Hit[];
      const floor = options.weights[channel] * floorOf(options.method, hits, options.stats?.[channel]);
      for (const entry of fused.values()) if (!entry.channels[channel]) entry.score += floor;
    }
  }
  const out: FusedHit[] = [];
  for (const [id, e] of fused) out.push({ id, score: e.score, channels: e.channels });
  return out.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
