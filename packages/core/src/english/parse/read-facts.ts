/**
 * Facts about the user read from a parsed message: each clause that states something is parsed once by
 * compromise, and each slot family reads the parse (tags, lemmas, names, places) instead of raw text.
 */
import { type FactDraft, isSingleSlot } from "../fact-patterns.js";
import { PET_WORDS, readOwns, readPets } from "./belongings.js";
import { type Clause, statementClauses } from "./clauses.js";
import { readFamily } from "./family.js";
import { readAllergy, readDiet, readHealth } from "./health.js";
import { readHobbies } from "./hobbies.js";
import { readAge, readHome, readName, readOrigin } from "./identity.js";
import { asName } from "./match.js";
import type { Nlp } from "./parser.js";
import { PLAN_CUES, readPlans } from "./plans.js";
import { readPreferences } from "./preferences.js";
import { readStudies, readWork } from "./work.js";

/**
 * Each reader with the words a clause needs for it to apply: a cheap test that spares the parse (about a
 * millisecond a clause) where no reader could find anything.
 */
const SLOT_READERS: ReadonlyArray<
  readonly [{ test(text: string): boolean }, (clause: Clause) => FactDraft[]]
> = [
  [/\b(?:name|nmae|names|i am|im|its|it is|here)\b/i, readName],
  [/\d|\b(?:old|aged|turn\w*|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|\w+teen)\b/i, readAge],
  [/\b(?:from|grew|raised|born|brought)\b/i, readOrigin],
  [/\b(?:liv\w*|lving|resid\w*|based|settled|moved|relocated|home|in)\b/i, readHome],
  [
    /\b(?:ha[sdv]e?|got|get|suffer\w*|liv\w*|deal\w*|struggl\w*|battl\w*|manag\w*|diagnos\w*|treat\w*|recover\w*|am|im|my)\b/i,
    readHealth,
  ],
  [/allerg|alerg|intoler/i, readAllergy],
  [/veg|pesc|flexi|keto|paleo|carnivore|halal|kosher|plant|free|carb|fodmap|meat/i, readDiet],
  [/\b(?:ha[sdv]e?|got|own\w*|bought|buy|dr[io]ve\w*|ri[do]e\w*|my)\b/i, readOwns],
  [PET_WORDS, readPets],
  [
    /\b(?:am|im|was|as|my|work\w*|job|employ\w*|serv\w*|hired|qualified|trained|start\w*|join\w*|left|quit|promot\w*|been|teach|lecture|tutor|coach|nurse|preach|used)\b/i,
    readWork,
  ],
  [
    /stud|read|major|doing|taking|start|finish|complet|pursu|degree|student|sophomore|fresh|grad|year|yr|phd|attend|enrol|\bat\b/i,
    readStudies,
  ],
  [PLAN_CUES, readPlans],
  [
    /\b(?:lov\w*|ador\w*|lik\w*|enjoy\w*|dig|fan|fans|stand|hat\w*|loath\w*|detest|dislike|into|keen|obsess\w*|about|enough|sucker|beats|compares|pleasure|weakness|obsession|favou?rite|fave|thing|jam|gross|disgusting|vile|overrated|worst|awful|horrible|rank|grim)\b/i,
    readPreferences,
  ],
  [
    /\b(?:my|our|mi|have|got|had|raising|of|am|single|married|divorced|widow\w*|divorcee|separated|engaged)\b/i,
    readFamily,
  ],
  [
    /\b(?:i|we|is|are|into|obsessed|hooked|addicted|keen|avid|big|huge|massive|passionate|amateur|serious)\b/i,
    readHobbies,
  ],
];

/** The facts a user's message states about them, one draft per slot and value. */
export function parsedFacts(nlp: Nlp, text: string): FactDraft[] {
  const drafts: FactDraft[] = [];
  for (const clause of statementClauses(nlp, text)) {
    const found: FactDraft[] = [];
    for (const [cue, read] of SLOT_READERS) if (cue.test(clause.text)) found.push(...read(clause));
    drafts.push(...found, ...contrasts(clause, found), ...petNamedLater(clause, drafts, found));
  }
  return drafts;
}

const PRONOUN_NAMES =
  /^(?:and\s+)?(?:(?:she|he|it|they)(?:'s| is| are)? (?:called|named)|(?:her|his|its|their) names? (?:is|are|'s))\s+(\p{Lu}[\p{L}'-]*|[\p{Ll}'-]+$)/u;

/** "I've had my cat for 12 years, she's called Misty": a pronoun that names the pet just mentioned. */
function petNamedLater(
  clause: Clause,
  earlier: readonly FactDraft[],
  found: readonly FactDraft[],
): FactDraft[] {
  const text = clause.text.trim();
  const m = PRONOUN_NAMES.exec(text.charAt(0).toLowerCase() + text.slice(1));
  const last = earlier.at(-1);
  if (!m?.[1] || found.length > 0 || last?.slot !== "pet" || last.negated) return [];
  const value = asName(m[1]);
  return [{ slot: "pet.name", value, says: `has a ${last.value} named ${value}`, confidence: 0.65 }];
}

/**
 * "I'm a nurse, not a midwife", "19 not 91": a value set against another retracts the other, on a slot
 * that holds one value.
 */
function contrasts(clause: Clause, drafts: readonly FactDraft[]): FactDraft[] {
  const out: FactDraft[] = [];
  const text = clause.text.toLowerCase();
  for (const d of drafts) {
    if (d.negated || !isSingleSlot(d.slot)) continue;
    const at = text.indexOf(d.value.toLowerCase());
    if (at < 0) continue;
    const after = text.slice(at + d.value.length);
    const m =
      /^,?\s+(?:and\s+)?not\s+(?:a\s+|an\s+|the\s+|in\s+)?([\p{L}\p{N}'-]+(?:\s+[\p{L}\p{N}'-]+)?)/u.exec(
        after,
      );
    if (!m?.[1]) continue;
    const words = m[1].split(/\s+/).slice(0, d.value.split(/\s+/).length).join(" ");
    const value = /^\p{Lu}/u.test(d.value) ? words.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase()) : words;
    out.push({ ...d, value, says: d.says.replace(d.value, value), negated: true });
  }
  return out;
}
