/**
 * Facts about the user read from a parsed message: each clause that states something is parsed once by
 * compromise, and each slot family reads the parse (tags, lemmas, names, places) instead of raw text.
 */
import { OCCUPATIONS } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import { OWNS_CUE, PET_WORDS, readOwns, readPets } from "./belongings.js";
import { readChanges } from "./changes.js";
import { type Clause, statementClauses } from "./clauses.js";
import { FAMILY_CUE, lastRelative, readFamily } from "./family.js";
import { HEALTH_CUE, readAllergy, readDiet, readHealth } from "./health.js";
import { HOBBY_CUE, readHobbies } from "./hobbies.js";
import { ORIGIN_CUE, readAge, readHome, readName, readOrigin } from "./identity.js";
import { KIN } from "./lexicon.js";
import { asName } from "./match.js";
import type { Nlp } from "./parser.js";
import { PLAN_CUES, readPlans } from "./plans.js";
import { readPreferences } from "./preferences.js";
import { readStudies } from "./studies.js";
import { readWork } from "./work.js";

/** A self-introduction: "my name is", "Sofia here", "call me", "I'm Priya". */
const NAME_CUE = {
  test: (text: string) =>
    /\b(?:name|nmae|names|here|call|go by|goes by)\b/i.test(text) ||
    /\b(?:[Ii] am|[Ii]m|[Ii]'m)\s+(?:(?:[Dd]r|[Mm]rs?|[Mm]s|[Pp]rof)\.?\s+)?\p{Lu}/u.test(text),
};
/** An age: a number near "I'm", "old", "turned", "aged", or a forum introduction ("28F"). */
const AGE_CUE =
  /\b(?:old|aged|turn\w*|hit|reached|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|\w+teen)\b|\b(?:i am|im|i'm)\b[^.]{0,30}\d|^\s*\d{2}\s?(?:f|m|nb)\b|^\s*\d{2}(?:\s*,|\s+(?:and|here)\b)|\d+\s*(?:yo|y\/o|yrs?)\b|\bage\b|\bcelebrated my\b|\byears (?:young|of age)\b|\bsomeone who(?:'s| is)\s+\w|^\s*(?:at|being)\s+[\w-]+,?\s+(?:i|im|i'm)\b|^\s*being\s+\d+\s+(?:and|but|is|has)\b/i;

/** Work: its words, or a job said without its article as learners of English say it ("I am accountant"). */
const WORK_WORDS =
  /\b(?:work\w*|job|jobs|employ\w*|serv\w*|hired|qualified|trained|retrained|left|quit|promot\w*|teach|lecture|tutor|coach|nurse|preach|used to be|freelanc\w*|become|became|role|position|career)\b|\b(?:start\w*|join\w*) (?:as|at|for|with)\b|\bjoined [A-Z]|\bbeen (?:nursing|teaching|lecturing|tutoring|bartending|freelancing|nannying|waitressing|plumbing|farming)\b|\bas an?\b|\b(?:am|was|im)\s+(?:\w+\s+)?an?\b|\bno longer at\b|\b(?:i am|i'm|im) (?:now )?at [A-Z]|\b(?:years|months) (?:at|with)\b|\bdrive (?:a |an )?(?:taxi|cab|bus|buses|lorry|lorries|truck|trucks|hgv)\b|\bcut hair\b|\bdo nails\b|\b(?:drive|drives|deliver|delivers|ride|rides) for\b|\b(?:called|named) [A-Z]/i;
const WORK_CUE = {
  test: (text: string) => {
    if (WORK_WORDS.test(text)) return true;
    const bare = /\b(?:i|we) (?:am|was|are|were) (\p{L}+)/iu.exec(text);
    return bare !== null && OCCUPATIONS.has((bare[1] ?? "").toLowerCase());
  },
};

/**
 * Each reader with the words a clause needs for it to apply: a cheap test that spares the parse (about a
 * millisecond a clause) where no reader could find anything.
 */
const SLOT_READERS: ReadonlyArray<
  readonly [{ test(text: string): boolean }, (clause: Clause) => FactDraft[]]
> = [
  [NAME_CUE, readName],
  [AGE_CUE, readAge],
  [ORIGIN_CUE, readOrigin],
  [
    /\b(?:liv\w*|lving|resid\w*|based|settled|moved|moving|relocated|home|rent\w*|flat|place|house|apartment|condo|bought|back in|been in|now in|new to|years in|months in|here in|commut\w*|greetings|writing from|hello from|hi from)\b|\b(?:am|are|was|were|im)\s+(?:\w+\s+)?in\b|-based/i,
    readHome,
  ],
  [HEALTH_CUE, readHealth],
  [/allerg|alerg|intoler/i, readAllergy],
  [/veg|pesc|flexi|keto|paleo|carnivore|halal|kosher|plant|free|carb|fodmap|meat/i, readDiet],
  [OWNS_CUE, readOwns],
  [PET_WORDS, readPets],
  [WORK_CUE, readWork],
  [
    /stud|major|degree|student|sophomore|freshman|fresher|undergrad|postgrad|graduat|\bgrad\b|phd|attend|enrol|school|\buni\b|university|college|course|class|apprentice|master|bachelor|\bbsc\b|\bmsc\b|\bmba\b|reading|\b(?:year|yr) (?:at|of)\b|diploma|doctorate|a-levels|gcses|bootcamp|programme|transferr|switched from|moved from|\bat [A-Z][\w'-]*(?: [A-Z][\w'-]*)*,? (?:doing|reading|studying)\b/i,
    readStudies,
  ],
  [PLAN_CUES, readPlans],
  [
    /\b(?:lov(?:e|es|ed|ing)|ador\w*|lik(?:e|ed|es|ing)|enjoy\w*|dig|fan|fans|can ?not stand|cant stand|hat(?:e|es|ed)|loath\w*|detest|dislike|into|keen|obsess\w*|(?:mad|crazy|nuts|wild|passionate) about|enough of|sucker|beats|compares|pleasure|weakness|obsession|favou?rite|fave|my thing|my jam|gross|disgusting|vile|overrated|worst|awful|horrible|rank|grim|supporter|lover|addict|fanatic|buff|enthusiast|nerd|geek|soft spot|partial|live for|loving|digging|could (?:listen|watch|eat|read|play)|bear|abide|tolerate|freak\w*|creep\w*|find|life|greatest|best|for me|cup of tea|person|beat|better than|nothing like|fond|fondness|appreciation|passion|affection|admirer|joy|delight|satisfaction)\b/i,
    readPreferences,
  ],
  [/\bfrom\b.+\bto\b/i, readChanges],
  [FAMILY_CUE, readFamily],
  [HOBBY_CUE, readHobbies],
];

/**
 * A clause not worth parsing: no first-person word, and it opens on someone or something else ("That
 * sounds amazing", "Thanks Caroline!", "You should try it", "It was so much fun"). Everything else is
 * parsed: chat drops its subject ("been vegan for years") in too many ways to list.
 */
const FIRST_PERSON = /\b(?:i|i'm|im|i've|ive|i'd|me|my|mine|myself|we|we're|we've|us|our|ours)\b/i;
const ELSEWHERE =
  /^\s*(?:that|this|these|those|it|it's|its|there|there's|what|what's|how|why|when|where|who|which|you|you're|your|yours|thanks|thank|wow|haha+|lol|omg|oh|yeah|yes|sure|sounds|looks|seems|great|awesome|amazing|cool|nice|good|congrats|congratulations|hope|hey|hi|hello|ok|okay|he|she|they|he's|she's|they're|his|her|their)\b/i;
const MAY_STATE = { test: (text: string) => FIRST_PERSON.test(text) || !ELSEWHERE.test(text) };

/** The facts a user's message states about them, one draft per slot and value. */
export function parsedFacts(nlp: Nlp, text: string): FactDraft[] {
  const drafts: FactDraft[] = [];
  // A clause repeated in one message (a pasted log, a signature) is read once: its facts are in already.
  const seen = new Set<string>();
  let mentioned: string | null = null;
  for (const clause of statementClauses(nlp, text)) {
    const key = `${clause.wanted}\u0000${clause.sentence}\u0000${clause.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const found: FactDraft[] = [];
    if (clause.wanted) found.push(...(PLAN_CUES.test(clause.text) ? readPlans(clause) : []));
    else if (MAY_STATE.test(clause.text))
      for (const [cue, read] of SLOT_READERS) if (cue.test(clause.text)) found.push(...read(clause));
    found.push(...relativeByPronoun(nlp, clause, found, drafts, mentioned));
    mentioned = lastRelative(clause.text) ?? mentioned;
    drafts.push(...found, ...contrasts(clause.text, found), ...petNamedLater(clause, drafts, found));
  }
  return saidWrongly(text, drafts);
}

/** "I said I work at Barclays, I meant HSBC": what was said, and what was meant instead. */
const MEANT =
  /\bI (?:said|wrote|typed|put)\s+(.+?)[,;.]?\s+(?:but\s+|and\s+)?I (?:meant|mean)\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)/u;
/** "my mum's name is Lourdes, I wrote Lorena by mistake": a value said wrongly before. */
const WRONGLY =
  /\bI (?:said|wrote|typed|put)\s+(\p{Lu}[\p{L}'-]*)\s+(?:by mistake|by accident|wrongly|in error|instead)\b/u;

/** The message's own corrections of what it says: the value meant replaces the value said. */
function saidWrongly(text: string, drafts: FactDraft[]): FactDraft[] {
  const meant = MEANT.exec(text);
  if (meant?.[1] && meant[2]) {
    const said = drafts.findLast((d) => !d.negated && meant[1]?.includes(d.value));
    if (said) {
      const right = { ...said, value: meant[2], says: said.says.replace(said.value, meant[2]) };
      return [...drafts.filter((d) => d !== said), right, setAgainst(right, said.value)];
    }
  }
  const wrong = WRONGLY.exec(text)?.[1];
  const named = drafts.findLast((d) => !d.negated && /^\p{Lu}/u.test(d.value) && d.value !== wrong);
  return wrong && named ? [...drafts, setAgainst(named, wrong)] : drafts;
}

const PRONOUN_NAMES =
  /^(?:and\s+)?(?:(?:she|he|it|they)(?:'s| is| are)? (?:called|named)|(?:her|his|its|their) names? (?:is|are|'s)|(?:i |we )?(?:named|called) (?:her|him|it|them))\s+(\p{Lu}[\p{L}'-]*|[\p{Ll}'-]+$)/u;

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

/** Relatives a pronoun can stand for, by the pronoun. */
const SHE =
  /^(?:sister|mother|daughter|grandmother|aunt|niece|stepmother|stepsister|stepdaughter|sister-in-law|mother-in-law|partner|cousin)$/;
const HE =
  /^(?:brother|father|son|grandfather|uncle|nephew|stepfather|stepbrother|stepson|brother-in-law|father-in-law|partner|cousin)$/;
const PRONOUN_SAYS =
  /(?:^|,\s*|;\s*|\band\s+)((?:she|he)(?:'s| is| was| works| worked| used to| lives| moved| just| recently| now)\b|(?:his|her) name is\b)/gi;

/**
 * "my sister is Jo, she's the one who's a midwife", "my brother lives in Leeds, he's a chef": what a
 * pronoun says of the relative mentioned just before it, read as if the relative were named again.
 */
function relativeByPronoun(
  nlp: Nlp,
  clause: Clause,
  found: readonly FactDraft[],
  earlier: readonly FactDraft[],
  mentioned: string | null,
): FactDraft[] {
  const text = clause.text.trim();
  // Each part that opens on a pronoun: "Her name is Priya, she is a vet" says two things.
  const starts = [...text.matchAll(PRONOUN_SAYS)].map(
    (m) => (m.index ?? 0) + m[0].length - (m[1] ?? "").length,
  );
  if (starts.length === 0) return [];
  // The relative named in this clause, or else the one mentioned last ("my dad ... He's a plumber").
  const here = found.findLast((d) => d.about !== undefined && !d.negated);
  // "my sister is great, she's a nurse": mentioned in this clause with nothing read of her yet.
  const named = here ? null : (lastRelative(text.slice(0, starts[0])) ?? mentioned);
  const last = here ?? (named ? undefined : earlier.findLast((d) => d.about !== undefined && !d.negated));
  const about = last?.about ?? named ?? "";
  const rel = last ? (last.slot.split(".")[0] ?? "") : (KIN[about] ?? about);
  if (!about) return [];
  return starts.flatMap((start, i) => {
    const part = text.slice(start, starts[i + 1]).replace(/(?:,|;|\band)\s*$/i, "");
    const who = /^(\p{L}+)/u.exec(part)?.[1] ?? "";
    const fits = /^(?:she|her)$/i.test(who) ? SHE : HE;
    if (!fits.test(rel === "child" ? "" : rel)) return [];
    const naming = /^(?:his|her)$/i.test(who);
    const said = `my ${about}${naming ? "'s" : ""}${part.slice(who.length)}`.replace(
      /\bthe one who(?:'s| is)\s+/i,
      "",
    );
    return statementClauses(nlp, said).flatMap((again) =>
      readFamily(again).filter((d) => d.slot.startsWith(`${rel}.`) && d.slot.endsWith(".name") === naming),
    );
  });
}

/** "in June, not May", "on Friday instead of Thursday": a word of a plan set against another. */
const PLAN_CONTRAST =
  /([\p{L}\p{N}'-]+),?\s+(?:(?:and\s+)?not|instead of|rather than)\s+(?:the\s+|a\s+|an\s+|in\s+|on\s+|at\s+)?([\p{L}\p{N}'-]+)/gu;

/**
 * A plan's word set against another retracts the plan with the other word ("the wedding is in September,
 * not August" retracts the wedding in August): a plan's words are seldom said as one phrase.
 */
function planContrast(text: string, plan: FactDraft): FactDraft[] {
  const words = plan.value.split(/\s+/);
  for (const m of text.matchAll(PLAN_CONTRAST)) {
    const [, said = "", other = ""] = m;
    const i = words.findIndex((w) => w.toLowerCase() === said.toLowerCase());
    if (i < 0 || NOT_CONTRASTS.test(other) || numeric(other) !== numeric(said)) continue;
    return [
      setAgainst(
        plan,
        [...words.slice(0, i), casedAs(words[i] ?? "", other), ...words.slice(i + 1)].join(" "),
      ),
    ];
  }
  return [];
}

/** The other value in the case of the value it is set against ("Pip, not pippa" -> "Pippa"). */
const casedAs = (value: string, other: string) => (/^\p{Lu}/u.test(value) ? asName(other) : other);
/** The retraction of a value said wrongly, in the form of the value said right. */
const setAgainst = (right: FactDraft, wrong: string): FactDraft => ({
  ...right,
  value: wrong,
  says: right.says.replace(right.value, wrong),
  negated: true,
});

const numeric = (s: string) => /^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b/i.test(s);
/** Words after "not" that qualify the value instead of naming another one. */
const NOT_CONTRASTS =
  /^(?:far|long|much|many|sure|only|just|really|quite|yet|too|so|even|exactly|always|anymore|that|very|as|at|for|from|to|with|because|since|when)\b/i;

/**
 * "I'm a nurse, not a midwife", "19 not 91", "allergic to cashews, not peanuts": a value set against
 * another retracts the other, on any slot (one that holds several values keeps the rest).
 */
export function contrasts(clause: string, drafts: readonly FactDraft[]): FactDraft[] {
  const out: FactDraft[] = [];
  const text = clause.toLowerCase();
  for (const d of drafts) {
    if (d.negated) continue;
    if (d.slot === "plan") {
      out.push(...planContrast(text, d));
      continue;
    }
    const at = text.indexOf(d.value.toLowerCase());
    if (at < 0) continue;
    // The word's own ending is not the contrast: "cashew" is found in "cashews, not peanuts".
    const after = text.slice(at + d.value.length).replace(/^[\p{L}]+/u, "");
    const m =
      /^,?\s+(?:and\s+)?not\s+(?:a\s+|an\s+|the\s+|in\s+)?([\p{L}\p{N}'-]+(?:\s+[\p{L}\p{N}'-]+)?)/u.exec(
        after,
      );
    if (!m?.[1]) continue;
    // "not far from York", "two cats, not three": an adverb or a count is no other value.
    if (NOT_CONTRASTS.test(m[1]) || numeric(m[1]) !== numeric(d.value)) continue;
    const words = m[1].split(/\s+/).slice(0, d.value.split(/\s+/).length).join(" ");
    out.push(setAgainst(d, casedAs(d.value, words)));
  }
  return out;
}
