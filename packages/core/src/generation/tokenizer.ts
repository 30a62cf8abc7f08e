import { countTokens } from "gpt-tokenizer";

/** Counts tokens for budgets. The default is OpenAI's o200k_base BPE (gpt-tokenizer), a real tokenizer. */
export interface Tokenizer {
  readonly id: string;
  count(text: string): number;
}

export const defaultTokenizer: Tokenizer = {
  id: "o200k_base",
  count: (text) => countTokens(text, { disallowedSpecial: new Set() }),
};
