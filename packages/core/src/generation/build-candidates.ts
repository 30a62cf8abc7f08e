import type { CacheSet } from "../model/index.js";
import type {
  ContextFact,
  ContextInput,
  ContextPage,
  ContextProfileItem,
  ContextSkill,
  ContextTurn,
} from "./context-types.js";
import { factHead, profileHead, turnHead } from "./render-memory-block.js";
import { sanitizeMemoryText } from "./sanitize-memory-text.js";
import { pageHead } from "./select-pages.js";
import type { Candidate } from "./select-within-budget.js";

export interface ContextCandidates {
  profile: Candidate<ContextProfileItem>[];
  facts: Candidate<ContextFact>[];
  skills: Candidate<ContextSkill>[];
  pages: Candidate<ContextPage>[];
  recent: Candidate<ContextTurn>[];
}

/**
 * Sanitised, rendered candidates per section in the order they should claim the budget: profile by
 * confidence, facts and pages by score, recent turns newest first. Repeated ids (profile: keys) and items
 * with nothing to show are left out.
 */
export function buildCandidates(input: ContextInput): ContextCandidates {
  const sanitized = sanitizer(input.caches);
  return {
    profile: prepare(
      sanitized,
      byDescending(input.profile, (p) => p.confidence),
      (p) => p.key,
      (p) => ({ head: profileHead(p.key), text: p.value }),
    ),
    facts: prepare(
      sanitized,
      byDescending(input.facts, (f) => f.score),
      (f) => f.id,
      (f) => ({ head: factHead(f), text: f.text }),
    ),
    skills: prepare(
      sanitized,
      byDescending(input.skills ?? [], (s) => s.score),
      (s) => s.id,
      (s) => ({ head: "- ", text: s.text }),
    ),
    pages: prepare(
      sanitized,
      byDescending(input.pages, (p) => p.score),
      (p) => p.id,
      (p) => ({ head: pageHead(p), text: p.note ? `${p.text}${p.note}` : p.text }),
    ),
    recent: prepare(
      sanitized,
      input.recent.map((item, rank) => ({ item, rank })).reverse(),
      (r) => r.id,
      (r) => ({ head: turnHead(r, true), text: r.note ? `${r.text}${r.note}` : r.text }),
    ),
  };
}

function prepare<T>(
  sanitized: (text: string) => string,
  ranked: readonly { item: T; rank: number }[],
  keyOf: (item: T) => string,
  render: (item: T) => { head: string; text: string },
): Candidate<T>[] {
  const seen = new Set<string>();
  const out: Candidate<T>[] = [];
  for (const { item, rank } of ranked) {
    const key = keyOf(item);
    if (seen.has(key)) continue;
    seen.add(key);
    const { head, text } = render(item);
    const body = sanitized(text);
    if (body) out.push({ item, key, head, body, rank });
  }
  return out;
}

/** Texts longer than this are sanitised each time rather than kept. */
const MAX_KEPT_LENGTH = 4096;

/**
 * Sanitises through the caches when given: each assembly sanitises the same profile lines, facts and recent
 * turns again, and NFKC with a dozen patterns per item was a visible share of a retrieval.
 */
function sanitizer(caches: CacheSet | undefined): (text: string) => string {
  if (!caches) return sanitizeMemoryText;
  const kept = caches.cache<string, string>("sanitised texts", 4096);
  return (text) =>
    text.length <= MAX_KEPT_LENGTH
      ? kept.memo(text, () => sanitizeMemoryText(text))
      : sanitizeMemoryText(text);
}

/** Stable sort, best first; a missing or non-finite score sorts last. */
function byDescending<T>(items: readonly T[], scoreOf: (item: T) => number) {
  const finite = (value: number) => (Number.isFinite(value) ? value : Number.NEGATIVE_INFINITY);
  return items
    .map((item, rank) => ({ item, rank, score: finite(scoreOf(item)) }))
    .sort((a, b) => (b.score === a.score ? a.rank - b.rank : b.score - a.score));
}
