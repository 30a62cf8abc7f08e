import type compromise from "compromise";

/** compromise's entry: text in, a tagged document out (part of speech, lemmas, places, names). */
export type Nlp = typeof compromise;
export type Doc = ReturnType<Nlp>;

/**
 * Loads the English parser on first use: its lexicon takes about half a second to load, which an engine
 * that never reads a user statement (a Qdrant service answering searches) should not pay at import.
 */
export async function loadParser(): Promise<Nlp> {
  return (await import("compromise")).default;
}
