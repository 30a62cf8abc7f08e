/**
 * Offline parsing of natural-language corrections ("Actually my sister is a doctor now, not a biologist"):
 * what is true now, which stored values were wrong, and the words that find the affected memories.
 */
import { factsFromText } from "./extract-facts.js";

import { expandContractions, normalizeClause, splitSentences } from "./fact-clauses.js";
import { cleanValue, singular } from "./fact-values.js";
import type { Nlp } from "./parse/parser.js";
import type { Correction, ExtractedFact } from "./port.js";

/** "Forget that I like jazz", "I never said I live in Munich": everything inside is retracted. */
const FORGET =
  /^(?:please |can you |could you )?(?:forget|delete|remove|erase|disregard|ignore|drop)(?: the fact)?(?: that| about)? (.+)$|^(?:I never said|I did not say|it is not true that|it is wrong that|it is false that)(?: that)? (.+)$/i;
/** "X, not Y" / "X instead of Y" / "X rather than Y": Y is the value stated wrong. */
const NOT_INSTEAD = /(?:,|\band)\s+not\s+|\s+(?:instead of|rather than)\s+/i;

const CORRECTION_WORDS = new Set(
  "actually wrong forget correct correction true right meant never said please instead rather anymore longer now update wait sorry remember mistake delete remove note really".split(
    " ",
  ),
);

export function parseCorrection(text: string, evidenceId: string, nlp: Nlp): Correction {
  const correction: Correction = { facts: [], retract: [], keywords: [] };
  const parse = (part: string) =>
    factsFromText(part, { role: "user", evidence: evidenceId, correction: true });
  for (const sentence of splitSentences(text)) {
    const clause = normalizeClause(sentence);
    const forget = FORGET.exec(clause);
    if (forget) {
      for (const fact of parse(forget[1] ?? forget[2] ?? "")) addRetract(correction, fact.slot, fact.value);
      continue;
    }
    const split = NOT_INSTEAD.exec(clause);
    const main = split ? clause.slice(0, split.index) : clause;
    const found = parse(main);
    for (const fact of found) {
      if (fact.negated) addRetract(correction, fact.slot, fact.value);
      else correction.facts.push(fact);
    }
    const last = found.filter((fact) => !fact.negated).at(-1);
    if (split && last) {
      const wrong = wrongValue(clause.slice(split.index + split[0].length), last);
      if (wrong && wrong.toLowerCase() !== last.value.toLowerCase()) addRetract(correction, last.slot, wrong);
    }
  }
  correction.keywords = keywordsOf(text, correction, nlp);
  return correction;
}

/** The wrong value in the form of the right one: "a biologist anymore" -> "biologist" for an occupation. */
function wrongValue(tail: string, right: ExtractedFact): string | null {
  const phrase = /^[^,.;!?]+/.exec(tail)?.[0] ?? "";
  let value = cleanValue(phrase.replace(/\s+(?:anymore|any more|any longer|now|either)\s*$/i, ""));
  if (!/^the\b/i.test(right.value)) value = value.replace(/^(?:a|an|the)\s+/i, "");
  if (!value || value.split(" ").length > 6) return null;
  if (/^\p{Ll}/u.test(right.value)) value = value.toLowerCase();
  return right.slot === "allergy" ? singular(value) : value;
}

function addRetract(correction: Correction, slot: string, value: string): void {
  const exists = correction.retract.some(
    (r) => r.slot === slot && r.value.toLowerCase() === value.toLowerCase(),
  );
  if (!exists) correction.retract.push({ slot, value });
}

/** Retracted values first (they name the memories to fix), then the slot's subject, then the rest. */
function keywordsOf(text: string, correction: Correction, nlp: Nlp): string[] {
  const words = new Set<string>();
  const add = (source: string) => {
    for (const term of contentWords(nlp, expandContractions(source)))
      if (!CORRECTION_WORDS.has(term)) words.add(term);
  };
  for (const r of correction.retract) add(r.value);
  for (const slot of [...correction.retract.map((r) => r.slot), ...correction.facts.map((f) => f.slot)]) {
    const subject = slot.split(".")[0] ?? "";
    if (slot.includes(".") && subject !== "favourite" && subject !== "assistant") add(subject);
  }
  add(text);
  return [...words];
}

/** Words that carry no content: articles, pronouns and possessives, prepositions, auxiliaries, negations. */
const FUNCTION_WORDS =
  "(#Determiner|#Preposition|#Pronoun|#Conjunction|#Auxiliary|#Copula|#Negative|#QuestionWord|#Modal|#Expression|my|our|your|his|her|their|its)";

/** The distinct lower-case content words of a text, in order; single letters left by "brother's" dropped. */
function contentWords(nlp: Nlp, text: string): string[] {
  const words = nlp(text).terms().not(FUNCTION_WORDS).text("normal").toLowerCase();
  return [...new Set(words.match(/[\p{L}\p{N}]{2,}|\p{N}/gu) ?? [])];
}
