/**
 * Value capture and normalisation for the rule-based fact extractor. Each function returns null when the
 * text does not look like a clean value: a missed fact is cheaper than a wrong one.
 */
import {
  BAD_VALUE_START,
  NON_JOB_MODIFIERS,
  NOT_NAMES,
  NOT_PLACES,
  OCCUPATIONS,
  RELATIVES,
} from "./fact-lexicon.js";

/** Trims quotes, emoji, and punctuation from both ends and collapses spaces. */
export function cleanValue(text: string): string {
  return text
    .replace(/"/g, "")
    .replace(/^[^\p{L}\p{N}]+/u, "")
    .replace(/[^\p{L}\p{N})]+$/u, "")
    .replace(/\s+/g, " ")
    .trim();
}

const VALUE_END =
  /\s*(?:[,;:()!?"]|\.(?:\s|$)|\s[-–—]+\s|\b(?:because|since|but|so|which|who|whom|where|when|while|although|though|as well|too|now|anymore|any more|any longer|these days|nowadays|right now|at the moment|lately|currently|for now|again|if|unless|especially|like|than|whereas|except|until|before|after|and (?:I|my|we|it|that|then|so|also|they|he|she|now)|haha|lol|lmao|rn|atm|tbh|ngl|imo|fr)\b)/;

/** A list going on past a comma: ", blues and soul" after "jazz", ", shellfish, eggs or milk" after "nuts". */
const LIST_GOES_ON =
  /^(?:\s*,\s*[\p{L}'-]+(?:\s+[\p{L}'-]+){0,2}?(?=\s*,|\s+(?:and|or|&)\s))*\s*,?\s+(?:and|or|&)\s+[\p{L}'-]+(?:\s+[\p{L}'-]+){0,2}?(?=\s*$|\s*[,.;!?)]|\s+(?:because|but|so|which|too|as well|lol|haha)\b)/u;

/**
 * The items at the start of a tail, a list that a comma does not end: "nuts, shellfish and eggs so I ..."
 * -> "nuts, shellfish and eggs"; otherwise what cutValue keeps.
 */
export function cutList(tail: string, extraEnd?: RegExp): string {
  const end = VALUE_END.exec(tail);
  if (end && /^\s*,/.test(end[0])) {
    const list = LIST_GOES_ON.exec(tail.slice(end.index));
    const first = tail.slice(0, end.index);
    if (list && !extraEnd?.test(first)) return cleanValue(`${first}${list[0]}`);
  }
  return cutValue(tail, extraEnd);
}

/** The value at the start of a tail, cut at the first clause boundary ("hiking because..." -> "hiking"). */
export function cutValue(tail: string, extraEnd?: RegExp): string {
  let value = tail;
  for (const end of extraEnd ? [VALUE_END, extraEnd] : [VALUE_END]) {
    const m = end.exec(value);
    if (m) value = value.slice(0, m.index);
  }
  return cleanValue(value);
}

export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** A preference, hobby or plan value: a short phrase that does not start with a pronoun or filler. */
export function phrase(value: string, maxWords: number): string | null {
  const first = value.split(/\s+/)[0]?.toLowerCase() ?? "";
  if (!value || BAD_VALUE_START.has(first) || first.endsWith("ly") || wordCount(value) > maxWords)
    return null;
  // A pronoun or a verb inside means the words describe a situation, not a thing one likes or does.
  if (/\b(?:you|your|yours|not|never|it|this|that|these|those|them|him|her|is|are|was|were)\b/i.test(value))
    return null;
  return value;
}

/** The items of a list, all or nothing: one unclear item means the list was not parsed right. */
export function phrases(value: string, maxWords: number): string[] {
  const items = listItems(value);
  const clean = items.map((item) => phrase(item, maxWords));
  return clean.every((item) => item !== null) ? (clean as string[]) : [];
}

/** Splits "peanuts, shellfish and eggs" into its items. */
export function listItems(value: string): string[] {
  return value
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+/)
    .map(cleanValue)
    .filter(Boolean);
}

const NAME_WORD = "\\p{Lu}[\\p{L}\\p{M}'.&-]*|\\d+\\p{L}*";
const CONNECTOR = "of|de|da|do|del|della|di|la|le|los|las|am|upon|on|sur|&";
const PROPER = new RegExp(
  `^((?:the |The )?(?:${NAME_WORD})(?:\\s+(?:(?:${CONNECTOR})\\s+)?(?:${NAME_WORD}))*)(,\\s+(?:${NAME_WORD})(?:\\s+(?:${NAME_WORD}))*)?`,
  "u",
);
/** What may follow a name for it to be the whole name ("Berlin with my wife", not "the LGBTQ support group"). */
const AFTER_NAME =
  /^(?:$|[,.;:!?)"'\-–—]|\s+(?:in|at|for|since|now|as|and|with|last|this|next|because|where|which|who|from|on|to|by|after|before|when|but|so|about|over|until|while|already|yet|too|again|ago|recently|lately|anymore|these|right|full-time|part-time|though|although|home|here|there|back|together|now|\p{L}+ly)\b|\s+\d|\s+[^\p{L}\s])/u;

/** A place or organisation name at the start of a tail: "New York City now" -> "New York City". */
export function properName(tail: string): { value: string; rest: string } | null {
  const m = PROPER.exec(tail.trim());
  if (!m?.[1]) return null;
  let value = m[1];
  let rest = tail.trim().slice(value.length);
  // "Portland, Oregon" is one place; "Paris, London and Rome" is a list, so keep only "Paris".
  if (m[2] && AFTER_NAME.test(rest.slice(m[2].length)) && !/^\s+and\b/.test(rest.slice(m[2].length))) {
    value += m[2];
    rest = rest.slice(m[2].length);
  }
  if (!AFTER_NAME.test(rest)) return null;
  value = value.replace(/[.'-]+$/, "");
  const words = value.split(/[\s,]+/);
  if (words.length > 6 || words.every((w) => NOT_PLACES.has(w.toLowerCase()))) return null;
  if (NOT_PLACES.has(words[0]?.toLowerCase() ?? "") && words[0] !== "the" && words[0] !== "The") return null;
  return { value, rest };
}

/** A person's name (one or two capitalised words) at the start of a tail. */
export function personName(tail: string): { value: string; rest: string } | null {
  const m = /^(\p{Lu}[\p{Ll}'-]+(?: \p{Lu}[\p{Ll}'-]+)?)/u.exec(tail.trim());
  if (!m?.[1]) return null;
  const rest = tail.trim().slice(m[1].length);
  const first = m[1].split(" ")[0]?.toLowerCase() ?? "";
  if (!AFTER_NAME.test(rest) || NOT_NAMES.has(first) || first in RELATIVES) return null;
  return { value: m[1], rest };
}

const OCCUPATION_END = new Set(
  "at for in with and who from since now of by on but so because here there too anymore currently or that".split(
    " ",
  ),
);

/** An occupation after "a"/"an": "software engineer at Google" -> value "software engineer", rest " at Google". */
export function occupation(tail: string): { value: string; rest: string } | null {
  const words: string[] = [];
  let consumed = 0;
  for (const m of tail.matchAll(/([\p{L}][\p{L}'-]*)|([^\p{L}\s])/gu)) {
    if (m[2] || OCCUPATION_END.has(m[1]?.toLowerCase() ?? "")) break;
    words.push(m[1] ?? "");
    consumed = (m.index ?? 0) + (m[1]?.length ?? 0);
  }
  const head = words.at(-1)?.toLowerCase() ?? "";
  if (words.length === 0 || words.length > 4 || !OCCUPATIONS.has(head)) return null;
  if (words.some((w) => NON_JOB_MODIFIERS.has(w.toLowerCase()))) return null;
  // Acronyms keep their case (CEO, ER nurse); other words are lower-cased.
  const value = words.map((w) => (/^\p{Lu}{2,}$/u.test(w) ? w : w.toLowerCase())).join(" ");
  return { value, rest: tail.slice(consumed) };
}

/** "a" or "an" for a noun phrase. */
export function article(noun: string): string {
  // Acronyms are read letter by letter: "an ER nurse", "a CEO".
  if (/^\p{Lu}{2,}/u.test(noun)) return /^[AEFHILMNORSX]/.test(noun) ? "an" : "a";
  if (/^(?:uni|use|usu|eu|one|once)/i.test(noun)) return "a";
  return /^(?:[aeiou]|hour|honest|heir)/i.test(noun) ? "an" : "a";
}

/** "paint" -> "painting", "run" -> "running", "dance" -> "dancing". */
export function gerund(verb: string): string {
  const v = verb.toLowerCase();
  // "sing", "swing", "bring" end in -ing but are not gerunds.
  if (v.endsWith("ing") && !/^[^aeiou]*ing$/.test(v)) return v;
  if (v.endsWith("ie")) return `${v.slice(0, -2)}ying`;
  if (/[^aeiou]e$/.test(v) && v !== "be") return `${v.slice(0, -1)}ing`;
  if (v.length <= 4 && /^[^aeiou]*[aeiou][^aeiouwxy]$/.test(v)) return `${v}${v.at(-1)}ing`;
  return `${v}ing`;
}

/** "peanuts" -> "peanut", "strawberries" -> "strawberry", "shellfish" stays. */
export function singular(noun: string): string {
  if (/ies$/.test(noun)) return noun.replace(/ies$/, "y");
  if (/(?:ss|sh|ch|x|z|o)es$/.test(noun)) return noun.replace(/es$/, "");
  if (/[^su]s$/.test(noun) && !/(?:ss|us|is)$/.test(noun)) return noun.slice(0, -1);
  return noun;
}

/** Rewrites a user's words about themselves in the third person ("visit my parents" -> "visit their parents"). */
export function userPerson(text: string): string {
  return text
    .replace(/\bmyself\b/g, "themselves")
    .replace(/\bmine\b/g, "theirs")
    .replace(/\b(?:my|our)\b/g, "their")
    .replace(/\b(?:me|us)\b/g, "them")
    .replace(/\bI am\b/g, "they are")
    .replace(/\b(?:I|we)\b/g, "they");
}

const YOU_VERBS: Readonly<Record<string, string>> = { are: "is", were: "was", have: "has", do: "does" };

/** Rewrites an assistant's words to the user in the third person ("call your mom" -> "call their mom"). */
export function assistantPerson(text: string): string {
  return text
    .replace(/\byou (are|were|have|do)\b/gi, (_, verb: string) => `the user ${YOU_VERBS[verb.toLowerCase()]}`)
    .replace(/\byou (prefer|like|love|want|need|live|work|hate|enjoy)\b/gi, "the user $1s")
    .replace(/\byourself\b/gi, "themselves")
    .replace(/\byours\b/gi, "theirs")
    .replace(/\byour\b/gi, "their")
    .replace(/\byou\b/gi, "the user")
    .replace(/\bmy\b/g, "the assistant's")
    .replace(/\bme\b/g, "the assistant")
    .replace(/\bI\b/g, "the assistant");
}

const UNITS = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(" ");

/** An age in digits or in words: "34", "twenty-six", "forty two", "sixteen". */
export function wordNumber(text: string): number {
  const t = text.toLowerCase().trim();
  if (/^\d+$/.test(t)) return Number(t);
  const teen = TEENS.indexOf(t);
  if (teen >= 0) return 10 + teen;
  const m = /^([a-z]+)(?:[\s-]+([a-z]+))?$/.exec(t);
  const tens = TENS.indexOf(m?.[1] ?? "");
  const units = m?.[2] ? UNITS.indexOf(m[2]) : 0;
  return tens >= 2 && units >= 0 ? tens * 10 + units : Number.NaN;
}
