/**
 * Rules for the people and animals in the user's life: relatives ("my sister is a biologist"), partner and
 * marital status, children, pets. Friends and colleagues are deliberately left out: "my friend lives in
 * Paris" says nothing durable about the user.
 */
import { NOT_NAMES, NUMBER_WORDS, PETS, RELATIVES } from "./fact-lexicon.js";
import type { FactDraft, FactRule } from "./fact-patterns.js";
import { job, organisation } from "./fact-patterns-work.js";
import { cutValue, listItems, personName, properName } from "./fact-values.js";

const alternatives = (words: readonly string[]) => [...words].sort((a, b) => b.length - a.length).join("|");
const RELATIVE = alternatives(Object.keys(RELATIVES));
const PET = alternatives(Object.keys(PETS));
const MODIFIER = "(?:(?:older|younger|big|little|baby|twin|eldest|oldest|youngest|elder|half)[- ]?)?";
const COUNT = `(?:${Object.keys(NUMBER_WORDS).join("|")}|\\d+|some)`;

/** What a relative's clause says after "my sister (Anna)": occupation, home, employer, age. */
function relativeFacts(rest: string, rel: string, about: string): FactDraft[] {
  const slot = (name: string) => `${rel}.${name}`;
  const isJob = /^(?:is|has become|became|works as) (?:a |an )?(.+)$/.exec(rest);
  const work = isJob?.[1] ? job(isJob[1], 0.85, rel) : null;
  if (work) return work.map((d) => ({ ...d, about }));
  const lives = /^(?:lives|live|is living|has been living|is based|has lived) in (.+)$/.exec(rest);
  const moved = /^(?:moved|has moved|relocated|has relocated) to (.+)$/.exec(rest);
  const home = properName(lives?.[1] ?? moved?.[1] ?? "");
  if (home) {
    const says = `${lives ? "lives in" : "moved to"} ${home.value}`;
    return [{ slot: slot("lives_in"), value: home.value, says, confidence: 0.8, about }];
  }
  const works = /^(?:works|work|is working) (?:at|for) (.+)$/.exec(rest);
  const org = works?.[1] ? organisation(works[1]) : null;
  if (org)
    return [
      { slot: slot("works_at"), value: org.value, says: `works at ${org.value}`, confidence: 0.8, about },
    ];
  const age = /^is (\d{1,3})(?: years old)?(?=$|[,.!]|\s+(?:and|now|this)\b)/.exec(rest);
  if (age?.[1])
    return [{ slot: slot("age"), value: age[1], says: `is ${age[1]} years old`, confidence: 0.85, about }];
  return [];
}

/** "my sister Anna" names a relative; a partner or child name has its own slot. */
function nameFact(rel: string, about: string, name: string, confidence: number): FactDraft {
  const slot = rel === "partner" ? "partner" : rel === "son" || rel === "daughter" ? "child" : `${rel}.name`;
  return { slot, value: name, says: `is named ${name}`, confidence, about };
}

function relativeClause(m: RegExpExecArray): FactDraft[] {
  const about = m[1] ?? "";
  const rel = RELATIVES[about] ?? about;
  const drafts = relativeFacts(m[3] ?? "", rel, about);
  const name = m[2] ? personName(m[2]) : null;
  // "my dad, Tom and I" lists people; it does not name the father.
  if (name && !/^and\b/.test(m[3] ?? "")) drafts.push(nameFact(rel, about, name.value, 0.8));
  return drafts;
}

/** After "I am engaged" a date is not expected ("engaged in a project"); after "we got engaged" it is. */
const STATUS_END = /^(?:$|[,.!]|\s+(?:now|and|for|since|with|recently)\b)/;
const EVENT_END = /^(?:$|[,.!]|\s+(?:now|and|for|since|with|recently|last|this|in|on|at)\b)/;

function marital(status: string, rest: string, event: boolean): FactDraft[] | null {
  const confidence = 0.85;
  // "married to Ahmed"; "married with Ahmed", as learners of English say it.
  const partner = /^ (?:to|with) (.+)$/.exec(rest);
  const name = partner?.[1] ? personName(partner[1]) : null;
  if (!name && !(event ? EVENT_END : STATUS_END).test(rest)) return null;
  const drafts: FactDraft[] = [{ slot: "marital_status", value: status, says: `is ${status}`, confidence }];
  if (name)
    drafts.push({ slot: "partner", value: name.value, says: `is ${status} to ${name.value}`, confidence });
  return drafts;
}

const PET_ITEM = new RegExp(`^(${COUNT}) (${PET})(?:s|es)?(?:,? (?:named|called) (.+))?$`, "i");

const PET_NAMES = /,? (?:named|called) (\p{Lu}[\p{L}'-]*(?:(?:, | and |, and )\p{Lu}[\p{L}'-]*)+)$/u;

function ownedPets(tail: string, confidence: number): FactDraft[] {
  const body = cutValue(tail, /\s(?:at|in|for|since|who|that|which|from)\b/);
  // "two cats named Luna and Leo": the names are one list, not two pets.
  const names = PET_NAMES.exec(body);
  const items = listItems(names ? body.slice(0, names.index) : body);
  const drafts: FactDraft[] = [];
  for (const item of items) {
    const m = PET_ITEM.exec(item);
    const kind = PETS[m?.[2]?.toLowerCase() ?? ""];
    if (!m || !kind) continue;
    const name = names && items.length === 1 ? names[1] : m[3] ? petNameAt(m[3])?.value : undefined;
    const says = `has ${item.replace(/,? (?:named|called) .+$/, "")}`;
    drafts.push({ slot: "pet", value: kind, says: name ? `${says} named ${name}` : says, confidence });
    for (const each of name ? listItems(name) : []) drafts.push(petName(m[2] as string, each, confidence));
  }
  return drafts;
}

/** A pet's name as a fact of its own ("The user's beagle is named Waffles"): several pets, several names. */
function petName(animal: string, name: string, confidence: number, negated = false): FactDraft {
  const about = animal.toLowerCase();
  return { slot: "pet.name", value: name, says: `is named ${name}`, about, confidence, negated };
}

const PET_GONE =
  /\b(?:died|passed away|passed|ran away|is gone|was put down|put down|lost|gave away|rehomed|gave up)\b/;
const PET_PAST = /\b(?:miss|missed|had|used to|late|old|former|childhood|was|were)\b/;

/**
 * A pet's name at the start of what follows "my cat": one capitalised word, whatever comes after it ("my
 * parrot Kiwi can say hello"), unlike a person's name, which must end its phrase.
 */
function petNameAt(tail: string): { value: string } | null {
  const word = /^(\p{Lu}[\p{Ll}'-]+)(?=$|[\s,.!?;:)])/u.exec(tail.trim())?.[1];
  return word && !NOT_NAMES.has(word.toLowerCase()) && !(word.toLowerCase() in RELATIVES)
    ? { value: word }
    : null;
}

function mentionedPet(m: RegExpExecArray, clause: string): FactDraft[] | null {
  const kind = PETS[m[1]?.toLowerCase() ?? ""];
  if (!kind) return null;
  const name = petNameAt(m[2] ?? m[3] ?? m[4] ?? "");
  const says = `has a ${m[1]}${name ? ` named ${name.value}` : ""}`;
  const gone = PET_GONE.test(clause);
  if (!gone && PET_PAST.test(clause)) return null;
  const pet: FactDraft = gone
    ? { slot: "pet", value: kind, says, confidence: 0.7, negated: true }
    : { slot: "pet", value: kind, says, confidence: name ? 0.7 : 0.6 };
  return name ? [pet, petName(m[1] as string, name.value, pet.confidence, gone)] : [pet];
}

const PET_MENTION = new RegExp(
  `\\b(?:my|our) (${PET})(?:'s name is (.+)| is (?:named|called) (.+)|,? (\\p{Lu}.*))?(?=$|[,.!;:)]|\\s+(?:is|was|and|who|has|had|loves|likes|gets|got|keeps|always|just|really|to|at|in|on|for|from|with|so|too|a|the|\\w+s|\\w+ed)\\b)`,
  "u",
);

export const FAMILY_RULES: readonly FactRule[] = [
  {
    re: new RegExp(`^(?:my|our) ${MODIFIER}(${RELATIVE})(?:,? (\\p{Lu}[\\p{Ll}'-]+),?)?(?: (.+))?$`, "u"),
    build: relativeClause,
  },
  {
    re: new RegExp(`^(?:my|our) ${MODIFIER}(${RELATIVE})(?:'s name is| is named| is called) (.+)$`, "u"),
    build: (m) => {
      const about = m[1] ?? "";
      const name = personName(m[2] ?? "");
      return name ? nameFact(RELATIVES[about] ?? about, about, name.value, 0.9) : null;
    },
  },
  {
    re: new RegExp(
      `^(?:I|we) have (?:a|an|one) ${MODIFIER}(${RELATIVE})(?:,? (?:named|called))?,? ?(.*)$`,
      "u",
    ),
    build: (m) => {
      const about = m[1] ?? "";
      const rel = RELATIVES[about] ?? about;
      const name = personName(m[2] ?? "");
      if (name) return nameFact(rel, about, name.value, 0.85);
      if (rel === "son" || rel === "daughter")
        return { slot: "child", value: about, says: `has a ${about}`, confidence: 0.8 };
      return null;
    },
  },
  {
    re: /^(?:I|we) have (\w+) (kids|children|sons|daughters|boys|girls)\b/,
    build: (m) => {
      const count = NUMBER_WORDS[m[1] ?? ""] ?? Number(m[1]);
      if (!Number.isInteger(count) || count < 2 || count > 20) return null;
      return { slot: "children", value: String(count), says: `has ${m[1]} ${m[2]}`, confidence: 0.85 };
    },
  },
  {
    re: /^I am a (?:mom|mother|dad|father|parent) of (\w+)\b/,
    build: (m) => {
      const count = NUMBER_WORDS[m[1] ?? ""] ?? Number(m[1]);
      if (!Number.isInteger(count) || count < 1 || count > 20) return null;
      return { slot: "children", value: String(count), says: `has ${m[1]} children`, confidence: 0.8 };
    },
  },
  {
    re: /^(?:I am|we are) (married|single|divorced|engaged|widowed|separated)\b(.*)$/,
    build: (m) => marital(m[1] ?? "", m[2] ?? "", false),
  },
  {
    re: /^(?:I|we) (?:got|have gotten|have got) (married|divorced|engaged)\b(.*)$/,
    build: (m) => marital(m[1] ?? "", m[2] ?? "", true),
  },
  {
    // Not a spouse lost or parted from ("my late wife", "my wife passed away", "my husband and I separated"):
    // the parsed family reader reads those.
    re: /^(?!.*\b(?:late|lost|losing|passed away|passed on|died|separated|divorced|split up)\b).*\b(?:my|our) (husband|wife)\b/,
    build: () => ({ slot: "marital_status", value: "married", says: "is married", confidence: 0.6 }),
  },
  {
    re: /^(?:I|we) (have got|have|got|adopted|rescued|own|bought) (.+)$/,
    build: (m) => ownedPets(m[2] ?? "", m[1]?.startsWith("have") || m[1] === "own" ? 0.9 : 0.85),
  },
  { re: PET_MENTION, build: (m) => mentionedPet(m, m.input) },
];
