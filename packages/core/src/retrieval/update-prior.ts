import { stemmer } from "stemmer";
import type { CacheSet } from "../model/index.js";
import { queryTerms } from "../model/index.js";

/** Content stems two statements must share, as a share of the shorter one's, to be about the same thing. */
const SAME_TOPIC = 0.5;
/** A statement of fewer content words than this says too little to be compared. */
const MIN_TERMS = 3;

export interface StatedHit {
  readonly role: string | null;
  readonly text: string;
  /** When it was said (ISO), or null. */
  readonly at: string | null;
}

/** The sorted distinct content stems of a text. */
function stemsOf(text: string): readonly string[] {
  return [...new Set(queryTerms(text).map((term) => stemmer(term)))].sort();
}

/** Whether two sorted stem lists share at least `SAME_TOPIC` of the shorter one's stems. */
function sameTopic(a: readonly string[], b: readonly string[]): boolean {
  const need = Math.ceil(SAME_TOPIC * Math.min(a.length, b.length));
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    // Too few left on one side to reach the share: stop early.
    if (shared + Math.min(a.length - i, b.length - j) < need) return false;
    const x = a[i] as string;
    const y = b[j] as string;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return shared >= need;
}

/**
 * An update prior: when the user said something about the same thing twice ("I run 5k in 27 minutes", then
 * months later "I now do 5k in 24 minutes"), the later statement is the current one. Among the hits, a
 * user turn that shares most of its content words with an earlier user turn ranking above it moves just
 * above that one, so the newer value is read first (both stay, with their dates). Stable otherwise.
 */
export function applyUpdatePrior<T extends { score: number }>(
  hits: readonly T[],
  statedOf: (hit: T) => StatedHit | undefined,
  on: boolean,
  caches?: CacheSet,
): T[] {
  if (!on || hits.length < 2) return [...hits];
  // The same turns come back query after query, and stemming them is the cost.
  const kept = caches?.cache<string, readonly string[]>("statement stems", 4096);
  const stems = (text: string) => (kept ? kept.memo(text, () => stemsOf(text)) : stemsOf(text));
  const info = hits.map((hit) => {
    const stated = statedOf(hit);
    return stated?.role === "user" && stated.at ? { at: stated.at, stems: stems(stated.text) } : null;
  });
  const out = hits.map((hit, rank) => ({ hit, rank }));
  for (let i = 1; i < out.length; i++) {
    const newer = info[out[i]?.rank as number];
    if (!newer || newer.stems.length < MIN_TERMS) continue;
    for (let j = 0; j < i; j++) {
      const older = info[out[j]?.rank as number];
      if (!older || older.at >= newer.at || older.stems.length < MIN_TERMS) continue;
      if (!sameTopic(newer.stems, older.stems)) continue;
      // Just above the older statement: the newer one takes its score, plus a hair.
      const moved = out.splice(i, 1)[0] as (typeof out)[number];
      const score = (out[j] as (typeof out)[number]).hit.score + 1e-6;
      out.splice(j, 0, { ...moved, hit: { ...moved.hit, score } });
      break;
    }
  }
  return out.map((x) => x.hit);
}
