import { tokenize } from "../model/index.js";
import { rescored } from "./query-ports.js";

const FIRST_PERSON = new Set(["i", "me", "my", "mine", "myself"]);
// What the assistant said before: "you mentioned / recommended / told me", "remind me of the store you
// listed", "our previous conversation". Not a request for something new ("can you suggest a hotel?").
const ASKS_WHAT_YOU_SAID = [
  /\byou\b[^.?!]*\b(said|told|recommended|suggested|mentioned|gave|provided|listed|shared|explained|wrote|answered|outlined|referred|referring|described|named)\b/i,
  /\bremind me\b/i,
  /\b(our|the) (previous|last|earlier) (conversation|chat|discussion|exchange)\b/i,
];

/** Whose turns a query asks about: the user's (first person), the assistant's, or neither. */
export function askedRole(query: string): "user" | "assistant" | null {
  if (ASKS_WHAT_YOU_SAID.some((pattern) => pattern.test(query))) return "assistant";
  return tokenize(query).some((t) => FIRST_PERSON.has(t)) ? "user" : null;
}

/**
 * A role prior on fused scores: a query in the first person ("What did I buy for my sister?", "Any tips
 * for my camera?") is about what the user said, so the user's turns gain `strength`; a query about what
 * the assistant said or suggested lifts the assistant's turns. In a chat log the assistant's long answers
 * share words with almost any question, and would otherwise crowd out the user's own statements. Off when
 * `off` (the query names a speaker: the speaker prior decides).
 */
export function applyRolePrior<T extends { score: number }>(
  hits: readonly T[],
  query: string,
  roleOf: (hit: T) => string | null | undefined,
  strength: number,
  off = false,
): T[] {
  const role = strength > 0 && !off ? askedRole(query) : null;
  if (!role) return [...hits];
  return rescored(hits, (hit) => (roleOf(hit) === role ? hit.score + strength : hit.score));
}

// A request for suggestions or advice: "any tips?", "can you suggest a hotel?", "what should I cook?".
const ASKS_FOR_SUGGESTIONS =
  /\b(suggest\w*|recommend\w*|tips?|advice|advise|ideas?|what should i|which should i|any good|help me (choose|pick|find|decide)|where should i|how (can|should) i)\b/i;
// What a user says of their tastes, habits and things: "I love spicy food", "I'm allergic to nuts",
// "I prefer window seats", "my favourite...", "I've been using a Fitbit", "I own a Trek".
const STATES_PREFERENCE =
  /\b(i|we)(\s+(really|also|usually|always|never|just|still|mostly|recently|absolutely))?\s+(like|love|prefer|enjoy|adore|hate|dislike|avoid|can't stand|cannot stand|don't (like|eat|drink)|own|use|have been using|'ve been using|am allergic|'m allergic|am into|'m into|am a fan|'m a fan)\b|\bmy (favou?rite|go-to)\b|\ballergic\b/i;

/** Whether a query asks for suggestions or advice. */
export function asksForSuggestions(query: string): boolean {
  return ASKS_FOR_SUGGESTIONS.test(query);
}

/** Whether a turn states the speaker's tastes, habits or belongings. */
export function statesPreference(text: string): boolean {
  return STATES_PREFERENCE.test(text);
}

/**
 * A preference prior on fused scores: when the user asks for suggestions or advice, what they said they
 * like, use, own or avoid (often in passing, in a session about something else) is what a good answer
 * builds on; the user's turns that say so gain `strength`. Off when `off` (the query names a speaker).
 */
export function applyPreferencePrior<T extends { score: number }>(
  hits: readonly T[],
  query: string,
  turnOf: (hit: T) => { role: string | null; text: string } | undefined,
  strength: number,
  off = false,
): T[] {
  if (strength <= 0 || off || !asksForSuggestions(query)) return [...hits];
  return rescored(hits, (hit) => {
    const turn = turnOf(hit);
    return turn?.role === "user" && statesPreference(turn.text) ? hit.score + strength : hit.score;
  });
}
