/**
 * Rules for the user's hobbies and what they are learning ("I play guitar", "I've been learning German").
 */
import { HOBBIES, SKILL_VERBS } from "./fact-lexicon.js";
import type { FactDraft, FactRule } from "./fact-patterns.js";
import { cutList, cutValue, phrase, phrases } from "./fact-values.js";

const hobby = (value: string, says: string, confidence: number): FactDraft => ({
  slot: "hobby",
  value,
  says,
  confidence,
});
const HOBBY_END =
  /(?:^|\s)(?:(?:in|with|at|on|for|every|a lot|sometimes|since|professionally|competitively|together|regularly|twice|once|last|this|next|yesterday|today|tonight|ago|about|around|here|there|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple|several)\b|\d)/;

/** The activities named at the start of a tail, all or nothing ("guitar and the piano" -> two). */
function activities(tail: string): string[] {
  return phrases(cutList(tail, HOBBY_END), 3).map((item) => item.replace(/^the /, ""));
}

const played = (tail: string, confidence: number): FactDraft[] =>
  activities(tail).map((item) => hobby(`playing ${item}`, `plays ${item}`, confidence));

function learning(tail: string): FactDraft[] {
  const skill = /^(?:how )?to (\w+)(.*)$/.exec(tail);
  if (!skill) return activities(tail).map((item) => hobby(`learning ${item}`, `is learning ${item}`, 0.75));
  if (!SKILL_VERBS.has(skill[1] ?? "")) return [];
  const value = phrase(cutValue(`${skill[1]}${skill[2]}`, HOBBY_END), 4);
  return value ? [hobby(`learning to ${value}`, `is learning to ${value}`, 0.75)] : [];
}

/** "I do yoga", "I started running": accepted only for known activities. */
function knownActivity(tail: string, verb: string, confidence: number): FactDraft | null {
  const value = cutValue(tail, HOBBY_END);
  const first = value.split(" ")[0]?.toLowerCase() ?? "";
  if (!HOBBIES.has(first) || !phrase(value, 3)) return null;
  return hobby(value.toLowerCase(), `${verb} ${value.toLowerCase()}`, confidence);
}

const NOT_AN_OUTING = new Set(
  "going nothing something everything anything morning evening thing during bring".split(" "),
);

export const HOBBY_RULES: readonly FactRule[] = [
  {
    re: /^(?:I|we) (?:play|have been playing|have played|started playing|learned to play|am learning to play|have been learning to play) (.+)$/,
    build: (m) => played(m[1] ?? "", 0.75),
  },
  {
    re: /^I (?:am learning|have been learning|started learning|began learning|have started learning) (.+)$/,
    build: (m) => learning(m[1] ?? ""),
  },
  {
    re: /^I (?:go|often go|usually go|regularly go) (\w+ing)\b/,
    build: (m) => (NOT_AN_OUTING.has(m[1] ?? "") ? null : hobby(m[1] ?? "", `goes ${m[1]}`, 0.7)),
  },
  {
    re: /^I (?:took up|have taken up) (.+)$/,
    build: (m) => activities(m[1] ?? "").map((item) => hobby(item, `took up ${item}`, 0.75)),
  },
  {
    re: /^I (?:started|have started|began|picked up|have picked up|got into|have gotten into) (.+)$/,
    build: (m) => knownActivity(m[1] ?? "", "started", 0.7),
  },
  { re: /^I (?:practice|practise|do) (.+)$/, build: (m) => knownActivity(m[1] ?? "", "does", 0.75) },
  {
    re: /^my (?:favou?rite )?hobb(?:y|ies) (?:is|are|include|includes) (.+)$/,
    build: (m) => phrases(cutValue(m[1] ?? ""), 3).map((item) => hobby(item, `enjoys ${item}`, 0.85)),
  },
];
