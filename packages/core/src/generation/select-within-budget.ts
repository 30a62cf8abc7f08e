import { sliceAtCodePoint } from "./sanitize-memory-text.js";
import type { Tokenizer } from "./tokenizer.js";

/** One item ready to render as `head + body`; `rank` is its position in the input, for render order. */
export interface Candidate<T> {
  readonly item: T;
  readonly key: string;
  readonly head: string;
  readonly body: string;
  readonly rank: number;
}

export interface Chosen<T> {
  readonly item: T;
  readonly key: string;
  readonly rank: number;
  readonly line: string;
  readonly truncated: boolean;
}

/** Tokens still free; shared by the sections so each one spends what the ones before it left. */
export interface Budget {
  remaining: number;
}

/** One section's selection: its candidates in priority order, its heading, and the budget it spends from. */
export interface SectionInput<T> {
  readonly candidates: readonly Candidate<T>[];
  readonly heading: string;
  readonly budget: Budget;
  readonly tokenizer: Tokenizer;
}

/** A truncated item keeps at least this many characters; a shorter stub would say nothing useful. */
export const MIN_KEPT_CHARS = 24;
// Bounds the truncation search for very long items: prose averages about 4 characters per token, so a
// longer prefix practically never fits; a bound too small would only shorten the cut, never overshoot.
const MAX_CHARS_PER_TOKEN = 32;
// A cut moves back to a word boundary when one is this close.
const WORD_BOUNDARY_WINDOW = 16;

/**
 * Takes candidates in the given (priority) order, each whole when it fits, else truncated when at least
 * {@link MIN_KEPT_CHARS} of it fit, else skipped. Every line is counted once with its newline, so the
 * cost of the block is the sum of its lines plus the frame; the heading is paid by the first item taken.
 */
export function selectWithinBudget<T>(options: SectionInput<T>): Chosen<T>[] {
  const { candidates, heading, budget, tokenizer } = options;
  const headingCost = tokenizer.count(`${heading}\n`);
  const chosen: Chosen<T>[] = [];
  for (const candidate of candidates) {
    const extra = chosen.length === 0 ? headingCost : 0;
    const available = budget.remaining - extra;
    if (available <= 0) {
      if (chosen.length === 0) break;
      continue;
    }
    const line = candidate.head + candidate.body;
    const cost = tokenizer.count(`${line}\n`);
    const fitted =
      cost <= available
        ? { line, cost, truncated: false }
        : truncateLine(candidate.head, candidate.body, available, tokenizer);
    if (!fitted) continue;
    const { item, key, rank } = candidate;
    chosen.push({ item, key, rank, line: fitted.line, truncated: fitted.truncated });
    budget.remaining -= fitted.cost + extra;
  }
  return chosen;
}

/**
 * The longest `head + prefix(body) + "…"` whose line costs at most `available` tokens, found by binary
 * search over the prefix length (cut on a code point, preferably a word boundary); null when not even
 * {@link MIN_KEPT_CHARS} characters fit.
 */
export function truncateLine(
  head: string,
  body: string,
  available: number,
  tokenizer: Tokenizer,
): { line: string; cost: number; truncated: true } | null {
  const attempt = (end: number) => {
    const line = `${head}${sliceAtCodePoint(body, end).trimEnd()}…`;
    return { line, cost: tokenizer.count(`${line}\n`), truncated: true as const };
  };
  let hi = Math.min(body.length - 1, available * MAX_CHARS_PER_TOKEN);
  if (hi < MIN_KEPT_CHARS) return null;
  let lo = MIN_KEPT_CHARS;
  let best = attempt(lo);
  if (best.cost > available) return null;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const next = attempt(mid);
    if (next.cost <= available) {
      lo = mid;
      best = next;
    } else {
      hi = mid - 1;
    }
  }
  const space = body[lo] === " " ? lo : body.lastIndexOf(" ", lo);
  if (space >= MIN_KEPT_CHARS && space < lo && lo - space <= WORD_BOUNDARY_WINDOW) {
    const atWord = attempt(space);
    if (atWord.cost <= available) return atWord;
  }
  return best;
}
