import { stemmer } from "stemmer";

/**
 * The Porter stemming algorithm (M. F. Porter, 1980, in the form of his reference C implementation),
 * which is also what SQLite's FTS5 `porter` tokenizer applies. Backends that index text themselves (Qdrant,
 * the in-memory reference) stem with it so their full-text channel matches the same word forms as SQLite.
 * The algorithm is the `stemmer` package's; this function keeps the rule of the stems already stored:
 * only lower-case ASCII words of 3 letters or more are stemmed, every other token is indexed as it is
 * (FTS5 does the same).
 */
export function porterStem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  return stemmer(word);
}

/** Folds diacritics as FTS5's `remove_diacritics 2` does ("Zürich" is found by "zurich"). */
function fold(token: string): string {
  return token.normalize("NFD").replace(/\p{M}+/gu, "");
}

/** The indexed form of a token: folded, then Porter-stemmed (FTS5's `porter unicode61` tokenizer). */
export function term(token: string): string {
  return porterStem(fold(token));
}
