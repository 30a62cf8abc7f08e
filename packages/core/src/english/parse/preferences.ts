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
  const value = phrase(cutValue(raw).replace(/^(?:a good|a|an|the|all|any)\s+/i, ""), 5);
  if (!value) return [];
  return [{ slot, value, says: `${slot === "likes" ? "likes" : "dislikes"} ${value}`, confidence: 0.65 }];
};

/** What follows these, at the start of a clause or after "I", is something the user likes. */
const LIKE_LEADS = [
  "(love|loves|adore|like|enjoy|dig|loved|enjoyed|adored) love? love?",
  "(huge|big|massive|great)? fan of",
  "into",
  "(obsessed|obsessing) (with|over)",
  "(mad|crazy|nuts|wild|passionate) about",
  "can not get enough of",
  "(a|such a) sucker for",
];
/** And these, something the user dislikes. */
const DISLIKE_LEADS = [
  "can not stand",
  "(hate|loathe|detest|dislike|hated|loathed)",
  "not #Adverb? (into|a fan of|keen on|a big fan of)",
  "never (liked|enjoyed|been a fan of|been into|cared for)",
];
/** A value that points back into the chat ("I love that", "love how you...") is no taste. */
const POINTER = /^\s*(?:it|that|this|how|when|what|you|your|the way|to)\b/i;

export function readPreferences(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const read = (slot: "likes" | "dislikes", leads: readonly string[]) => {
    for (const lead of leads) {
      for (const f of find(
        clause,
        `^(i|we)? (am|are|have|have been|have always|have never)? #Adverb? ${lead}`,
      )) {
        if (!POINTER.test(f.after) && aboutUser(clause, f)) out.push(...taste(slot, f.after));
      }
    }
  };
  read("likes", LIKE_LEADS);
  read("dislikes", DISLIKE_LEADS);
  // "I'm a big Taylor Swift fan", "nothing beats a Sunday roast", "my guilty pleasure is reality TV".
  for (const f of find(
    clause,
    "^(i am|we are) (a|an|such a) (big|huge|massive|die-hard|diehard|great)? [<x>.+] (fan|fans)$",
  ))
    out.push(...taste("likes", f.groups.x ?? ""));
  for (const f of find(clause, "^nothing (beats|compares to)")) out.push(...taste("likes", f.after));
  for (const f of find(clause, "^my (guilty pleasure|weakness|obsession) (is|are)"))
    out.push(...taste("likes", f.after));
  for (const f of find(
    clause,
    "^[<x>.+] (is|are) my (absolute|all-time)? (favourite|favorite|fave|thing|jam)$",
  )) {
    if (!/^(?:it|this|that|he|she|they)\b/i.test(f.groups.x ?? ""))
      out.push(...taste("likes", f.groups.x ?? ""));
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
