import { stemmer } from "stemmer";

/**
 * The Porter stemming algorithm (M. F. Porter, 1980, in the form of his reference C implementation),
 * which is also what SQLite's FTS5 `porter` tokenizer applies. The Qdrant backend stems with it so its
 * full-text channel matches the same word forms as the SQLite backend. The algorithm is the `stemmer`
 * package's; this function keeps the rule of the stems already stored: only lower-case ASCII words of 3
 * letters or more are stemmed, every other token is indexed as it is (FTS5 does the same).
 */
export function porterStem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  return stemmer(word);
}
