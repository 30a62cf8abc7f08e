/**
 * Matching slot patterns on a parsed clause (compromise's match syntax: `#Place+` a tagged run, `{live}`
 * any form of a verb, `[<name>...]` a captured group), and deciding whether the user is the subject.
 */
import { PETS, RELATIVES } from "../fact-lexicon.js";
import type { Clause } from "./clauses.js";
import type { Nlp } from "./parser.js";

export interface Found {
  /** The captured groups' text, by name. */
  readonly groups: Readonly<Record<string, string>>;
  /** The clause before the match: where its subject and any negation are. */
  readonly before: string;
  /** The matched words. */
  readonly text: string;
  /** Where the match starts in the clause's text. */
  readonly start: number;
  /** The clause after the match: where a value, a time or a list goes on. */
  readonly after: string;
}

type Compiled = ReturnType<Nlp["parseMatch"]>;
/**
 * Patterns compiled once: they are constants of this folder, and compiling a pattern costs about four
 * times matching it.
 */
const COMPILED = new Map<string, Compiled>();

function compile(nlp: Nlp, pattern: string): Compiled {
  let compiled = COMPILED.get(pattern);
  if (!compiled) {
    compiled = nlp.parseMatch(pattern);
    COMPILED.set(pattern, compiled);
  }
  return compiled;
}

/** A match made by hand (a regular expression, a verb): the words at `start`, and the clause before them. */
export function foundAt(clause: Clause, start: number, text: string): Found {
  return {
    groups: {},
    before: clause.text.slice(0, start),
    text,
    start,
    after: clause.text.slice(start + text.length),
  };
}

/** Every match of a pattern in the clause. */
export function find(clause: Clause, pattern: string): Found[] {
  const compiled = compile(clause.nlp, pattern);
  const matches = clause.doc.match(compiled as never);
  const out: Found[] = [];
  for (let i = 0; i < matches.length; i++) {
    const m = matches.eq(i);
    const offset = (m.json({ offset: true })[0] as { offset?: { start: number } } | undefined)?.offset?.start;
    const groups: Record<string, string> = {};
    // A single match's view forgets its groups; matching the pattern again on it recovers them.
    const captured = m.match(compiled as never).groups() as Record<string, { text(): string }>;
    for (const [name, view] of Object.entries(captured)) {
      groups[name] = view.text().trim();
    }
    const start = offset ?? 0;
    const text = m.text();
    out.push({
      groups,
      before: clause.text.slice(0, start),
      text,
      start,
      after: clause.text.slice(start + text.length),
    });
  }
  return out;
}

const PEOPLE = [
  ...Object.keys(RELATIVES),
  ...Object.keys(PETS),
  "friend friends mate mates bestie boss coworker co-worker colleague colleagues neighbour neighbor flatmate",
  "roommate roomate housemate manager teammate landlord landlady kid kids child children twins family",
  "sis bro bf gf bff hubby wifey missus kiddo",
  "parents grandparents teacher doctor client customer students team company wife's husband's",
].join(" ");
/** Kin chat names without "my" at the start of a clause: "Dad's a plumber", "wife's a GP btw". */
export const BARE_KIN =
  "mum|mom|mam|dad|nan|nana|gran|granny|grandad|grandma|grandpa|hubby|wifey|wife|husband|sister|sis|brother|bro|son|daughter|bf|gf|boyfriend|girlfriend";
const OTHER_SUBJECT = new RegExp(
  `\\b(?:he|she|they|you|his|her|their|your|someone|somebody|people|everyone|everybody|nobody)\\b|` +
    `\\b(?:my|our)\\s+(?:[\\p{L}'-]+\\s+){0,2}?(?:${PEOPLE.split(/\s+/).join("|")})\\b|` +
    // "Dad works at Tesco": kin named without "my" at the start of the clause.
    `^\\s*(?:${BARE_KIN})\\b`,
  "iu",
);
const NEGATION =
  /\b(?:not|never|no|nor|don't|dont|doesn't|doesnt|didn't|didnt|haven't|havent|hasn't|isn't|wasn't|aren't|cannot|can't|cant|without)\b/i;

/**
 * Whether a match speaks about the user: it starts with I or we, or nothing before it in the clause
 * names someone else ("my sister lives in Boston", "Taylor Swift lives in Nashville").
 */
export function aboutUser(clause: Clause, found: Found): boolean {
  if (USER_FIRST.test(found.text)) return true;
  // "me and my girlfriend live in Porto": the user is one of the subjects.
  if (/\b(?:me|i) and my\b|\bmy [\p{L}'-]+(?: [\p{L}'-]+)? and (?:i|me)\b/iu.test(found.before)) return true;
  // "my doctor says I have high blood pressure": the user is the subject nearest the predicate.
  if (/\b(?:i|we)\s*$/i.test(found.before)) return true;
  if (OTHER_SUBJECT.test(found.before)) return false;
  // "The main character in my novel is a 40-year-old detective": a thing named first is the subject.
  const thing = THING_FIRST.exec(found.before);
  // "the move to Lisbon is off, we're going to Valencia": the user is the subject again after it.
  if (thing && !/\b(?:i|we)\b/i.test(found.before.slice(thing[0].length))) return false;
  if (USER_FIRST.test(found.before.trim())) return true;
  // A person named before the predicate is its subject ("Keanu Reeves rides motorcycles").
  return !terms(clause).some((t) => t.start < found.start && t.tags.includes("Person"));
}

/** A clause that opens on a thing and its verb ("the main character ... is"), not on a plan ("the plan is to"). */
const THING_FIRST =
  /^\s*(?:the|a|an|this|that|these|those)\s+(?!(?:plan|goal|aim|idea|hope|dream|reason|thing|truth|point|fact)\b)(?:[\p{L}'-]+\s+){1,6}?(?:is|was|are|were)\b/iu;

/** A clause that starts with the user as its subject: "I ...", "we ...", "im ...", "my name is ...". */
const USER_FIRST = /^(?:i|we|im|ive|i'm|i've|my name)\b/i;

interface Term {
  readonly start: number;
  readonly tags: readonly string[];
}
/** Each clause's terms and verbs, read from its parse once however many readers ask. */
const TERMS = new WeakMap<Clause, Term[]>();
const VERBS = new WeakMap<Clause, Verb[]>();

function terms(clause: Clause): Term[] {
  let list = TERMS.get(clause);
  if (!list) {
    const sentences = clause.doc.json({ offset: true }) as Array<{
      terms: Array<{ tags: string[]; offset: { start: number } }>;
    }>;
    list = sentences.flatMap((s) => s.terms.map((t) => ({ start: t.offset.start, tags: t.tags })));
    TERMS.set(clause, list);
  }
  return list;
}

/** Whether the clause denies what follows ("I don't have a car"): a negation before the value. */
export function denied(found: Found, valueAt = found.text.length): boolean {
  const lead = found.before.split(/\s+/).slice(-4).join(" ");
  return NEGATION.test(lead) || NEGATION.test(found.text.slice(0, valueAt));
}

/** Title case for a name typed in lower case ("mishka" -> "Mishka"); mixed case is kept. */
export function asName(text: string): string {
  const clean = text.replace(/[^\p{L}\p{N}\s'.-]/gu, "").trim();
  return clean === clean.toLowerCase() ? clean.replace(/(^|[\s-])\p{L}/gu, (c) => c.toUpperCase()) : clean;
}

/** The match speaks of the past as over: "used to live in Chicago", "I don't live in Paris anymore". */
export function over(found: Found): boolean {
  const lead = `${found.before.split(/\s+/).slice(-3).join(" ")} ${found.text}`;
  const after = found.after;
  return (
    /\b(?:used to|no longer|formerly|previously)\b/i.test(lead) ||
    /^\W*(?:anymore|any more|any longer)\b/i.test(after)
  );
}

/** A verb of the clause as compromise reads it: its infinitive, form ("present-progressive"), auxiliary. */
interface Verb {
  readonly text: string;
  readonly infinitive: string;
  readonly form: string;
  readonly auxiliary: string;
  readonly negative: boolean;
  readonly start: number;
}

export function clauseVerbs(clause: Clause): Verb[] {
  const known = VERBS.get(clause);
  if (known) return known;
  const verbs = readVerbs(clause);
  VERBS.set(clause, verbs);
  return verbs;
}

function readVerbs(clause: Clause): Verb[] {
  const list = clause.doc.verbs().json({ offset: true }) as Array<{
    text: string;
    offset?: { start: number };
    verb?: { infinitive?: string; auxiliary?: string; negative?: boolean; grammar?: { form?: string } };
  }>;
  return list.map((v) => ({
    text: v.text.trim(),
    infinitive: (v.verb?.infinitive ?? "").toLowerCase(),
    form: v.verb?.grammar?.form ?? "",
    auxiliary: (v.verb?.auxiliary ?? "").toLowerCase(),
    negative: v.verb?.negative === true,
    start: v.offset?.start ?? 0,
  }));
}
