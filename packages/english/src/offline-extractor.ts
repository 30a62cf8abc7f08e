import { extractFacts } from "./extract-facts.js";
import { loadParser } from "./parse/parser.js";
import { parseCorrection } from "./parse-correction.js";
import type { EnglishExtractor } from "./port.js";

/** The default extractor: rules for first-person facts and corrections, no model and no network. */
export const offlineExtractor: EnglishExtractor = {
  name: "offline",
  async persona(messages) {
    const nlp = await loadParser();
    return extractFacts(
      messages.map((m) => ({ id: m.id, role: m.role ?? "user", text: m.text, name: m.name })),
      nlp,
    );
  },
  async feedback(text, evidenceId) {
    return parseCorrection(text, evidenceId, await loadParser());
  },
};
