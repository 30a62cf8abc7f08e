import { createRequire } from "node:module";
import type { CacheSet } from "../model/index.js";

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

function countO200k(text: string): number {
  countTokens ??= (require("gpt-tokenizer") as typeof import("gpt-tokenizer")).countTokens;
  return countTokens(text, { disallowedSpecial: new Set() });
}

/**
 * The tokenizer, with the counts of recently counted texts kept in `caches`: each context assembly counts
 * the same profile lines, facts and recent turns again, and BPE over them was a visible share of a retrieval.
 */
export function countingWith(tokenizer: Tokenizer, caches: CacheSet): Tokenizer {
  const counts = caches.cache<string, number>(`token counts ${tokenizer.id}`, 4096);
  return {
    id: tokenizer.id,
    count: (text) => counts.memo(text, () => tokenizer.count(text)),
    ...(tokenizer.additive !== undefined ? { additive: tokenizer.additive } : {}),
  };
}

export const defaultTokenizer: Tokenizer = {
  id: "o200k_base",
  count: countO200k,
  // o200k's pre-tokenizer ends a pre-token at a newline: a line's tokens never merge with the next line's
  // (rendered lines never start with whitespace or "/"). Checked against whole-block counts in the tests.
  additive: true,
};
