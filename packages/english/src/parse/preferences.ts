/**
 * Likes and dislikes said without a subject, as chat drops it ("can't stand coriander", "huge fan of the
 * Arctic Monkeys"), or said of the thing ("pineapple on pizza is gross"). The pattern rules read the
 * ones that start with "I".
 */
import type { FactDraft } from "../fact-patterns.js";
import { cutValue, phrase } from "../fact-values.js";
import type { Clause } from "./clauses.js";
import { aboutUser, find } from "./match.js";

const taste = (slot: "likes" | "dislikes", raw: string): FactDraft[] => {
  const value = phrase(
    cutValue(raw)
      .replace(/^(?:a good|a|an|the|all|any|this|these|those|that)\s+/i, "")
      .replace(
        /\s+(?:all day|every day|forever|on repeat|tbh|lol|honestly|just|really|simply|also|so)$/i,
        "",
      ),
    5,
  );
  if (!value) return [];
  return [{ slot, value, says: `${slot === "likes" ? "likes" : "dislikes"} ${value}`, confidence: 0.65 }];
};

/** What follows these, at the start of a clause or after "I", is something the user likes. */
const LIKE_LEADS = [
  "(love|loves|adore|like|enjoy|dig|loved|enjoyed|adored) love? love?",
  "(huge|big|massive|great|lifelong)? (fan|lover) of",
  "(a|such)? a? (real|big)? (soft spot|weakness|thing) for",
  "partial to",
  "live for",
  "(loving|enjoying|digging)",
  "could (listen to|watch|eat|read|play) [<x>.+] (all day|forever|every day|on repeat)",
  "into",
  "(obsessed|obsessing) (with|over)",
  "(mad|crazy|nuts|wild|passionate) about",
  "can not get enough of",
  "(a|such a) sucker for",
  // As formal writing says it: "particularly fond of baroque music", "a great appreciation for art".
  "#Adverb? fond of",
  "(a|an)? #Adjective? (fondness|appreciation|passion|affection) for",
  "(take|find|derive) #Adjective? (pleasure|joy|delight|satisfaction) (in|from)",
  "(a|an)? #Adjective? admirer of",
];
/** And these, something the user dislikes. */
const DISLIKE_LEADS = [
  "can not (stand|bear|abide|tolerate)",
  "(hate|loathe|detest|dislike|hated|loathed)",
  "not #Adverb? (into|a fan of|keen on|a big fan of)",
  "never (liked|enjoyed|been a fan of|been into|cared for)",
];
/** What a "person" is a fan of: "a cat person", "not a morning person". */
const PERSON_KINDS =
  "(cat|dog|morning|night|beach|city|country|coffee|tea|people|summer|winter|mountain|sea|book|wine|beer|party|outdoors)";
/**
 * Tastes said of the thing: "k-dramas are my guilty pleasure", "cheese is life", "The Beatles are the
 * greatest band ever"; "mornings are not my thing", "spiders freak me out", "I find golf boring".
 */
const SAID_OF_THE_THING: ReadonlyArray<readonly ["likes" | "dislikes", string]> = [
  ["likes", "^[<x>.+] (is|are) my (absolute|all-time)? (favourite|favorite|fave|thing|jam)$"],
  ["likes", "^[<x>.+] (is|are) my (guilty pleasure|weakness|obsession|happy place|comfort food)"],
  ["likes", "^[<x>.+] (is|are) (a|an) #Adjective? (passion|love|interest) of mine"],
  ["likes", "^[<x>.+] (is|are) life (#Adverb|lol|tbh)?$"],
  ["likes", "^[<x>.+] (is|are) the (best|greatest) .? .? (ever|of all time|in the world)"],
  ["dislikes", "^[<x>.+] (is|are) #Adverb? not (my thing|for me|my cup of tea|my scene)"],
  ["dislikes", "^[<x>.+] (freak|freaks|creep|creeps|gross|grosses) me out"],
  [
    "dislikes",
    "^(i|we) find [<x>.+] #Adverb? (boring|tedious|annoying|unbearable|overrated|pointless|disgusting|gross)",
  ],
];

/** A value that points back into the chat ("I love that", "love how you...") is no taste. */
const POINTER =
  /^\s*(?:it|how|when|what|you|your|the way|to)\b|^\s*(?:this|that|these|those)\b(?=\s*$|\s*[,.!?]|\s+(?:is|was|are|one|so|too|a lot|lol|idea|advice|answer|list|suggestion)\b)/i;

/** A school or a place after "got into": an admission ("got into Durham", "got into med school"). */
function admittedTo(clause: Clause, value: string): boolean {
  const head =
    value
      .trim()
      .split(/[,.!?;]/)[0]
      ?.trim() ?? "";
  return (
    /\b(?:uni|university|college|school|academy|conservatoire|programme|program)\b/i.test(head) ||
    clause.doc.match(head.split(/\s+/)[0] ?? "").has("#Place")
  );
}

export function readPreferences(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  // "jazz is my thing, especially the late night stuff": the taste before what is added to it.
  const thing = /^(.+?)\s+(?:is|are)\s+(?:totally\s+|really\s+|so\s+)?my\s+(?:thing|jam)\s*,/i.exec(
    clause.text,
  );
  if (thing?.[1] && !POINTER.test(thing[1])) out.push(...taste("likes", thing[1]));
  const read = (slot: "likes" | "dislikes", leads: readonly string[]) => {
    for (const lead of leads) {
      for (const f of find(
        clause,
        // Optional words one at a time: compromise does not match an optional group of several words.
        `^(i|we)? (am|are|have|got)? (been|always|got)? #Adverb? ${lead}`,
      )) {
        const value = f.groups.x ?? f.after;
        // "I got into Cambridge!" is a place at a school, not a taste.
        if (/\bgot into$/i.test(f.text) && admittedTo(clause, value)) continue;
        if (!POINTER.test(value) && aboutUser(clause, f)) out.push(...taste(slot, value));
      }
    }
  };
  read("likes", LIKE_LEADS);
  read("dislikes", DISLIKE_LEADS);
  // "I'm a big Taylor Swift fan", "nothing beats a Sunday roast", "my guilty pleasure is reality TV".
  // "I'm a massive Liverpool supporter", "a total sci-fi nerd"; "big Arsenal fan, suffering every season".
  const devotee =
    /^(?:(?:i am|we are|i'm|im)\s+(?:a|an|such a)\s+|(?=(?:big|huge|massive|die-hard|diehard|lifelong)\s+\p{Lu}))(?:(?:big|huge|massive|die-hard|diehard|great|lifelong|total|proper|real|bit of a)\s+)?(.+?)\s+(?:fan|fans|supporter|lover|addict|fanatic|buff|enthusiast|nerd|geek)\b(?!\s+of\b)/iu.exec(
      clause.text,
    );
  // "a big fan from way back" names no taste: an intensifier alone is not one.
  if (
    devotee?.[1] &&
    !/\b(?:not|never)\b/i.test(devotee[1]) &&
    !/^(?:big|huge|massive|great|total|proper|real)$/i.test(devotee[1])
  )
    out.push(...taste("likes", devotee[1]));
  // "I'm more of a cat person", "not really a dog person".
  for (const f of [
    ...find(clause, `^(i am|we are) #Adverb? (not)? #Adverb? a [<x>${PERSON_KINDS}] person`),
    ...find(clause, `^(i am|we are) #Adverb? more of a [<x>${PERSON_KINDS}] person`),
  ]) {
    const slot = /\bnot\b/i.test(f.text) ? "dislikes" : "likes";
    out.push(...taste(slot, f.groups.x ?? ""));
  }
  for (const f of find(
    clause,
    "^(nothing|there is nothing|you can not) (beats|beat|compares to|better than|like)",
  ))
    out.push(...taste("likes", f.after));
  for (const f of find(clause, "^my (guilty pleasure|weakness|obsession) (is|are)"))
    out.push(...taste("likes", f.after));
  for (const [slot, pattern] of SAID_OF_THE_THING) {
    for (const f of find(clause, pattern)) {
      const x = f.groups.x ?? "";
      if (
        !/^(?:it|this|that|he|she|they|i|we|you|there|what|which|who)\b/i.test(x) &&
        x.split(/\s+/).length <= 5
      )
        out.push(...taste(slot, x));
    }
  }

  for (const f of find(
    clause,
    "^[<x>.+] (is|are) #Adverb? (gross|disgusting|vile|overrated|the worst|awful|horrible|rank|grim)",
  )) {
    const thing = f.groups.x ?? "";
    // "I'm in Sydney, so the time difference is awful": a clause before, not a thing disliked.
    if (/,/.test(thing) || thing.split(/\s+/).length > 5) continue;
    if (!/^(?:i|we|it|this|that|he|she|they|everything|my|your|the weather|life|work)\b/i.test(thing))
      out.push(...taste("dislikes", thing));
  }
  return out;
}
