/**
 * What the user does for fun, read from a parsed clause: an activity verb in the habitual present ("I swim
 * three times a week"), what they play or practise, an activity they are into, or a hobbyist noun ("big
 * gamer here").
 */
import { HOBBIES } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import { gerund } from "../fact-values.js";
import type { Clause } from "./clauses.js";
import { aboutUser, clauseVerbs, denied, type Found, find, over } from "./match.js";

/** Verbs that are pastimes when done habitually; the value is the activity ("swim" -> swimming). */
const ACTIVITY_VERBS = new Set(
  `swim run jog paint knit crochet sew bake garden climb boulder hike surf ski snowboard skate sing dance draw
  cycle bike row sail fish meditate journal sketch sculpt dive kayak canoe golf box fence skateboard quilt
  embroider birdwatch juggle hunt camp brew ride collect write read cook photograph volunteer`.split(/\s+/),
);
/** Verbs that take their pastime as an object ("collect vinyl records", "write short stories"). */
const WITH_OBJECT = new Set(
  "collect paint draw knit crochet sew bake write brew build make dance".split(" "),
);
/** Verbs too common to be a pastime without a sign that they are one. */
const NEEDS_SIGN = new Set("run write read cook ride make build".split(" "));
/** How people say it is a pastime: how often, or that it is leisure. */
const LEISURE =
  /\b(?:every (?:day|morning|evening|night|week|weekend|sunday|saturday)|daily|weekly|(?:once|twice|\w+ times) a (?:day|week|month)|on (?:the )?weekends?|at weekends?|in my (?:spare|free) time|for fun|as a hobby|to relax|to unwind|most (?:days|mornings|evenings|weekends)|religiously|competitively|in a (?:band|club|league|team|choir|group)|loads|a lot)\b/i;
/** Any activity verb in any form, or a verb of playing: the cheap test before the parse is asked. */
const ACTIVITY_CUE = new RegExp(
  `\\b(?:${[...ACTIVITY_VERBS]
    .map((v) => (v.endsWith("e") ? `${v.slice(0, -1)}(?:e|es|ed|ing)` : `${v}(?:s|es|ed|d|ing|[bgmnpt]ing)?`))
    .join("|")}|swam|ran|rode|wrote|written|sang|drew|dove)\\b`,
  "i",
);
/** Gerunds that are errands or states, not pastimes: "go shopping", "been working". */
const NOT_PASTIMES = new Set(
  "shopping working thinking trying going getting doing being having feeling looking waiting studying living moving staying sleeping eating drinking visiting travelling traveling".split(
    " ",
  ),
);
/** A clause that may name a pastime: the union of what each of its forms needs. */
export const HOBBY_CUE = {
  test: (text: string) =>
    ACTIVITY_CUE.test(text) ||
    KEEN_CUE.test(text) ||
    /\b(?:play|plays|practi[cs]e|practices|into|obsessed|hooked|addicted|spend|hobby|hobbies|passion|pastime|member|club|choir|band|team|league|orchestra|myself|are about|are for)\b|\b(?:go|goes) to (?:yoga|pilates|zumba|spin|crossfit|parkrun|boxing|karate|judo|ballet|salsa)\b|\b(?:do|does|doing)\b|\b(?:go|goes) \w+ing\b|\bpart of\b|ing (?:is|are|keeps|makes|helps)\b/i.test(
      text,
    ),
};
/** Nouns for people by their pastime: "a keen cyclist" cycles. */
const HOBBYISTS: Readonly<Record<string, string>> = {
  gamer: "gaming",
  runner: "running",
  jogger: "jogging",
  climber: "climbing",
  boulderer: "bouldering",
  cyclist: "cycling",
  swimmer: "swimming",
  baker: "baking",
  knitter: "knitting",
  reader: "reading",
  bookworm: "reading",
  hiker: "hiking",
  walker: "walking",
  surfer: "surfing",
  skier: "skiing",
  snowboarder: "snowboarding",
  golfer: "golf",
  birdwatcher: "birdwatching",
  birder: "birdwatching",
  gardener: "gardening",
  skater: "skating",
  skateboarder: "skateboarding",
  dancer: "dancing",
  singer: "singing",
  painter: "painting",
  photographer: "photography",
  angler: "fishing",
  sailor: "sailing",
  rower: "rowing",
  collector: "collecting",
  crafter: "crafting",
  cook: "cooking",
};
/** Modifiers that make a noun a pastime rather than a job: "a keen cyclist", not "a cyclist". */
const KEEN_CUE =
  /\b(?:keen|avid|big|huge|massive|passionate|amateur|serious|enthusiastic|obsessive|casual|hobby|weekend|lifelong)\b/i;
const KEEN =
  "(keen|avid|big|huge|massive|passionate|amateur|serious|enthusiastic|obsessive|casual|hobby|weekend|lifelong)";
/** Things one plays or practises that are pastimes: sports, games, instruments. */
const PLAYED = new Set(
  `bass guitar piano violin cello drums ukulele saxophone sax trumpet flute harp banjo mandolin keyboard keys
  harmonica clarinet trombone accordion football soccer tennis squash badminton basketball netball rugby
  cricket hockey golf chess poker bridge volleyball baseball softball padel pickleball darts pool snooker
  table-tennis ping-pong frisbee dnd d&d`.split(/\s+/),
);

const hobby = (value: string): FactDraft => ({
  slot: "hobby",
  value,
  says: `enjoys ${value}`,
  confidence: 0.7,
});
/** "meditate" is a practice: the noun, not the gerund, names it. */
const ACTIVITY_NAMES: Readonly<Record<string, string>> = { meditate: "meditation", journal: "journaling" };

export function readHobbies(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const text = clause.text;
  const user = (f: Found) => aboutUser(clause, f) && !denied(f) && !over(f);
  for (const f of ACTIVITY_CUE.test(text) ? find(clause, "(i|we) #Adverb? (also)? [<v>#PresentTense]") : []) {
    const verb = (f.groups.v ?? "").toLowerCase();
    const inf = clauseVerbs(clause).find((v) => v.text.toLowerCase().endsWith(verb))?.infinitive || verb;
    if (!ACTIVITY_VERBS.has(inf) || !user(f)) continue;
    const rest = f.after.trim();
    const object =
      /^(?:[\p{L}'-]+\s+){0,3}?[\p{L}'-]+(?=$|\s+(?:in|at|on|with|for|every|most|when|whenever|because)\b|[,.!])/u.exec(
        rest,
      )?.[0] ?? "";
    const sign = LEISURE.test(rest);
    if (NEEDS_SIGN.has(inf) && !sign) continue;
    const name = ACTIVITY_NAMES[inf] ?? gerund(inf);
    const noObject =
      rest === "" ||
      /^(?:in|at|on|with|every|most|daily|weekly|\w+ times|when|whenever|because|for|religiously|competitively|loads|a lot)\b/i.test(
        rest,
      );
    if (
      WITH_OBJECT.has(inf) &&
      !noObject &&
      object &&
      !/^(?:it|them|this|that|my|our|the|a|an)\b/i.test(object)
    )
      out.push(hobby(`${name} ${object.toLowerCase()}`));
    else if (noObject || sign) out.push(hobby(name));
  }
  for (const f of !/\b(?:play|plays|practi[cs]e|practices|do|does)\b/i.test(text)
    ? []
    : find(clause, "^(i|we) #Adverb? (also)? (play|plays|practice|practise|practices|do|does) [<x>.+]")) {
    if (!user(f)) continue;
    const words = (f.groups.x ?? "")
      .toLowerCase()
      .replace(/[^\p{L}\s&'-]/gu, " ")
      .split(/\s+/)
      .filter(Boolean);
    const upTo = words.findIndex((w) =>
      // "chess online most nights": how and when end the thing played.
      /^(?:in|at|on|with|every|for|and|but|when|because|most|twice|once|since|online|together|competitively|casually|badly|regularly|daily|weekly|sometimes|too|again|lol)$/.test(
        w,
      ),
    );
    const phrase = (upTo >= 0 ? words.slice(0, upTo) : words)
      .join(" ")
      .replace(/^(?:a lot of|lots of|loads of|plenty of|some|the|a|an|my)\s+/, "")
      .split(" ")
      .slice(0, 3)
      .join(" ");
    const head = phrase.split(" ").at(-1) ?? "";
    if (phrase && (PLAYED.has(head) || HOBBIES.has(head))) out.push(hobby(phrase));
  }
  for (const f of /ing (?:is|are)\b/i.test(text)
    ? find(clause, "[<h>#Gerund] (is|are) (how i|my|life|what i|the best|everything)")
    : []) {
    const value = (f.groups.h ?? "").toLowerCase();
    if (HOBBIES.has(value) || value.endsWith("ing")) out.push(hobby(value));
  }
  for (const f of !/\b(?:into|obsessed|hooked|addicted)\b/i.test(text)
    ? []
    : find(clause, "^(i|we) am #Adverb? (into|obsessed with|hooked on|addicted to) [<x>#Gerund]")) {
    if (user(f)) out.push(hobby((f.groups.x ?? "").toLowerCase()));
  }
  // "we go hiking every Sunday", "I've been doing a lot of running", "got really into pottery".
  const activity = (value: string) => {
    const v = value
      .toLowerCase()
      .replace(/[^\p{L}\s-]/gu, "")
      .trim();
    // A listed pastime, or a word the parser reads as a verb's -ing form ("everything" is neither).
    const gerundForm = /ing$/.test(v) && !NOT_PASTIMES.has(v) && clause.doc.match(v).has("#Gerund");
    if (v && (HOBBIES.has(v) || gerundForm)) out.push(hobby(v));
  };
  if (/\b(?:go|goes|went|going)\b/i.test(text))
    for (const f of find(clause, "(i|we) #Adverb? (go|goes) [<g>#Gerund]"))
      if (user(f)) activity(f.groups.g ?? "");
  if (/\b(?:a lot of|lots of|loads of|plenty of)\b/i.test(text))
    for (const f of find(clause, "(do|does|doing) (a|lots|loads|plenty) lot? of [<g>(#Gerund|#Noun)]"))
      if (user(f)) activity(f.groups.g ?? "");
  if (/\binto\b/i.test(text))
    for (const f of find(clause, "(got|gotten|getting|get) #Adverb? into [<x>(#Noun|#Gerund)]"))
      if (user(f)) activity(f.groups.x ?? "");
  if (/\bspend\b/i.test(text))
    for (const f of find(
      clause,
      "spend (my|our|the)? .? (evenings|weekends|free time|spare time|days|mornings) [<g>#Gerund]",
    ))
      if (user(f)) activity(f.groups.g ?? "");
  // "I go to pilates twice a week", "I do parkrun most Saturdays".
  for (const f of /\b(?:go|goes|do|does)\b/i.test(text)
    ? [
        ...find(clause, "^(i|we) #Adverb? (go|goes) to [<x>.]"),
        ...find(clause, "^(i|we) #Adverb? (do|does) [<x>.]"),
      ]
    : [])
    if (user(f) && HOBBIES.has((f.groups.x ?? "").toLowerCase()) && !/ing$/i.test(f.groups.x ?? ""))
      out.push(hobby((f.groups.x ?? "").toLowerCase()));
  // "Sundays are for hiking", "my weekends are all about cycling".
  for (const f of /\b(?:are about|are for)\b/i.test(text)
    ? find(
        clause,
        "(weekends|sundays|saturdays|evenings|mornings|summers|winters) (are|is) (for|about|all about) [<g>(#Gerund|#Noun)]",
      )
    : [])
    if (user(f)) activity(f.groups.g ?? "");
  // "I've been baking a lot lately", "I like to paint in my spare time", "teaching myself to code".
  for (const f of find(clause, "^(i|we) have been #Adverb? [<v>#Gerund]")) {
    const inf = (f.groups.v ?? "").toLowerCase();
    if (
      user(f) &&
      LEISURE.test(f.after) &&
      !/^\s*(?:the|my|our|a|an|it|this|that|his|her|their)\b/i.test(f.after) &&
      ACTIVITY_CUE.test(inf)
    )
      activity(inf);
  }
  for (const f of find(clause, "^(i|we) #Adverb? (like|love|enjoy) to [<v>#Infinitive]")) {
    const inf = (f.groups.v ?? "").toLowerCase();
    if (user(f) && ACTIVITY_VERBS.has(inf) && !NEEDS_SIGN.has(inf))
      out.push(hobby(ACTIVITY_NAMES[inf] ?? gerund(inf)));
  }
  for (const f of find(clause, "(teaching myself|learning) to [<v>#Infinitive]")) {
    const inf = (f.groups.v ?? "").toLowerCase();
    const skill =
      inf === "code" ? "coding" : ACTIVITY_VERBS.has(inf) ? (ACTIVITY_NAMES[inf] ?? gerund(inf)) : null;
    if (skill && user(f)) out.push(hobby(skill));
  }
  // "gardening keeps me sane": a pastime as the subject of the clause.
  const subject = /^\s*(\w+ing)\s+(?:keeps|is|makes|helps|has)\b/i.exec(text);
  if (subject?.[1]) activity(subject[1]);
  // "my main hobby is photography", "I'm part of a book club", "a member of a chess club".
  for (const f of /\bhobb|passion|pastime/i.test(text)
    ? find(clause, "my .? (hobby|hobbies|passion|pastime) (is|are) [<x>.+]")
    : [])
    for (const item of (f.groups.x ?? "").split(/,\s*|\s+and\s+/))
      activity(item.split(/\s+(?:and|but|because|which)\b/)[0] ?? "");
  for (const f of /\b(?:part|member|club|choir|band|team|league|orchestra)\b/i.test(text)
    ? [
        ...find(
          clause,
          "(part|member) of (a|an|the|my)? [<x>.? .?] (club|team|choir|band|group|society|league|orchestra|crew)",
        ),
        ...find(clause, "^(i|we) (am|are) in (a|an|the|my)? [<x>.? .?] (club|choir|band|league|orchestra)"),
      ]
    : []) {
    const club = f.text.split(/\s+/).at(-1) ?? "";
    if (user(f)) out.push(hobby(`${(f.groups.x ?? "").toLowerCase()} ${club}`.trim()));
  }
  for (const f of KEEN_CUE.test(text) ? find(clause, `${KEEN} [<n>#Noun]`) : []) {
    const value = HOBBYISTS[(f.groups.n ?? "").toLowerCase()];
    if (value && aboutUser(clause, f) && !denied(f)) out.push(hobby(value));
  }
  return out;
}
