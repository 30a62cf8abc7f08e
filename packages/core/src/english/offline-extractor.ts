import type { Extractor } from "../runtime/index.js";
import { extractFacts } from "./extract-facts.js";
import { parseCorrection } from "./parse-correction.js";

/** The default extractor: rules for first-person facts and corrections, no model and no network. */
export const offlineExtractor: Extractor = {
  name: "offline",
  async persona(messages) {
    return extractFacts(
      messages.map((m) => ({ id: m.id, role: m.role ?? "user", text: m.text, name: m.name })),
    );
  },
  async feedback(text, evidenceId) {
    return parseCorrection(text, evidenceId);
  },
};
