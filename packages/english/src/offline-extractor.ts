import { extractFacts } from "./extract-facts.js";
import { loadParser } from "./parse/parser.js";
import { parseCorrection } from "./parse-correction.js";
import type { EnglishExtractor, ExtractedFact } from "./port.js";

/**
 * Parsing time between two turns of the event loop. A tier job reads a few hundred turns at a time, about
 * a millisecond each: read in one go, they would hold up every search and request of the process.
 */
const SLICE_MS = 10;

/** A turn of the event loop: the check phase where there is one (Node.js), else the next timer. */
const nextTurn = () =>
  new Promise<void>((resolve) =>
    typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0),
  );

/** The default extractor: rules for first-person facts and corrections, no model and no network. */
export const offlineExtractor: EnglishExtractor = {
  name: "offline",
  async persona(messages) {
    const nlp = await loadParser();
    const facts: ExtractedFact[] = [];
    let since = performance.now();
    for (const m of messages) {
      facts.push(...extractFacts([{ id: m.id, role: m.role ?? "user", text: m.text, name: m.name }], nlp));
      if (performance.now() - since > SLICE_MS) {
        await nextTurn();
        since = performance.now();
      }
    }
    return facts;
  },
  async feedback(text, evidenceId) {
    return parseCorrection(text, evidenceId, await loadParser());
  },
};
