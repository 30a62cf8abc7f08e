/** What the user has, read from a parsed clause: possessions, and pets with their kinds and names. */
import { NOT_PLACES, PETS, RELATIVES } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import { cutValue, listItems } from "../fact-values.js";
import type { Clause } from "./clauses.js";
import { CONDITIONS, OBJECTS } from "./lexicon.js";
import { aboutUser, asName, denied, find, foundAt } from "./match.js";

/** A clause that may name a possession: a verb of having and an owned kind of thing or a capitalised name. */
export const OWNS_CUE = {
  test: (text: string) =>
    /\b(?:sold|ditched|traded|swapped|replaced|scrapped|upgraded|got rid of)\b/i.test(text) ||
    (/\b(?:ha[sdv]e?|got|own\w*|bought|buy|dr[io]ve\w*|ri[do]e\w*|my|our)\b/i.test(text) &&
      (/\s\p{Lu}/u.test(text) ||
        /\bowner\b/i.test(text) ||
        text
          .toLowerCase()
          .split(/[^\p{L}\p{N}-]+/u)
          // Two words are one thing in the list as "hot-tub", "sofa-bed": each word and each pair is looked up.
          .some(
            (w, i, all) =>
              OBJECTS.has(w) || OBJECTS.has(w.replace(/s$/, "")) || OBJECTS.has(`${all[i - 1] ?? ""}-${w}`),
          ))),
};
/** Children by the words for them: a list after "twins" names people. */
const KIDS = /^(?:twins|triplets|kids?|children|child|sons?|daughters?|boys?|girls?|babies|baby)$/;
/** Words that end an owned thing's phrase: "a Nintendo Switch with a few games" owns a Nintendo Switch. */
const THING_END =
  /\s+(?:with|for|to|in|at|on|from|since|which|that|who|because|so|but|as|when|and (?:i|we|it|my)|i|we|they|last|this|yesterday|today|tonight|recently|the other day)\b/i;
const LEAD =
  /^(?:(?:a|an|the|my|our|one|two|three|some|first|new|brand new|old|second-hand|used|little|small|big|\d{4}|\d+)\s+)+/i;
const NOT_THINGS = new Set(
  // A degree is studied, not owned: "I have a PhD in physics", "a BA in English".
  "soul question questions idea ideas problem problems meeting meetings time job appointment cold flu feeling sense dream plan plans day week lot lots kid kids child children baby son daughter phd dphil ba bsc ma msc mba md jd degree degrees masters diploma doctorate".split(
    " ",
  ),
);

/**
 * A possession: the last word names an owned kind of thing, or the phrase names a product ("a Nikon D750");
 * where the verb says it changed hands ("sold my civic"), any short phrase that names no being.
 */
function thing(phrase: string, traded = false): string | null {
  const value = phrase
    .replace(LEAD, "")
    .replace(/[^\p{L}\p{N}\s'-]/gu, "")
    .trim();
  const words = value.split(/\s+/).filter(Boolean);
  const last = (words.at(-1) ?? "").toLowerCase();
  if (words.length === 0 || words.length > 4 || NOT_THINGS.has(last)) return null;
  // "drive to Hull", "Tuesday morning we are": a place, a time or another clause, not a thing.
  if (
    /^(?:to|from|in|on|at|into|around|back|home|past|over|through|up|down|out|for|with|by|about|like)$/i.test(
      words[0] ?? "",
    )
  )
    return null;
  if (words.some((w) => /^(?:i|we|you|he|she|they|it)$/i.test(w))) return null;
  if (
    !traded &&
    words.every((w) => /^\p{Ll}/u.test(w) || NOT_PLACES.has(w.toLowerCase())) &&
    !OBJECTS.has(last) &&
    !OBJECTS.has(last.replace(/s$/, "")) &&
    !OBJECTS.has(words.slice(-2).join("-").toLowerCase())
  )
    return null;
  const lower = value.toLowerCase();
  if (lower in CONDITIONS || last in RELATIVES || /\b(?:named|called)\b/.test(lower)) return null;
  if (words.some((w) => w.toLowerCase() in PETS || w.toLowerCase().replace(/s$/, "") in PETS)) return null;
  const joined = words.slice(-2).join("-").toLowerCase();
  if (OBJECTS.has(last) || OBJECTS.has(last.replace(/s$/, "")) || OBJECTS.has(joined)) return lower;
  // A product or brand is written with a capital inside the clause.
  return words.some((w) => /\p{Lu}/u.test(w)) || (traded && words.length <= 3) ? value : null;
}

const ITEM = String.raw`(?:(?:a|an|the|my|our|myself a|myself an)\s+)?([\p{L}\p{N}'-]+(?:\s+[\p{L}\p{N}'-]+){0,3}?)`;
const GAVE_UP = String.raw`(?:sold|ditched|gave away|traded in|traded|swapped|replaced|got rid of|scrapped|dumped)\s+(?:my|our|the)\s+(?:old\s+)?([\p{L}\p{N}'-]+(?:\s+[\p{L}\p{N}'-]+){0,2}?)`;
const TRADE_END = String.raw`(?=\s*$|\s*[,.;!?]|\s+(?:now|finally|instead|lol|haha|at last|last|this|yesterday|today|recently|and|so|but|because|which)\b)`;
/**
 * A possession that changed hands: "swapped my PS5 for a Steam Deck", "sold my civic, got a tesla now",
 * "traded in my Golf for a Polo", "upgraded to an iPhone 15": what is had now, and what is had no longer.
 */
const CHANGED_HANDS = [
  new RegExp(String.raw`\b${GAVE_UP}\s+(?:for|with)\s+${ITEM}${TRADE_END}`, "iu"),
  new RegExp(
    String.raw`\b${GAVE_UP}(?:\s*,\s*|\s+(?:and|n|so)\s+)(?:i\s+|we\s+)?(?:got|bought)\s+${ITEM}${TRADE_END}`,
    "iu",
  ),
  new RegExp(
    String.raw`\bupgraded\s+(?:from\s+(?:a|an|my|the)?\s*([\p{L}\p{N}'-]+(?:\s+[\p{L}\p{N}'-]+){0,2}?)\s+)?to\s+${ITEM}${TRADE_END}`,
    "iu",
  ),
  new RegExp(String.raw`\b${GAVE_UP}${TRADE_END}`, "iu"),
];

function traded(clause: Clause): FactDraft[] {
  for (const pattern of CHANGED_HANDS) {
    const m = pattern.exec(clause.text);
    if (!m) continue;
    const found = foundAt(clause, m.index, m[0]);
    if (!aboutUser(clause, found) || denied(found)) return [];
    const [old, now] = [m[1] ? thing(m[1], true) : null, m[2] ? thing(m[2], true) : null];
    const out: FactDraft[] = [];
    if (now) out.push({ slot: "owns", value: now, says: `owns ${now}`, confidence: 0.7 });
    if (old && old !== now)
      out.push({ slot: "owns", value: old, says: `owns ${old}`, confidence: 0.7, negated: true });
    return out;
  }
  return [];
}

export function readOwns(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const owns = (phrases: readonly string[]) => {
    // "two cats, Atlas and Juno": a list with an animal or a relative in it names beings, not products.
    const beings = phrases.some(
      (p) =>
        p
          .toLowerCase()
          .split(/\s+/)
          .some((w) => w in PETS || w.replace(/s$/, "") in PETS || w in RELATIVES || KIDS.test(w)) ||
        PET_WORDS.test(p),
    );
    for (const [i, p] of (beings ? [] : phrases).entries()) {
      // "sleep apnoea and use a CPAP machine": a later item that starts with a verb is another clause.
      const first = p.split(/\s+/)[0] ?? "";
      if (i > 0 && clause.doc.match(first).has("#Infinitive")) continue;
      // A lone first name ("I have Nate to thank") is a person, not a product.
      const lone = /^[\p{L}'-]+$/u.test(p.trim()) && clause.doc.match(p.trim()).has("#Person");
      const value = lone ? null : thing(p);
      if (value) out.push({ slot: "owns", value, says: `owns ${value}`, confidence: 0.75 });
    }
  };
  // Each item of "an old piano, a Nintendo Switch with a few games, and a sofa bed" ends at its own
  // preposition or relative word.
  const tail = (rest: string) =>
    listItems(rest.split(/[.;!?]/)[0] ?? "").map((item) => {
      const end = THING_END.exec(item);
      return cutValue(end ? item.slice(0, end.index) : item);
    });
  for (const f of find(
    clause,
    "(i|we) #Adverb? (have|has|had|hav|got|get|own|owns|owned|bought|buy|drive|drives|drove|ride|rides|rode) (got)?",
  )) {
    // "I have always loved ...": "have" is an auxiliary there, not possession.
    const next = f.after.trim().split(/\s+/)[0] ?? "";
    const auxiliary =
      next &&
      (/^(?:been|had|got)$/i.test(next) ||
        clause.doc.match(next).has("(#Adverb|#PastTense|#Participle|#Gerund|#Infinitive)"));
    // "I got my brother's name wrong": getting a thing wrong or right is no possession.
    const judged =
      /^\s*(?:[\p{L}'-]+\s+){1,4}(?:wrong|right|mixed up|muddled)(?:\s*[,.;:!?-]|\s*$|\s+(?:again|earlier|before|sorry|oops|lol))/iu.test(
        f.after,
      );
    if (
      !denied(f) &&
      !auxiliary &&
      !judged &&
      !/\b(?:want|need)\b/i.test(f.before) &&
      !/^\s*rid\b/i.test(f.after)
    )
      owns(tail(f.after));
  }
  for (const f of find(clause, "^#Adverb? (bought|got) (myself)?")) {
    // "just got accepted into UCLA", "got married": "got" before a participle is no possession.
    const next = f.after.trim().split(/\s+/)[0] ?? "";
    const passive = /^got\b/i.test(f.text.trim().split(/\s+/).at(-1) ?? "") && /^\p{Ll}+ed$/u.test(next);
    if (!denied(f) && !passive && !/^\s*rid\b/i.test(f.after)) owns(tail(f.after));
  }
  const trade = traded(clause);
  // The trade's own reading wins over the bare "got a tesla" in it.
  if (trade.length) return [...out.filter((d) => !trade.some((t) => t.value === d.value)), ...trade];
  for (const f of find(clause, "(owner|owners) of")) {
    if (aboutUser(clause, f) && !denied(f)) owns(tail(f.after));
  }
  // "my macbook pro is dying", "my current Dell XPS is six years old": a thing of the user's, said of
  // itself; "my laptop is a MacBook Air" names it by what it is (read below).
  const mine =
    /^\s*(?:my|our)\s+(?:(?:old|new|current|ancient|trusty|little|brand new|beloved)\s+)?((?:[\p{L}\p{N}-]+\s+){0,2}?[\p{L}\p{N}-]+)\s+(is|was|keeps|has|died|broke|just|won't|will not|does not|doesn't|needs|lasts|finally)\b(.*)$/iu.exec(
      clause.text,
    );
  const named = mine && /^(?:is|was)$/i.test(mine[2] ?? "") && /^\s+(?:a|an)\s/i.test(mine[3] ?? "");
  const words = (named ? "" : (mine?.[1] ?? "")).toLowerCase().split(/\s+/).filter(Boolean);
  if (
    words.some((w) => (OBJECTS.has(w) || BRANDS.has(w)) && !DWELLING.test(w)) &&
    !words.some((w) => w in PETS || w in RELATIVES)
  )
    owns([mine?.[1] ?? ""]);
  for (const f of find(clause, "^my [<k>#Noun] is (a|an) [<x>.+]")) {
    const kind = (f.groups.k ?? "").toLowerCase();
    if (OBJECTS.has(kind)) owns(tail(f.groups.x ?? ""));
  }
  return out;
}

/** Makers and models people name their things by. */
const BRANDS = new Set(
  "tesla prius corolla civic golf polo fiesta mini thinkpad xps surface pixel galaxy dyson vespa brompton".split(
    " ",
  ),
);
/** A home is said of itself all the time ("my flat is freezing") without being owned. */
const DWELLING =
  /^(?:house|home|flat|apartment|condo|bungalow|cottage|place|room|garden|bed|garage|shed|studio)$/;

/** Pet kinds and breeds beyond the shared list, mapped to the kind stored. */
const PET_KIND: Readonly<Record<string, string>> = {
  ...PETS,
  "jack russell": "dog",
  "german shepherd": "dog",
  sheperd: "dog",
  staffie: "dog",
  westie: "dog",
  cavapoo: "dog",
  "shih tzu": "dog",
  frenchie: "dog",
  "french bulldog": "dog",
  springer: "dog",
  "sausage dog": "dog",
  bengal: "cat",
  sphynx: "cat",
  "shiba inu": "dog",
  shiba: "dog",
  akita: "dog",
  samoyed: "dog",
  pomeranian: "dog",
  maltese: "dog",
  bichon: "dog",
  staffy: "dog",
  "great dane": "dog",
  mastiff: "dog",
  vizsla: "dog",
  weimaraner: "dog",
  malamute: "dog",
  sheepdog: "dog",
  mutt: "dog",
  mongrel: "dog",
  moggy: "cat",
  "russian blue": "cat",
  birman: "cat",
  "scottish fold": "cat",
  axolotl: "axolotl",
  tarantula: "tarantula",
  gerbil: "gerbil",
  cockatiel: "cockatiel",
  canary: "canary",
  lovebird: "lovebird",
  iguana: "iguana",
};
const PET_KEYS = Object.keys(PET_KIND).sort((a, b) => b.length - a.length);
const KIND = new RegExp(`\\b(${PET_KEYS.join("|")})(s|es)?\\b`, "gi");
/** Any pet kind or breed: the cue for reading pets at all. */
export const PET_WORDS = new RegExp(KIND.source, "i");
/** The user's pet: "my cat", "I have two guinea pigs", "we adopted a beagle", "a cockapoo named". */
const OWNED =
  /(?:\bmy|\bour|\bgot|\badopted|\brescued|\bbought|\bowner of an?|\b(?:mum|mom|dad|parent|mama|papa) (?:to|of) (?:an?|\d+|two|three|four)|^an?|^\w*\s*an?|[.!]\s*an?)\s+(?:\S+\s+){0,3}$/iu;
/** "We have two cats, Atlas and Juno, and a rescue lurcher": the verb of having governs the whole list. */
const HAS = /\b(?:i|we) (?:have|hav|got|have got|adopted|rescued|own|bought|took in|keep)\b/i;
const NAME_WORD = /^[\p{L}'-]+$/u;
const NOT_PET_NAMES = new Set(
  "is was has had just and but so who which that the a an he she it they always never still is's keeps loves hates gets got named called".split(
    " ",
  ),
);

export function readPets(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const text = clause.text;
  const name = (raw: string | undefined, kind: string) => {
    const word = (raw ?? "").replace(/[^\p{L}'-]/gu, "");
    if (!word || !NAME_WORD.test(word) || NOT_PET_NAMES.has(word.toLowerCase())) return;
    const value = asName(word);
    out.push({ slot: "pet.name", value, says: `has a ${kind} named ${value}`, confidence: 0.75 });
  };
  for (const m of text.matchAll(KIND)) {
    const key = (m[1] ?? "").toLowerCase();
    const kind = PET_KIND[key] ?? key;
    const before = text.slice(0, m.index);
    const found = foundAt(clause, m.index ?? 0, m[0]);
    const owner = /\b(?:my|our)\s+(?:[\p{L}'-]+\s+){0,2}(?:\p{L}+s|\p{L}+'s)\s+$/iu.test(before);
    // "I've always loved horses": a "have" that is the auxiliary of another verb owns nothing.
    const has = HAS.exec(before);
    const having = has !== null && !/\b\w+(?:ed|en)\b/i.test(before.slice(has.index + has[0].length));
    if (!(OWNED.test(before) || having) || owner || denied(found) || !userBefore(before)) continue;
    // "I have an allergy to cats", "I'm scared of dogs": what the user reacts to is not had.
    if (
      /\b(?:allerg\w*|alerg\w*|intoleran\w*|scared|afraid|frightened|terrified|phobia|phobic)\s+(?:to|of|for|by)\s+(?:\S+\s+)?$/i.test(
        before,
      )
    )
      continue;
    // "we lost our old dog Max last year": a pet that died is no longer had.
    if (/\b(?:lost|buried|put down|passed away|died|rip)\b/i.test(clause.text)) continue;
    out.push({ slot: "pet", value: kind, says: `has a ${kind}`, confidence: 0.75 });
    const after = text.slice((m.index ?? 0) + m[0].length);
    // "named Biscuit", "'s name is Chewie", "! her name is Luna", "are called Bun and Cake".
    const named =
      /^\W*(?:'s name is|s name is|name is|named|called|(?:who is |who's |she's |he's |she is |he is |it's |it is |are |were )(?:called|named)|(?:her|his|its|their) names? (?:is|are))\s+(?:(?:her|him|it|them)\s+)?([\p{L}'-]+)((?:(?:,\s+|\s+and\s+)\p{Lu}[\p{L}'-]*)*)/iu.exec(
        after,
      );
    // "my cat for 12 years, she's called Misty": named later in the clause.
    const later =
      /^[^,.;]*,\s*(?:and\s+)?(?:(?:she|he|it)(?:'s| is) (?:called|named)|(?:i |we )?(?:named|called) (?:her|him|it))\s+([\p{L}'-]+)/iu.exec(
        after,
      );
    if (!named && later) name(later[1], kind);
    // "My tortoise, Sheldon, is forty years old": a name set off by commas.
    const apposed = /^\s*,\s*(\p{Lu}[\p{L}'-]+)\s*(?:,|$)/u.exec(after);
    if (!named && !later && apposed && !m[2]) name(apposed[1], kind);
    if (named) {
      name(named[1], kind);
      // The pattern ignores case, so a name in the list must show its capital itself.
      for (const n of named[2]?.split(/,\s+|\s+and\s+/).filter((w) => /^\p{Lu}/u.test(w)) ?? [])
        name(n, kind);
    } else if (/^\s+[\p{L}'-]+/u.test(after) && !m[2]) {
      const next = /^\s+([\p{L}'-]+)/u.exec(after)?.[1] ?? "";
      const tagged = clause.doc.match(next).json()[0] as { terms?: Array<{ tags: string[] }> } | undefined;
      const tags = tagged?.terms?.[0]?.tags ?? [];
      if (tags.includes("Noun") && !tags.includes("Plural") && !tags.includes("Pronoun")) name(next, kind);
    }
    // "two cats, Atlas and Juno": the names after a plural kind.
    const list = /^,\s+((?:\p{Lu}[\p{L}'-]*)(?:(?:,\s+|\s+and\s+)\p{Lu}[\p{L}'-]*)*)/u.exec(after);
    if (list && m[2]) for (const n of list[1]?.split(/,\s+|\s+and\s+/) ?? []) name(n, kind);
    // "Dobby, my two-year-old Jack Russell": a name before the kind.
    // The clause may start at the comma: the name is then read from the sentence.
    const lead =
      /^\s*(\p{Lu}[\p{L}'-]+),?\s+my\s+(?:[\p{L}\d-]+\s+){0,3}$/u.exec(before) ??
      (/^\s*my\s+(?:[\p{L}\d-]+\s+){0,3}$/iu.test(before)
        ? new RegExp(`(?:^|[.!?]\\s+)(\\p{Lu}[\\p{L}'-]+),\\s+${before.trim()}\\s+${m[0]}`, "u").exec(
            clause.sentence,
          )
        : null);
    if (lead && !NOT_PET_NAMES.has((lead[1] ?? "").toLowerCase())) name(lead[1], kind);
    // "Luna (my cat)": the name before a parenthesis that is the aside.
    const aside = new RegExp(`(\\p{Lu}[\\p{L}'-]+)\\s*\\((?:my|our)\\s+${m[0]}\\)`, "u").exec(
      clause.sentence,
    );
    if (aside && /^\s*(?:my|our)\s*$/i.test(before)) name(aside[1], kind);
  }
  // A correction of the user's pet by "the": "sorry the dog is called Rufus not Rupert", "we renamed the
  // puppy to Maple" (a pet said with "the" is the user's only where a name is being put right).
  const correcting = /\b(?:sorry|actually|oops|correction|meant|typo|renamed|not\s+\p{Lu})/u.test(
    clause.sentence,
  );
  const corrected = [...(correcting ? text.matchAll(PET_CALLED) : []), ...text.matchAll(PET_RENAMED)];
  for (const m of corrected) {
    if (denied(foundAt(clause, m.index ?? 0, m[0])) || !userBefore(text.slice(0, m.index))) continue;
    const key = (m[1] ?? "").toLowerCase();
    const kind = PET_KIND[key] ?? key;
    out.push({ slot: "pet", value: kind, says: `has a ${kind}`, confidence: 0.7 });
    name(m[2], kind);
  }
  return out;
}

/** "the dog is called Rufus", "the cat's name is Miso": a pet named by "the" (read where a name is corrected). */
const PET_CALLED = new RegExp(
  `\\bthe\\s+(${PET_KEYS.join("|")})(?:'s| is)\\s+(?:actually\\s+)?(?:called|named|name is)\\s+(\\p{Lu}[\\p{L}'-]+)`,
  "giu",
);
/** "we renamed the puppy to Maple". */
const PET_RENAMED = new RegExp(
  `\\b(?:renamed|rename)\\s+the\\s+(${PET_KEYS.join("|")})\\s+(?:to\\s+)?(\\p{Lu}[\\p{L}'-]+)`,
  "giu",
);

/** Nobody else is the subject before the pet is mentioned ("my neighbour has three cats"). */
function userBefore(before: string): boolean {
  return !/\b(?:he|she|they|you|his|her|their|your|someone|my (?:[\p{L}'-]+\s+){0,1}(?:friend|mate|boss|coworker|colleague|neighbour|neighbor|flatmate|roommate|roomate|manager|teammate|landlord|sister|brother|mum|mom|dad|mother|father|parents|son|daughter|cousin|aunt|uncle|grandma|grandpa|partner|wife|husband|boyfriend|girlfriend)s?)\b/iu.test(
    before,
  );
}
