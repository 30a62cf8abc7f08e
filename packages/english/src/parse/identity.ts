/** Who the user is, read from a parsed clause: name, age, where they are from and where they live. */
import { FUTURE_TIME, NOT_NAMES, NOT_PLACES } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import { wordNumber } from "../fact-values.js";
import { isHomeMove } from "./changes.js";
import type { Clause } from "./clauses.js";
import { aboutUser, asName, denied, type Found, find, foundAt, over } from "./match.js";

const PLACE = "(#Place|#ProperNoun)+";
/** What may follow a self-introduction for the words before it to be the whole name. */
const AFTER_NAME = /^\W*(?:$|btw|here|and\b|from\b|but\b|by the way|aged\b|\d)/i;

export function readName(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const says = (value: string) => ({ slot: "name", value, says: `is named ${value}`, confidence: 0.8 });
  for (const f of [
    ...find(clause, "my (name|nmae|names|name's) (is|am)? #Adverb? [<n>#ProperNoun+]"),
    ...find(clause, "(its|it is) [<n>#Noun] here"),
    ...find(clause, "^(there|all|everyone|folks|guys)? [<n>#ProperNoun] here"),
    // "Name's Dmitri", "people call me Ollie", "just call me Bea" (a nickname beside a name given is not another).
    ...find(clause, "^(name|names|name's) is? [<n>#ProperNoun+]"),
    ...(/\bname(?:'s|s| is)\b/i.test(clause.sentence)
      ? []
      : [
          ...find(
            clause,
            "(people|everyone|everybody|friends|most people|they|folks) #Adverb? (call|calls) me [<n>#ProperNoun]",
          ),
          ...find(clause, "^(just|please)? call me [<n>#ProperNoun]"),
        ]),
    ...find(clause, "(changed|changing) my name to [<n>#ProperNoun+]"),
    ...find(clause, "(i|we) #Adverb? (go|goes) by [<n>#ProperNoun]"),
  ]) {
    const value = personName(f.groups.n);
    if (value && !denied(f)) out.push(says(value));
  }
  for (const f of find(clause, "^i am #Honorific? [<n>#ProperNoun+]")) {
    const rest = f.after;
    const value = personName(f.groups.n);
    if (value && AFTER_NAME.test(rest)) out.push(says(value));
  }
  return out;
}

/** A person's name: one to three words, none of them a nationality, faith or filler. */
function personName(text = ""): string | null {
  const words = asName(text.replace(/^(?:dr|mr|mrs|ms|miss|prof)\.?\s+/i, "")).split(/\s+/);
  if (words.length === 0 || words.length > 3 || !words[0]) return null;
  if (words.some((w) => NOT_NAMES.has(w.toLowerCase()))) return null;
  return words.join(" ");
}

const UNIT_AFTER =
  /^\s*(?:%|percent|kg|kilos?|lbs?|pounds|stone|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|miles?|km|k\b|grand|am\b|pm\b|o'clock|of\b|out\b|times|x\b|-|\/|cm|m\b|feet|ft|inches)/i;

export function readAge(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const found = [
    ...find(clause, "i am [<a>#Value+] (years|yrs|yr|year)? old?"),
    ...find(clause, "^i am #ProperNoun+ [<a>#Value]"),
    ...find(clause, "[<a>#Value] (years|yrs|year|yr) old"),
    ...find(clause, "(turned|turnd|turning|hit|reached) [<a>#Value]"),
    ...find(clause, "aged [<a>#Value]"),
    // "at 55 I finally learned to swim", "being 72, I don't sleep much".
    ...find(clause, "^(at|being) [<a>#Value] (i|im)"),
    ...find(clause, "^being [<a>#Value] (and|but|is|has)"),
    // "age 34, two kids", "as someone who's 50", "at the ripe old age of 81", "thirty-three years of age".
    ...find(clause, "^age [<a>#Value]"),
    ...find(clause, "as someone (who is|who's|whos) [<a>#Value+]"),
    ...find(clause, "age of [<a>#Value] (i|im)"),
    ...find(clause, "[<a>#Value+] (years|yrs) (of age|young)"),
    ...find(clause, "celebrated my [<a>#Ordinal] birthday?"),
  ];
  // "28F here", "34M, London": the age and sex of a forum introduction.
  // "22 and still living with my parents": an age opening the clause.
  const forum =
    /^(\d{2})\s?(?:f|m|nb)\b|^(1[3-9]|[2-9]\d)(?=\s*,\s*\p{L}|\s+(?:and (?!counting|over|up|above|older|under)|here\b|yo\b|y\/o))/iu.exec(
      clause.text,
    );
  const opening = forum?.[1] ?? forum?.[2];
  if (forum && opening) found.unshift({ ...foundAt(clause, 0, forum[0]), groups: { a: opening } });
  // "I'm a 29 y/o dev".
  const short = /\b(?:i am|i'm|im)\s+(?:a\s+)?(\d{2})\s*(?:y\/o|yo)\b/i.exec(clause.text);
  if (short?.[1]) found.unshift({ ...foundAt(clause, short.index, short[0]), groups: { a: short[1] } });
  for (const f of found) {
    const years = wordNumber((f.groups.a ?? "").replace(/(?<=\d)(?:st|nd|rd|th)$/i, ""));
    const rest = f.after;
    if (!Number.isInteger(years) || years < 5 || years > 110) continue;
    if (/(?:years|yrs|year|yr) old$/.test(f.text) === false && UNIT_AFTER.test(rest)) continue;
    if (!aboutUser(clause, f) || denied(f) || /-$/.test(f.groups.a ?? "")) continue;
    // "my 5 year old, Jake": the age of a child.
    // "I've got a 7 year old called Ruby", "a 12 year old and a 9 year old": someone the user has.
    if (
      /old$/.test(f.text) &&
      (/\b(?:my|our|his|her|their)\s*$/i.test(f.before) ||
        /\b(?:have|got|had|has)\b(?:(?!\b(?:am|i'm|im)\b).)*\b(?:a|an)\s*$/i.test(f.before))
    )
      continue;
    // "I've got a 6 year old daughter": the age of someone the user names after it.
    if (
      /old$/.test(f.text) &&
      /^\s*(?:daughter|son|boy|girl|kid|child|baby|toddler|niece|nephew|grand\w+|brother|sister|cousin|twins|triplets|dog|cat|puppy|kitten|pup|rescue|car|laptop|house|phone)s?\b/i.test(
        rest,
      ) &&
      !/\b(?:i am|i'm|im|we are)\s+(?:a|an)\s*$/i.test(f.before)
    )
      continue;
    out.push({ slot: "age", value: String(years), says: `is ${years} years old`, confidence: 0.8 });
    break;
  }
  return out;
}

/** People of a city by the word for them: "a Londoner" is from London. */
const DEMONYMS: Readonly<Record<string, string>> = {
  londoner: "London",
  "new yorker": "New York",
  parisian: "Paris",
  berliner: "Berlin",
  glaswegian: "Glasgow",
  mancunian: "Manchester",
  liverpudlian: "Liverpool",
  scouser: "Liverpool",
  geordie: "Newcastle",
  brummie: "Birmingham",
  dubliner: "Dublin",
  bostonian: "Boston",
  chicagoan: "Chicago",
  torontonian: "Toronto",
  angeleno: "Los Angeles",
  edinburgher: "Edinburgh",
  aberdonian: "Aberdeen",
  romano: "Rome",
  muscovite: "Moscow",
  viennese: "Vienna",
  sydneysider: "Sydney",
  melburnian: "Melbourne",
};

/** A clause that may say where the user is from. */
export const ORIGIN_CUE = new RegExp(
  `\\b(?:from|grew|growing up|raised|born|brought|native|hometown|home town|${Object.keys(DEMONYMS).join("|")})\\b`,
  "i",
);

/** Verbs of travel before "from": "I moved here from Berlin" says nothing of where the user is from. */
const NOT_ORIGIN =
  /\b(?:mov|reloc|flew|fly|flying|drove|driv|travel|back|return|visit|came|got|emigrat)\w*\s*$/i;

/**
 * What comes before "from" when it says where the user is from: "I'm (originally) from", "I come from",
 * "I'm Brazilian, from Recife", or nothing ("from Leeds originally"); "the ferry from Hull" is a route.
 */
const ORIGIN_LEAD =
  /(?:^\s*|\b(?:i am|im|i'm|we are|i come|we come|comes?|hails?|am|are)\s+(?:originally\s+|actually\s+|also\s+)?|\boriginally\s+|^\s*(?:i am|im|i'm|we are|me)\b[^.]*,\s*)$/iu;

export function readOrigin(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const origin = (f: Found) => {
    const value = place(f.groups.p);
    if (value && aboutUser(clause, f) && !denied(f))
      out.push({ slot: "from", value, says: `is from ${value}`, confidence: 0.8 });
  };
  for (const f of find(clause, `from [<p>${PLACE}]`)) {
    if (!NOT_ORIGIN.test(f.before) && ORIGIN_LEAD.test(f.before)) origin(f);
  }
  for (const f of find(
    clause,
    `(grew up|growing up|raised|born|brought up) (and raised)? in #Adjective? [<p>${PLACE}]`,
  ))
    origin(f);
  // "I grew up in a small town near Kraków", "originally I'm from a village outside Cork".
  for (const f of find(
    clause,
    `(grew up|raised|born|brought up|from) (and raised)? in? (a|the) #Adjective? #Adjective? (town|village|city|island|suburb|farm|place) (near|outside|in|on|called|named) [<p>${PLACE}]`,
  )) {
    if (!/^from\b/i.test(f.text) || (!NOT_ORIGIN.test(f.before) && ORIGIN_LEAD.test(f.before))) origin(f);
  }
  for (const f of find(clause, `^my (hometown|home town) is [<p>${PLACE}]`)) origin(f);
  // "I was born in 1980 in Cork", "I am a native of Naples".
  for (const f of find(clause, `born in #Value in [<p>${PLACE}]`)) origin(f);
  for (const f of find(clause, `(i am|we are) a native of [<p>${PLACE}]`)) origin(f);
  // "I'm a Londoner born and bred".
  const demonym =
    /^\s*(?:i am|i'm|im)\s+(?:(?:a|an|such a)\s+)?(?:(?:proud|true|real|born|proper)\s+)?(new yorker|[\p{L}]+)\b/iu.exec(
      clause.text,
    );
  const city = DEMONYMS[demonym?.[1]?.toLowerCase() ?? ""];
  if (city && !/\bnot\b/i.test(demonym?.[0] ?? ""))
    out.push({ slot: "from", value: city, says: `is from ${city}`, confidence: 0.75 });
  return out.slice(0, 1);
}

const AREA = "(a|the)? #Adjective? (town|village|city|suburb|hamlet|place|part)? (called|named)?";
/** Where the user lives, said in one pattern each, with the verb of the fact's sentence. */
const HOME: ReadonlyArray<readonly [string, string]> = [
  [
    `(live|lives|lived|living|livin|lving|reside|resides|resided|residing|based|settled) #Adverb? (in|at|out of) ${AREA} [<p>${PLACE}]`,
    "lives in",
  ],
  [`(moved|relocated|have moved|moved back) (back|over|out|here)? to [<p>${PLACE}]`, "moved to"],
  [`home is [<p>${PLACE}]`, "lives in"],
  // "home is a tiny flat in Hackney", "we call Bristol home", "I'm renting in Brooklyn".
  [
    `^home is (a|an|the|our|my)? .? .? (flat|house|apartment|place|cottage|room|boat|van) in [<p>${PLACE}]`,
    "lives in",
  ],
  [`(call|calls) [<p>${PLACE}] home`, "lives in"],
  [`(renting|rent|rents) in [<p>${PLACE}]`, "lives in"],
  // "I live near Cambridge", "we live out in the countryside near York".
  [
    `(live|lives|living|based) #Adverb? (near|outside|close to|on the outskirts of) [<p>${PLACE}]`,
    "lives near",
  ],
  [
    `(live|lives|living) out? in the (countryside|country|sticks|suburbs|hills) (near|outside|of) [<p>${PLACE}]`,
    "lives near",
  ],
  // "I commute into Manchester from Stockport": the user lives where the commute starts.
  [`(commute|commutes|commuting) (into|to|in to) #ProperNoun+ from [<p>${PLACE}]`, "lives in"],
  [`(commute|commutes|commuting) from [<p>${PLACE}] (into|to)`, "lives in"],
  // "moved back to my hometown, Cork".
  [`(moved|moving) back? to my (hometown|home town) [<p>${PLACE}]`, "moved to"],
  [`^[<p>${PLACE}] is (my)? home`, "lives in"],
  // "new to Denver", "I live with my parents in Lagos", "moved into a new place in Hackney", "I rent a flat in Leith".
  ["^new to [<p>#Place+]", "lives in"],
  [`(live|lives|living) with .? .? in [<p>${PLACE}]`, "lives in"],
  [`(moved|moving) (in|into) .? .? .? in [<p>${PLACE}]`, "moved to"],
  [
    `(rent|rents|renting) (a|an|our|my) .? (flat|house|apartment|place|home|cottage|room|bed|bedroom) in [<p>${PLACE}]`,
    "lives in",
  ],
  [
    `(rent|rents|renting) (a|an|our|my) . . (flat|house|apartment|place|home|cottage|room|bed|bedroom) in [<p>${PLACE}]`,
    "lives in",
  ],
  [
    `(rent|rents|renting) (a|an|our|my) . . . (flat|house|apartment|place|home|cottage|room|bed|bedroom) in [<p>${PLACE}]`,
    "lives in",
  ],
  [`^(my|our) (flat|house|apartment|place|home|condo) in [<p>${PLACE}]`, "lives in"],
  // "we just bought our first house in Leeds".
  [
    `(bought|closed on) (a|an|our|my) (first|new|own|dream)? (flat|house|home|place|apartment|condo) in [<p>${PLACE}]`,
    "lives in",
  ],
  [`^(i|we) (am|are) back home? in [<p>${PLACE}]`, "lives in"],
  [`now (i|we) (am|are) in [<p>${PLACE}]`, "lives in"],
  [`(i|we) (am|are) in [<p>${PLACE}] now`, "lives in"],
  // "it's Dundee where I live", "I've been in Toronto for 3 years".
  [`[<p>${PLACE}] where (i|we) (live|am living|are living)`, "lives in"],
  [`^(i|we) (have|has) been in [<p>${PLACE}] (for|since)`, "lives in"],
  // "living in a van in Portugal"; "flat" is often tagged an adjective, "rented" a verb.
  [`(live|lives|living|livin) in (a|an) #Adjective? #Noun in [<p>${PLACE}]`, "lives in"],
  [
    `(live|lives|living|livin) in (a|an) .? (flat|house|apartment|cottage|bungalow|studio|caravan) in [<p>${PLACE}]`,
    "lives in",
  ],
  // "a ground floor flat in Sheffield": compromise does not backtrack over optional words, so each
  // length has its own pattern.
  [
    `(live|lives|living|livin) in (a|an) . . (flat|house|apartment|cottage|bungalow|studio|caravan) in [<p>${PLACE}]`,
    "lives in",
  ],
  [
    `(live|lives|living|livin) in (a|an) . . . (flat|house|apartment|cottage|bungalow|studio|caravan) in [<p>${PLACE}]`,
    "lives in",
  ],
  // A dwelling somewhere is a home: "we're in a little place in Matlock".
  [
    `^(i|we) (am|are|were|was) #Adverb? in a .? .? (place|town|village|flat|house|cottage|bungalow|terrace) in [<p>${PLACE}]`,
    "lives in",
  ],
];
/** A rental for a while: "for August", "for the summer", "for two weeks". */
const STAY =
  /\bfor (?:the )?(?:summer|winter|holidays?|week|weekend|(?:a|one|two|three|four|\d+) (?:weeks?|nights?|days?|months?)|january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
/** Words that say the user only visits where they write from. */
const VISITING =
  /\b(?:visit\w*|trip|holiday|vacation|conference|staying|passing through|for the (?:week|weekend))\b/i;

export function readHome(clause: Clause): FactDraft[] {
  const left: FactDraft[] = [];
  /** Current homes with where they are said: the one said last is the one kept. */
  const homes: Array<{ at: number; draft: FactDraft }> = [];
  const home = (at: number, value: string, verb: string, confidence = 0.8) =>
    homes.push({
      at,
      draft: { slot: "lives_in", value, says: `${verb} ${value}`, confidence, negated: false },
    });
  const lives = (f: Found, verb: string) => {
    const value = place(f.groups.p);
    if (!value || !aboutUser(clause, f)) return;
    const past =
      over(f) ||
      /\bwere\b|\bwas\b/.test(f.text) ||
      // "As a kid, I lived in Spain": the simple past is a home left; "I have lived in Tokyo" is not.
      (/^(?:lived|resided)\b/i.test(f.text) && !/\b(?:have|has|'ve)\s*$/i.test(f.before)) ||
      /\b(?:was|were|had been)\s*$/i.test(f.before) ||
      /^\s*until\b/i.test(f.after);
    if (denied(f) && !past) return;
    if (past) left.push({ ...leftHome(value), says: `${verb} ${value}`, confidence: 0.8 });
    else home(f.start, value, verb);
  };
  for (const [pattern, verb] of HOME)
    for (const f of find(clause, pattern)) {
      // "renting a cottage in Cornwall for August": a stay, not a home.
      if (/^rent/i.test(f.text) && (FUTURE_TIME.test(clause.text) || STAY.test(clause.text))) continue;
      lives(f, verb);
    }
  // "Here in Melbourne it's been freezing", "greetings from sunny Brighton": where the user writes from,
  // unless the message says they are only visiting.
  if (!VISITING.test(clause.sentence)) {
    for (const f of find(clause, `here in [<p>${PLACE}]`)) lives(f, "lives in");
    for (const f of find(clause, `^(greetings|hello|hi|writing|i am writing) from #Adjective? [<p>${PLACE}]`))
      lives(f, "lives in");
  }
  // "born in Glasgow, now in Manchester": where the user is now.
  for (const f of find(clause, `now in [<p>${PLACE}]`)) if (/,\s*$/.test(f.before)) lives(f, "lives in");
  // "I am writing to you from my home in Oxford": "my home" is the user's whoever the clause addresses.
  for (const f of find(clause, `(from|at) (my|our) (flat|house|apartment|home) in [<p>${PLACE}]`)) {
    const value = place(f.groups.p);
    if (value && !denied(f)) home(f.start, value, "lives in");
  }
  // "we relocated from Leeds to Bristol": the new home, and the old one left.
  for (const f of find(
    clause,
    `(moved|relocated|have moved) (back|over|out|here)? from [<old>${PLACE}] to [<p>${PLACE}]`,
  )) {
    // "moved from UCL to Warwick for the second year" changed schools, not homes.
    if (!isHomeMove(clause, f)) continue;
    const before = homes.length + left.length;
    lives(f, "moved to");
    const old = place(f.groups.old);
    if (old && homes.length + left.length > before) left.push({ ...leftHome(old), confidence: 0.75 });
  }
  // "we've left London for good", "we've relocated to Perth from Sydney", "after years in Madrid".
  for (const f of find(clause, `(i|we) have? (left|moved away from) [<p>#Place+] (for good|behind)`))
    left.push(leftHome(f.groups.p));
  for (const f of find(clause, `(moved|relocated) (back|over|out|here)? to #ProperNoun+ from [<p>${PLACE}]`))
    left.push(leftHome(f.groups.p));
  for (const f of find(clause, `^after #Value? (years|months|decades|ages|year|decade) in [<p>${PLACE}]`))
    left.push(leftHome(f.groups.p));
  for (const f of find(clause, `^(i|we) (am|are|were|was) #Adverb? in [<p>${PLACE}]`)) {
    if (
      /\b(?:now|these days|currently|at the moment|nowadays)\b/i.test(clause.text) ||
      /\b(?:were|was)\b/.test(f.text)
    )
      lives(f, "lives in");
  }
  // "Manchester-based designer here".
  const based = /(?:^|\s)(\p{Lu}[\p{L}]+(?: \p{Lu}[\p{L}]+)?)-based\b/u.exec(clause.text);
  if (
    based?.[1] &&
    !/\b(?:my|our|his|her|their|the|a|an|is|are)\s+$/i.test(clause.text.slice(0, based.index + 1))
  )
    home(based.index, based[1], "lives in", 0.7);
  // The place said last is the current one: "we were in Sheffield ... now we're in Matlock".
  const current = homes.reduce<(typeof homes)[number] | undefined>(
    (a, b) => (!a || b.at >= a.at ? b : a),
    undefined,
  );
  return [...left, ...(current ? [current.draft] : [])];
}

function leftHome(text: string | undefined): FactDraft {
  const value = place(text) ?? "";
  return { slot: "lives_in", value, says: `lives in ${value}`, confidence: 0.75, negated: true };
}

/** A place name: capitalised as written, or title case when typed in lower case ("denver"). */
function place(text = ""): string | null {
  const value = asName(text.replace(/^(?:the)\s+/i, ""));
  if (!value || value.split(/\s+/).length > 4 || /^\d/.test(value)) return null;
  // A month or a day is a time: "moving in with my boyfriend in May".
  if (NOT_NAMES.has(value.toLowerCase()) || NOT_PLACES.has(value.toLowerCase())) return null;
  // "from Leeds Uni to York St John" names schools, not homes.
  if (/\b(?:uni|university|college|school|academy|polytechnic)\b/i.test(value)) return null;
  return value;
}
