/** The user's health and diet, read from a parsed clause: conditions, allergies, intolerances, diets. */
import type { FactDraft } from "../fact-patterns.js";
import { cutList, listItems, singular } from "../fact-values.js";
import type { Clause } from "./clauses.js";
import { CONDITION_ADJECTIVES, CONDITIONS } from "./lexicon.js";
import { aboutUser, denied, type Found, find, foundAt, over } from "./match.js";

const byLength = (table: Readonly<Record<string, string>>) =>
  Object.keys(table).sort((a, b) => b.length - a.length);
const CONDITION_WORDS = byLength(CONDITIONS);
const ADJECTIVE_WORDS = byLength(CONDITION_ADJECTIVES);
// Lexicon words as literal regular-expression text ("crohn's", "type 1 diabetes").
const literal = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A clause that names a condition at all: a listed one, a condition adjective, or a medical form. */
export const HEALTH_CUE = new RegExp(
  `\\b(?:${[...CONDITION_WORDS, ...ADJECTIVE_WORDS].map(literal).join("|")})\\b|` +
    "\\b\\p{L}+(?:itis|osis|aemia|emia|algia|pathy|oma|plegia|trophy|thyroidism)\\b|" +
    "\\b(?:disease|disorder|syndrome|deficiency|infection|injury|cancer|condition|fracture|broken|broke|tore|fractured|torn|sprained|dislocated|ruptured|hernia|ulcer|tumou?r)\\b",
  "iu",
);

/** The first condition named in a text, if it comes within a few words ("really bad eczema on my hands"). */
function conditionIn(text: string, table: Readonly<Record<string, string>>, keys: readonly string[]) {
  const lower = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}'\s-]/gu, " ")} `;
  let best: { at: number; value: string } | null = null;
  for (const key of keys) {
    const at = lower.indexOf(` ${key} `);
    if (at >= 0 && (!best || at < best.at)) best = { at, value: table[key] as string };
  }
  return best && lower.slice(0, best.at).split(/\s+/).filter(Boolean).length <= 4 ? best.value : null;
}

/**
 * A condition the list does not hold, known by its form: a medical suffix ("tendinitis", "scoliosis",
 * "fibromyalgia") or a head word ("Lyme disease", "a broken wrist", "a torn ligament").
 */
const MEDICAL_WORD =
  /^(?:\p{L}+(?:itis|osis|aemia|emia|algia|pathy|oma|plegia|trophy|ectasis)|\p{L}+(?:thyroidism))$/u;
const MEDICAL_HEAD =
  /^(?:disease|disorder|syndrome|deficiency|infection|injury|cancer|condition|fracture|tumou?r|hernia|ulcer|sprain|tear)$/;
const INJURY_LEAD = /^(?:broken|fractured|torn|sprained|dislocated|slipped|herniated|ruptured)$/;

function medicalPhrase(text: string): string | null {
  const words: string[] = [];
  for (const w of text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean)) {
    if (
      /^(?:and|but|so|because|since|for|in|on|at|with|from|which|that|after|when|last|this|the|a|an|my|some)$/.test(
        w,
      )
    ) {
      if (words.length > 0) break;
      continue;
    }
    words.push(w);
    if (words.length > 4) return null;
  }
  const head = words.at(-1) ?? "";
  if (words.length === 0) return null;
  if (
    MEDICAL_WORD.test(head) ||
    MEDICAL_HEAD.test(head) ||
    (words.length > 1 && INJURY_LEAD.test(words[0] ?? ""))
  )
    return words.join(" ");
  return null;
}

const condition = (value: string): FactDraft => ({
  slot: "health",
  value,
  says: `has ${value}`,
  confidence: 0.8,
});

/** Parts of the body an injury is said of. */
const BODY_PARTS = new Set(
  "wrist arm leg ankle foot toe toes finger fingers hand knee hip shoulder elbow collarbone rib ribs back neck nose jaw acl achilles hamstring pelvis spine thumb heel shin".split(
    " ",
  ),
);

export function readHealth(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const triggers = [
    ...find(clause, "(have|has|had|having|hav|got|get|gets|getting) (got)?"),
    ...find(
      clause,
      "(suffer|suffers|suffered|suffering|live|lives|lived|living|deal|deals|dealt|dealing|struggle|struggles|struggled|struggling|battle|battles|battled|battling|manage|manages|managed|managing) (from|with)",
    ),
    ...find(clause, "(diagnosed|diagnosd|treated|treatment) (with|for)"),
    ...find(clause, "(recovering|recovered|recover) from"),
    // "in remission from lymphoma", "on antidepressants for depression", "an inhaler for my asthma".
    ...find(clause, "remission from"),
    ...find(
      clause,
      "(on|taking|take|takes|prescribed|medication|meds|medicine|pills|tablets|inhaler) .? .? for my?",
    ),
  ];
  for (const f of triggers) {
    const value = conditionIn(f.after, CONDITIONS, CONDITION_WORDS) ?? medicalPhrase(f.after);
    if (value && aboutUser(clause, f) && !denied(f) && !over(f)) out.push(condition(value));
  }
  for (const f of find(clause, "^(i|we) am [<c>.+]")) {
    const value = conditionIn(f.groups.c ?? "", CONDITION_ADJECTIVES, ADJECTIVE_WORDS);
    if (value && !denied(f, 0) && !/\bnot\b/i.test(f.text)) out.push(condition(value));
  }
  for (const f of find(clause, "^my [<c>.+] (is|has|keeps|been|flares|flared|acts|acting)")) {
    const value = conditionIn(f.groups.c ?? "", CONDITIONS, CONDITION_WORDS);
    if (value) out.push(condition(value));
  }
  // "because of my coeliac disease", "with my asthma": a condition the user names as theirs.
  for (const f of find(clause, "(because of|due to|with|thanks to|for) my")) {
    const value = conditionIn(f.after, CONDITIONS, CONDITION_WORDS);
    // "I can't eat bread because of my coeliac disease": the negation is the eating's, not the condition's.
    if (value && aboutUser(clause, f) && !/\bnot\s*$/i.test(f.before)) out.push(condition(value));
  }
  // "broke my wrist snowboarding", "I tore my ACL": an injury.
  const hurt =
    /\b(broke|broken|tore|torn|sprained|fractured|dislocated)\s+my\s+(?:left\s+|right\s+)?([a-z]+)\b/i.exec(
      clause.text,
    );
  if (hurt?.[1] && hurt[2] && BODY_PARTS.has(hurt[2].toLowerCase())) {
    const found = foundAt(clause, hurt.index, hurt[0]);
    const verb = hurt[1].toLowerCase();
    const done = /^(?:broke|broken)$/.test(verb) ? "broken" : /^(?:tore|torn)$/.test(verb) ? "torn" : verb;
    if (aboutUser(clause, found) && !denied(found)) out.push(condition(`${done} ${hurt[2].toLowerCase()}`));
  }
  return dedupe(out);
}

/** Food and things people react to: "allergic to penicillin", "a shellfish allergy". */
export function readAllergy(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const add = (slot: "allergy" | "intolerance", items: readonly string[]) => {
    for (const item of items) {
      // One form per allergen, as the pattern rules store it: "peanuts" and "peanut" are one fact.
      const value = singular(item.replace(/^(?:all|any|some|most)\s+/i, "").toLowerCase());
      if (!value || /\b(?:anything|everything|nothing|it|that|this|them)\b/.test(value)) continue;
      // "a mild intolerance to fructose": how bad it is, not what to.
      if (/^(?:mild|severe|slight|serious|bad|small|big|major|minor|huge|real|bit of an?)$/.test(value))
        continue;
      if (value.split(/\s+/).length > 3) continue;
      out.push({
        slot,
        value,
        says: slot === "allergy" ? `is allergic to ${value}` : `is intolerant to ${value}`,
        confidence: 0.8,
      });
    }
  };
  const tail = (f: Found) => listItems(cutList(f.after));
  // "allergy for kiwi", "allergic of nuts": as learners of English say it.
  for (const f of find(clause, "(allergic|allergy|allergies|alergic) (to|for|of|against)")) {
    if (aboutUser(clause, f) && !denied(f)) add("allergy", tail(f));
  }
  for (const f of find(clause, "[<x>#Noun+] (allergy|allergies)")) {
    if (aboutUser(clause, f) && !denied(f) && !/\b(?:my|an?)\b/i.test(f.groups.x ?? ""))
      add("allergy", [f.groups.x ?? ""]);
  }
  for (const f of find(clause, "(intolerant|intolerent|intolerance) to")) {
    if (aboutUser(clause, f) && !denied(f)) add("intolerance", tail(f));
  }
  for (const f of find(clause, "[<x>(#Noun|#Adjective)] (intolerant|intolerent|intolerance)")) {
    if (aboutUser(clause, f) && !denied(f)) add("intolerance", [f.groups.x ?? ""]);
  }
  return dedupe(out);
}

/** Diets by the words people use for them. */
const DIET_WORDS: Readonly<Record<string, string>> = {
  vegetarian: "vegetarian",
  vegitarian: "vegetarian",
  vegeterian: "vegetarian",
  veggie: "vegetarian",
  vegan: "vegan",
  "plant based": "vegan",
  "plant-based": "vegan",
  pescatarian: "pescatarian",
  pescetarian: "pescatarian",
  flexitarian: "flexitarian",
  keto: "keto",
  paleo: "paleo",
  carnivore: "carnivore",
  halal: "halal",
  kosher: "kosher",
  "gluten free": "gluten-free",
  "gluten-free": "gluten-free",
  "dairy free": "dairy-free",
  "dairy-free": "dairy-free",
  "low carb": "low-carb",
  "low-carb": "low-carb",
  "low fodmap": "low-FODMAP",
};
const DIET_KEYS = byLength(DIET_WORDS);

/** Words before a diet word that make it the user's: "I'm", "went", "on a", "been fully". */
const DIET_LEAD =
  /\b(?:i am|i'm|im|we are|been|went|gone|going|turned|became|become|(?:switched|switching|changed|changing|moved|went|gone|converted)(?: over)? (?:from|to)|from \S+(?: \S+)? to|on|on an?|on the|eat|eating|trying|doing|keep|keeping|was|were|now|be|not|no longer|so|also|plus|basically|technically)(?:\s+(?:an?|fully|strictly|mostly|full|totally))?\s*$/;
/** A diet left behind: "used to be full vegan", "keto, not paleo". */
const DIET_PAST =
  /\b(?:was|were|used to be|used to|formerly|not|no longer|(?:switched|switching|changed|changing|moved|went|gone|converted)(?: over)? from)(?:\s+(?:an?|fully|strictly|mostly|full|totally))?\s*$/;
/** "vegan food", "a vegan restaurant": a diet word before a noun is not the user's diet. */
const NOT_A_DIET_AFTER = /^\s*(?:food|restaurant|recipes?|options?|place|cafe|friends?|meals?|dish(?:es)?)\b/;

/**
 * A diet the user follows: "I'm vegan", "went fully vegan", "on a gluten-free diet", "I keep halal". In
 * "I was vegetarian for years but went vegan", the diet said last is the current one; the earlier one is
 * retracted.
 */
export function readDiet(clause: Clause): FactDraft[] {
  const text = ` ${clause.text.toLowerCase().replace(/[^\p{L}\p{N}'\s-]/gu, " ")} `;
  const said: Array<{ at: number; end: number; value: string; past: boolean }> = [];
  for (const key of DIET_KEYS) {
    for (let at = text.indexOf(` ${key} `); at >= 0; at = text.indexOf(` ${key} `, at + 1)) {
      // A shorter key inside a longer one already read ("plant based" holds no second diet).
      if (said.some((s) => at >= s.at && at < s.end)) continue;
      const lead = text.slice(Math.max(0, at - 40), at);
      const follows = text.slice(at + key.length + 1, at + key.length + 12);
      if (NOT_A_DIET_AFTER.test(follows)) continue;
      if (at > 1 && !DIET_LEAD.test(lead) && !/^\s*(?:now|diet)\b/.test(follows)) continue;
      said.push({
        at,
        end: at + key.length + 1,
        value: DIET_WORDS[key] as string,
        past: DIET_PAST.test(lead),
      });
    }
  }
  if (/\beat (?:fish|seafood) but (?:no|not) meat\b|\bno meat but (?:i eat )?fish\b/.test(text))
    said.push({ at: text.length - 1, end: text.length, value: "pescatarian", past: false });
  if (said.length === 0) return [];
  // Someone else's diet ("my coworker is vegan"), or a denial before the first one ("I'm not vegan").
  const first = Math.min(...said.map((s) => s.at));
  if (
    !aboutUser(clause, foundAt(clause, first, "")) ||
    /\b(?:not|don't|dont|never)\b/.test(text.slice(0, first + 1))
  )
    return [];
  const sorted = [...said].sort((a, b) => a.at - b.at);
  const current = sorted.filter((s) => !s.past).at(-1);
  const out: FactDraft[] = sorted
    .filter((s) => s.past && s.value !== current?.value)
    .map((s) => ({ slot: "diet", value: s.value, says: `is ${s.value}`, confidence: 0.75, negated: true }));
  if (current) out.push({ slot: "diet", value: current.value, says: `is ${current.value}`, confidence: 0.8 });
  return out;
}

function dedupe(drafts: FactDraft[]): FactDraft[] {
  const seen = new Set<string>();
  return drafts.filter((d) => {
    const key = `${d.slot}\u0000${d.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
