/**
 * Self-introductions as chat writes them: a name, then a list ("Chloe here, 29, married and living in
 * Perth", "This is Greg, 52, from Manchester", "yo its marcus, 24 lol"). Each item is written out as the
 * first-person clause it stands for ("I am 29 years old", "I am married"), so the slot readers, which
 * read who a clause is about from its subject, read the list as the user's.
 */
import { MARITAL_STATUSES, NOT_NAMES } from "../fact-lexicon.js";
import { wordNumber } from "../fact-values.js";

const GREETING = String.raw`(?:(?:he+y+|hi+|hiya|hello+|yo+|ok|okay|so|quick intro)\b[\s,!:]*)*`;
const NAME = String.raw`\p{Lu}[\p{L}'-]+`;
/**
 * An introduction and what follows it after a comma or a bang. A name in lower case counts only after
 * "its" or "this is" ("yo its marcus"); after "I'm" a lower-case word is a state ("I'm tired, 29").
 */
const INTRO = new RegExp(
  String.raw`^${GREETING}(?:(?:i am|im|i'm)\s+(${NAME})(?:\s+(?:here|btw))?|(?:its|it's|it is|this is)\s+(${NAME}|\p{Ll}[\p{L}'-]+)(?:\s+(?:here|btw))?|(${NAME})\s+here)\s*[,!]+\s*(.+)$`,
  "iu",
);
/** Chat's closing noise on an item: "24 lol". */
const NOISE = /\s+(?:lol|lmao|haha+|tbh|fr|btw|xx?)$/i;
const STATUS = new RegExp(`^(?:${MARITAL_STATUSES.join("|")})$`, "i");

/** An item without chat's closing noise or its full stop. */
const clean = (raw: string) =>
  raw
    .trim()
    .replace(NOISE, "")
    .replace(/[.!]+$/, "");

/** The clause an item of an introduction's list stands for: an age, a status, an origin, a home. */
function listed(raw: string): string | null {
  const text = clean(raw);
  const age = /^(\d{2})\s*(?:(?:yo|y\/o|yrs?|years?)(?:\s+old)?)?$/i.exec(text)?.[1];
  // An age in words ("forty-four"), read as the age reader reads it.
  const inWords = /^\p{L}/u.test(text) && wordNumber(text) >= 20;
  if (age || inWords) return `I am ${age ?? text} years old`;
  if (STATUS.test(text)) return `I am ${text.toLowerCase()}`;
  if (/^(?:originally\s+)?from\s+\S/i.test(text)) return `I am ${text}`;
  if (/^(?:(?:currently|now)\s+)?(?:living|based|settled)\s+(?:in|near|outside)\s+\S/i.test(text))
    return `I am ${text}`;
  if (/^live\s+(?:in|near|outside)\s+\S/i.test(text)) return `I ${text}`;
  if (/^(?:an?\s+)?(?:mum|mom|dad|mother|father|parent) of\s+\S/i.test(text))
    return `I am ${/^an?\s/i.test(text) ? "" : "a "}${text}`;
  return null;
}

/**
 * "Chloe here, 29, married and living in Perth" -> the name's clause and one clause an item; `after` is
 * what the sentence says after a dash or a bracket ("it's Kwame, not Kwesi - my brother").
 */
export function introduction(clause: string, after = ""): string[] {
  const m = INTRO.exec(clause);
  const name = m?.[1] ?? m?.[2] ?? m?.[3];
  const tail = m?.[4] ?? "";
  // The flag i lets \p{Lu} match any case: a name after "I'm" or before "here" must be capitalised.
  const cased = Boolean(m?.[2]) || /^\p{Lu}/u.test(name ?? "");
  if (!m || !name || !cased || NOT_NAMES.has(name.toLowerCase())) return [clause];
  const head = m[2]
    ? `my name is ${name.charAt(0).toUpperCase()}${name.slice(1)}`
    : clause.slice(0, clause.length - tail.length).replace(/[\s,!]+$/, "");
  // "it's Ana, not Anna" corrects the user's name; "it's Kwame, not Kwesi - my brother" someone else's.
  if (/^not\s/i.test(tail))
    return /\b(?:my|our)\s+\p{L}/iu.test(`${tail} ${after}`) ? [clause] : [`${head}, ${tail}`];
  // The tail is a list only when it opens on an item of one ("29, married"); otherwise it is a clause
  // of its own ("I'm Jess, I love fish and chips"), left whole.
  const items = tail.split(/\s*,\s*|\s+and\s+/).filter((s) => s.trim());
  if (!listed(items[0] ?? "")) return [head, tail];
  return [head, ...items.map(later)];
}

/**
 * A later item of a list that opened like an introduction: an item of one, a job ("retired teacher",
 * "a nurse") or a place said bare ("29, London"); the readers judge what it names.
 */
function later(raw: string): string {
  const known = listed(raw);
  if (known) return known;
  const text = clean(raw);
  if (/^\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?$/u.test(text)) return `I live in ${text}`;
  if (/^(?:an?\s+)?\p{Ll}[\p{Ll}-]+(?:\s+\p{Ll}[\p{Ll}-]+){0,2}$/u.test(text))
    return `I am ${/^an?\s/i.test(text) ? "" : /^[aeiou]/i.test(text) ? "an " : "a "}${text}`;
  return text;
}
