import { createRequire } from "node:module";

// Loaded on first count: its BPE tables take half a second to load, and most commands count nothing.
const require = createRequire(import.meta.url);
let countTokens: typeof import("gpt-tokenizer").countTokens | null = null;

/** Counts tokens for budgets. The default is OpenAI's o200k_base BPE (gpt-tokenizer), a real tokenizer. */
export interface Tokenizer {
  readonly id: string;
  count(text: string): number;
  /**
   * True when the counts of lines that each end in a newline add up to the count of their concatenation
   * (no token spans a newline). The context assembly then takes a block's size from its lines' counts
   * instead of counting the whole block again.
   */
  readonly additive?: boolean;
}

/**
 * Counts of recently counted texts. Each context assembly counts the same profile lines, facts and recent
 * turns again; BPE over them was a visible share of a retrieval. Least recently used texts go first.
 */
const CACHED_COUNTS = 4096;
const counts = new Map<string, number>();

function cachedCount(text: string): number {
  const known = counts.get(text);
  if (known !== undefined) {
    counts.delete(text);
    counts.set(text, known);
    return known;
  }
  countTokens ??= (require("gpt-tokenizer") as typeof import("gpt-tokenizer")).countTokens;
  const n = countTokens(text, { disallowedSpecial: new Set() });
  if (counts.size >= CACHED_COUNTS) counts.delete(counts.keys().next().value as string);
  counts.set(text, n);
  return n;
}

/** Forgets every remembered count (a forgotten user's texts must not stay in memory). */
export function forgetCountedTexts(): void {
  counts.clear();
}

/** How many texts' counts are remembered. */
export function countedTexts(): number {
  return counts.size;
}

export const defaultTokenizer: Tokenizer = {
  id: "o200k_base",
  count: cachedCount,
  // o200k's pre-tokenizer ends a pre-token at a newline: a line's tokens never merge with the next line's
  // (rendered lines never start with whitespace or "/"). Checked against whole-block counts in the tests.
  additive: true,
};
