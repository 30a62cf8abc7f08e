/**
 * Likes and dislikes said without a subject, as chat drops it ("can't stand coriander", "huge fan of the
 * Arctic Monkeys"), or said of the thing ("pineapple on pizza is gross"). The pattern rules read the
 * ones that start with "I".
 */
import type { FactDraft } from "../fact-patterns.js";
import { cutValue, phrase } from "../fact-values.js";
import type { Clause } from "./clauses.js";
import { find } from "./match.js";

const taste = (slot: "likes" | "dislikes", raw: string): FactDraft[] => {
  const value = phrase(cutValue(raw).replace(/^(?:a good|a|an|the|all|any)\s+/i, ""), 5);
  if (!value) return [];
  return [{ slot, value, says: `${slot === "likes" ? "likes" : "dislikes"} ${value}`, confidence: 0.65 }];
};

export function readPreferences(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const rest = (start: number, length: number) => clause.text.slice(start + length);
  for (const f of find(clause, "^#Adverb? (love|adore|like|enjoy|dig)")) {
    if (!/^\s*(?:it|that|this|how|when|you|your|the way)\b/i.test(rest(f.start, f.text.length)))
      out.push(...taste("likes", rest(f.start, f.text.length)));
  }
  for (const f of find(clause, "^#Adverb? (huge|big|massive|great)? fan of"))
    out.push(...taste("likes", rest(f.start, f.text.length)));
  for (const f of find(clause, "^#Adverb? can not stand"))
    out.push(...taste("dislikes", rest(f.start, f.text.length)));
  for (const f of find(clause, "^#Adverb? (hate|loathe|detest|dislike)"))
    out.push(...taste("dislikes", rest(f.start, f.text.length)));
  for (const f of find(clause, "^#Adverb? not #Adverb? (into|a fan of|keen on|a big fan of)"))
    out.push(...taste("dislikes", rest(f.start, f.text.length)));
  for (const f of find(
    clause,
    "^[<x>.+] (is|are) #Adverb? (gross|disgusting|vile|overrated|the worst|awful|horrible|rank|grim)",
  )) {
    const thing = f.groups.x ?? "";
    if (!/^(?:it|this|that|he|she|they|everything|my|your|the weather|life|work)\b/i.test(thing))
      out.push(...taste("dislikes", thing));
  }
  return out;
}
