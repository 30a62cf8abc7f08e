import type { ExtractedFact } from "./extract-facts.js";

/** A structured profile entry derived from facts, with the messages that support it. */
export interface ProfileTrait {
  key: string;
  value: string;
  confidence: number;
  evidence: string[];
}

/** Slots that describe the user as a person; plans, relatives' details and assistant facts are not traits. */
const TRAIT_SLOTS = new Set([
  "name",
  "age",
  "from",
  "lives_in",
  "works_as",
  "works_at",
  "studies",
  "school",
  "diet",
  "marital_status",
  "partner",
  "children",
  "child",
  "pet",
  "likes",
  "dislikes",
  "allergy",
  "intolerance",
  "hobby",
]);

/** Liking something cancels disliking it, and the other way round. */
const OPPOSITE: Readonly<Record<string, string>> = { likes: "dislikes", dislikes: "likes" };

const isTrait = (fact: ExtractedFact) =>
  fact.subject === "user" && (TRAIT_SLOTS.has(fact.slot) || fact.slot.startsWith("favourite."));

/**
 * Folds facts, in order, into the current profile: a single-valued slot keeps its latest value, a
 * retraction removes its value, and repeated evidence raises confidence (noisy-or, capped at 0.99).
 */
export function traitsFromFacts(facts: readonly ExtractedFact[]): ProfileTrait[] {
  const traits = new Map<string, ProfileTrait>();
  const id = (key: string, value: string) => `${key}\u0000${value.toLowerCase()}`;
  for (const fact of facts) {
    if (!isTrait(fact)) continue;
    const key = fact.slot;
    const here = id(key, fact.value);
    if (fact.negated) {
      traits.delete(here);
      continue;
    }
    if (fact.single) {
      for (const [k, trait] of traits) if (trait.key === key && k !== here) traits.delete(k);
    }
    const opposite = OPPOSITE[key];
    if (opposite) traits.delete(id(opposite, fact.value));
    const seen = traits.get(here);
    if (!seen) {
      traits.set(here, { key, value: fact.value, confidence: fact.confidence, evidence: [fact.evidence] });
      continue;
    }
    const confidence = Math.min(0.99, 1 - (1 - seen.confidence) * (1 - fact.confidence));
    const evidence = seen.evidence.includes(fact.evidence)
      ? seen.evidence
      : [...seen.evidence, fact.evidence];
    traits.set(here, { ...seen, confidence: Math.round(confidence * 100) / 100, evidence });
  }
  return [...traits.values()];
}
