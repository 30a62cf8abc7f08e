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
import { countedTexts, forgetCountedTexts } from "./tokenizer.js";

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
  return {
    profile: prepare(
      byDescending(input.profile, (p) => p.confidence),
      (p) => p.key,
      (p) => ({ head: profileHead(p.key), text: p.value }),
    ),
    facts: prepare(
      byDescending(input.facts, (f) => f.score),
      (f) => f.id,
      (f) => ({ head: factHead(f), text: f.text }),
    ),
    skills: prepare(
      byDescending(input.skills ?? [], (s) => s.score),
      (s) => s.id,
      (s) => ({ head: "- ", text: s.text }),
    ),
    pages: prepare(
      byDescending(input.pages, (p) => p.score),
      (p) => p.id,
      (p) => ({ head: pageHead(p), text: p.note ? `${p.text}${p.note}` : p.text }),
    ),
    recent: prepare(
      input.recent.map((item, rank) => ({ item, rank })).reverse(),
      (r) => r.id,
      (r) => ({ head: turnHead(r, true), text: r.note ? `${r.text}${r.note}` : r.text }),
    ),
  };
}

function prepare<T>(
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

/**
 * Sanitised texts by their stored text: each assembly sanitises the same profile lines, facts and recent
 * turns again, and NFKC with a dozen patterns per item was a visible share of a retrieval. Bounded; past
 * the bound the memory starts over. Long texts are not kept.
 */
const SANITIZED = 4096;
const MAX_KEPT_LENGTH = 4096;
const sanitizedTexts = new Map<string, string>();

/**
 * Forgets the sanitised texts and token counts remembered for assembly: after `forget`, none of the
 * user's texts stays in the process's memory either.
 */
export function forgetRememberedTexts(): void {
  sanitizedTexts.clear();
  forgetCountedTexts();
}

/** How many texts the assembly remembers (sanitised, and counted). */
export function rememberedTexts(): number {
  return sanitizedTexts.size + countedTexts();
}

function sanitized(text: string): string {
  const known = sanitizedTexts.get(text);
  if (known !== undefined) return known;
  const clean = sanitizeMemoryText(text);
  if (text.length <= MAX_KEPT_LENGTH) {
    if (sanitizedTexts.size >= SANITIZED) sanitizedTexts.clear();
    sanitizedTexts.set(text, clean);
  }
  return clean;
}

/** Stable sort, best first; a missing or non-finite score sorts last. */
function byDescending<T>(items: readonly T[], scoreOf: (item: T) => number) {
  const finite = (value: number) => (Number.isFinite(value) ? value : Number.NEGATIVE_INFINITY);
  return items
    .map((item, rank) => ({ item, rank, score: finite(scoreOf(item)) }))
    .sort((a, b) => (b.score === a.score ? a.rank - b.rank : b.score - a.score));
}
