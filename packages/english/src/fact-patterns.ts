/**
 * Rule types shared by the fact patterns, and the rules for who the user is: name, age, origin, where they
 * live. Rules run on one normalised clause ("I am a nurse at St Mary's").
 */
import { personName, properName } from "./fact-values.js";

/** One fact a rule found, before the extractor adds subject, evidence and negation. */
export interface FactDraft {
  slot: string;
  value: string;
  confidence: number;
  /** The predicate, present tense: the fact text reads "<who> <says>." ("lives in Berlin"). */
  says: string;
  /** The relative the fact is about ("sister" -> "The user's sister ..."). */
  about?: string;
  /** The rule itself states a retraction ("I quit my job at Acme"). */
  negated?: boolean;
}

export interface FactRule {
  re: RegExp;
  build: (m: RegExpExecArray) => FactDraft | FactDraft[] | null;
}

const SINGLE_SLOTS = new Set([
  "name",
  "age",
  "lives_in",
  "from",
  "works_as",
  "works_at",
  "studies",
  "school",
  "diet",
  "marital_status",
  "partner",
  "children",
]);

/** Single-valued slots hold one current value: a new value supersedes the old one. */
export function isSingleSlot(slot: string): boolean {
  return (
    SINGLE_SLOTS.has(slot) || /^(?:favourite\.|[a-z]+\.(?:occupation|lives_in|works_at|age)$)/.test(slot)
  );
}

export const place =
  (slot: string, verb: string, confidence: number) =>
  (m: RegExpExecArray): FactDraft | null => {
    const found = properName(m[1] ?? "");
    // "born in 1988" names a year, not a place.
    return found && !/^\d+$/.test(found.value)
      ? { slot, value: found.value, says: `${verb} ${found.value}`, confidence }
      : null;
  };

const named =
  (confidence: number, strict = false) =>
  (m: RegExpExecArray): FactDraft | null => {
    const found = personName(m[1] ?? "");
    // After a bare "I am", only a clause that ends with the name is an introduction ("I am Maya").
    if (!found || (strict && !/^(?:$|[,.!]|\s+(?:and|from|here)\b)/.test(found.rest))) return null;
    return { slot: "name", value: found.value, says: `is named ${found.value}`, confidence };
  };

const age = (confidence: number) => (m: RegExpExecArray) => {
  const years = Number(m[1]);
  return years > 0 && years < 120
    ? { slot: "age", value: String(years), says: `is ${years} years old`, confidence }
    : null;
};

const AGE_END =
  "(?= years old| years of age| yrs old| yo\\b| y/o|$|[,.!;]|\\s+(?:and|now|this|but|so|today)\\b)";

const LIVE = "(?:live|am living|have been living|reside|am residing|am based|am located|am settled)";
const MOVE = "(?:moved|have moved|relocated|have relocated|moved back|moved over|moved out)";

export const IDENTITY_RULES: readonly FactRule[] = [
  { re: /^my name is (.+)$/, build: named(0.95) },
  { re: /^(?:you can |please )?call me (.+)$/, build: named(0.85) },
  { re: /^I go by (.+)$/, build: named(0.85) },
  { re: /^I am (\p{Lu}.*)$/u, build: named(0.75, true) },
  { re: new RegExp(`^I am (\\d{1,3})${AGE_END}`), build: age(0.9) },
  {
    re: /^I (?:turned|have turned) (\d{1,3})(?=$|[,.!;]|\s+(?:last|this|yesterday|today|on|in)\b)/,
    build: age(0.85),
  },
  { re: /^my age is (\d{1,3})\b/, build: age(0.9) },
  { re: /^I am from (.+)$/, build: place("from", "is from", 0.85) },
  { re: /^I come from (.+)$/, build: place("from", "comes from", 0.8) },
  {
    re: /^I (?:grew up|was raised|was born and raised|was born) in (.+)$/,
    build: place("from", "grew up in", 0.75),
  },
  {
    re: new RegExp(`^(?:I|we) ${LIVE} (?:here )?(?:in|out of) (.+)$`),
    build: place("lives_in", "lives in", 0.9),
  },
  { re: /^(?:we|I) (?:are|have been) living (?:here )?in (.+)$/, build: place("lives_in", "lives in", 0.85) },
  { re: /^I have lived (?:here )?in (.+?),? (?:for|since) .+$/, build: place("lives_in", "lives in", 0.75) },
  {
    re: new RegExp(`^(?:I|we) ${MOVE} (?:back |over |out )?to (.+)$`),
    build: place("lives_in", "moved to", 0.85),
  },
  // "I moved from UCL to Warwick for the second year" changed schools: the parsed change reader has it.
  {
    re: new RegExp(
      `^(?:I|we) ${MOVE} from (?!.*\\b(?:uni|university|college|school|semester|course|degree|(?:first|second|third|final) year|job|work|role|company)\\b).+? to (.+)$`,
    ),
    build: place("lives_in", "moved to", 0.85),
  },
  { re: /^I (?:settled|have settled) (?:down )?in (.+)$/, build: place("lives_in", "settled in", 0.8) },
  { re: /^I call (.+ home)$/, build: place("lives_in", "lives in", 0.8) },
];
