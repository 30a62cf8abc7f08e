/**
 * The offline, rule-based fact extractor: long-term persona facts from first-person statements, without a
 * language model. Precision over recall: a clause yields a fact only when a rule matches it cleanly.
 */

import {
  asRetraction,
  isHypothetical,
  isQuestion,
  isSarcastic,
  splitClauses,
  splitSentences,
} from "./fact-clauses.js";
import { HOBBIES } from "./fact-lexicon.js";
import { type FactDraft, type FactRule, IDENTITY_RULES, isSingleSlot } from "./fact-patterns.js";
import { FAMILY_RULES } from "./fact-patterns-family.js";
import { HOBBY_RULES } from "./fact-patterns-hobbies.js";
import { ASSISTANT_RULES, PLAN_RULES } from "./fact-patterns-plans.js";
import { PREFERENCE_RULES } from "./fact-patterns-preferences.js";
import { WORK_RULES } from "./fact-patterns-work.js";
import type { Nlp } from "./parse/parser.js";
import { contrasts, parsedFacts } from "./parse/read-facts.js";
import { correctTypos } from "./parse/spelling.js";
import type { ExtractedFact, FactSubject } from "./port.js";

export { isSingleSlot } from "./fact-patterns.js";

export interface ExtractInput {
  id: string;
  role: "user" | "assistant" | "system" | "tool";
  text: string;
  name?: string | null;
}

export interface FactContext {
  role: "user" | "assistant";
  evidence: string;
  /** The speaker's name, used in fact sentences instead of "The user". */
  name?: string | null;
  /** Parse as a correction: plain negation ("I am not a biologist") retracts. */
  correction?: boolean;
  /** The English parser: with it, the parsed slot readers add what the pattern rules miss. */
  nlp?: Nlp;
}

const USER_RULES: readonly FactRule[] = [
  ...IDENTITY_RULES,
  ...WORK_RULES,
  ...FAMILY_RULES,
  ...PREFERENCE_RULES,
  ...HOBBY_RULES,
  ...PLAN_RULES,
];

/** Facts stated in user and assistant messages; system and tool messages are skipped. */
export function extractFacts(messages: readonly ExtractInput[], nlp?: Nlp): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  for (const message of messages) {
    if (message.role !== "user" && message.role !== "assistant") continue;
    facts.push(
      ...factsFromText(message.text, { role: message.role, evidence: message.id, name: message.name, nlp }),
    );
  }
  return facts;
}

/**
 * A message typed in capitals ("GOT ENGAGED TO AISHA LAST NIGHT"), in lower case with "I" kept: the
 * parser reads capitals as names and acronyms.
 */
function unshouted(text: string): string {
  const letters = text.replace(/[^\p{L}]/gu, "");
  const upper = letters.replace(/[^\p{Lu}]/gu, "").length;
  if (letters.length < 12 || upper < letters.length * 0.8) return text;
  return text.toLowerCase().replace(/(^|[^\p{L}])i(?=$|[^\p{L}])/gu, "$1I");
}

/** Facts of one message, deduplicated by slot, value and negation (the most confident wins). */
export function factsFromText(raw: string, ctx: FactContext): ExtractedFact[] {
  // Typos in fact words ("i live in manchster") are mended once, for the rules and the readers alike.
  const text = ctx.nlp && ctx.role === "user" ? correctTypos(ctx.nlp, unshouted(raw)) : raw;
  const rules = ctx.role === "assistant" ? ASSISTANT_RULES : USER_RULES;
  const found = new Map<string, ExtractedFact>();
  const keep = (fact: ExtractedFact) => {
    // "Zurich, Switzerland" and "Zurich Switzerland" are one value.
    const words = fact.value
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    const key = `${fact.slot}\u0000${words}\u0000${fact.negated}`;
    const seen = found.get(key);
    if (!seen || seen.confidence < fact.confidence) found.set(key, fact);
  };
  for (const sentence of splitSentences(text)) {
    if (isQuestion(sentence) || isHypothetical(sentence, ctx.role)) continue;
    if (ctx.role === "user" && isSarcastic(sentence)) continue;
    for (const clause of splitClauses(sentence))
      for (const fact of clauseFacts(clause, rules, ctx)) keep(fact);
  }
  if (ctx.nlp && ctx.role === "user" && !ctx.correction) {
    const ruled = [...found.values()];
    for (const draft of parsedFacts(ctx.nlp, text)) {
      const fact = toFact(draft, false, ctx);
      // "I'm really into birdwatching": a taste the readers read as a pastime is kept as the pastime.
      const liked = ruled.find((r) => r.slot === "likes" && fact.slot === "hobby" && restates(r, fact));
      if (liked) {
        for (const [key, f] of found) if (f === liked) found.delete(key);
        keep(fact);
      } else if (!ruled.some((r) => restates(r, fact) || retracts(r, fact))) keep(fact);
    }
    // "I love hiking": a pastime liked is a pastime (a game or a team liked stays a taste: "I love football").
    for (const [key, f] of found)
      if (f.slot === "likes" && !f.negated && /^[a-z-]+ing$/.test(f.value) && HOBBIES.has(f.value)) {
        found.delete(key);
        keep({
          ...f,
          slot: "hobby",
          text: f.text.replace(/\b(?:likes|loves|enjoys)\b/, "enjoys"),
          single: false,
        });
      }
    // "my wife and I separated", "my wife passed away": the rules read "married" in the words "my wife" alone,
    // where the readers read the whole sentence.
    const ended = [...found.values()].some(
      (f) => f.slot === "marital_status" && !f.negated && /^(?:widowed|separated|divorced)$/.test(f.value),
    );
    // The spouse named is not a partner now either ("my wife Margaret died in 2021").
    if (ended)
      for (const [key, f] of found)
        if (!f.negated && ((f.slot === "marital_status" && f.value === "married") || f.slot === "partner"))
          found.delete(key);
  }
  return [...found.values()];
}

function clauseFacts(clause: string, rules: readonly FactRule[], ctx: FactContext): ExtractedFact[] {
  const retracted = ctx.role === "user" ? asRetraction(clause, ctx.correction === true) : null;
  if (retracted) {
    const facts = applyRules(retracted, rules).map((draft) => toFact(draft, true, ctx));
    if (facts.length > 0) return facts;
  }
  const drafts = applyRules(clause, rules);
  const contrasted = ctx.role === "user" ? contrasts(clause, drafts) : [];
  return [...drafts, ...contrasted].map((draft) => toFact(draft, false, ctx));
}

function applyRules(clause: string, rules: readonly FactRule[]): FactDraft[] {
  const drafts: FactDraft[] = [];
  for (const rule of rules) {
    const m = rule.re.exec(clause);
    const built = m ? rule.build(m) : null;
    if (built) drafts.push(...(Array.isArray(built) ? built : [built]));
  }
  return drafts;
}

function toFact(draft: FactDraft, retracted: boolean, ctx: FactContext): ExtractedFact {
  const negated = retracted || draft.negated === true;
  const subject: FactSubject = draft.slot.startsWith("assistant.") ? "assistant" : "user";
  const user = ctx.name?.trim() || "The user";
  const who = subject === "assistant" ? "The assistant" : draft.about ? `${user}'s ${draft.about}` : user;
  return {
    subject,
    slot: draft.slot,
    value: draft.value,
    text: `${who} ${negated ? noLonger(draft.says) : draft.says}.`,
    single: isSingleSlot(draft.slot),
    negated,
    confidence: Math.round(draft.confidence * 100) / 100,
    evidence: ctx.evidence,
  };
}

const contentWords = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, " ")
    .split(/\s+/)
    .filter((w) => w && !/^(?:the|a|an|my|playing|to)$/.test(w));

/**
 * A parsed fact the rules already stated in other words: the same slot, or a hobby the rules read as a
 * like, with one value's words inside the other's ("playing tennis" and "tennis", "the University of
 * Leeds" and "University of Leeds").
 */
function restates(ruled: ExtractedFact, parsed: ExtractedFact): boolean {
  if (ruled.negated !== parsed.negated) return false;
  if (ruled.slot !== parsed.slot && !(ruled.slot === "likes" && parsed.slot === "hobby")) return false;
  const a = contentWords(ruled.value);
  const b = contentWords(parsed.value);
  return a.length > 0 && b.length > 0 && (a.every((w) => b.includes(w)) || b.every((w) => a.includes(w)));
}

/** A parsed fact the rules retract in the same message: "we rehomed our dog Benji" keeps no dog. */
function retracts(ruled: ExtractedFact, parsed: ExtractedFact): boolean {
  return ruled.negated && !parsed.negated && restates({ ...ruled, negated: false }, parsed);
}

/** "is a nurse" -> "is no longer a nurse"; "lives in Munich" -> "no longer lives in Munich". */
function noLonger(says: string): string {
  return /^(?:is|are) /.test(says) ? says.replace(/^(is|are) /, "$1 no longer ") : `no longer ${says}`;
}
