/**
 * Rules for what the user likes and cannot have: likes and dislikes, favourites, diet, allergies and
 * intolerances.
 */
import { BAD_VALUE_START, DIETS } from "./fact-lexicon.js";
import type { FactDraft, FactRule } from "./fact-patterns.js";
import {
  article,
  cleanValue,
  cutList,
  cutValue,
  gerund,
  listItems,
  phrase,
  phrases,
  singular,
  userPerson,
} from "./fact-values.js";

const LIKE_END =
  /\s(?:with|for|in the|on (?:weekends|the weekend|sundays|saturdays)|at|every|whenever|all the time|a lot|so much|very much|more|most|the most)\b/;
/** Values that say nothing on their own ("I love spending time with ...", "I like playing for fun"). */
const VACUOUS = new Set(
  "going doing playing working trying getting making taking coming using looking spending time".split(" "),
);

/** Liked or disliked things: "to paint" becomes "painting"; "the" stays only before a name ("the Beatles"). */
function likedItems(tail: string): string[] {
  let body = tail.replace(/^how to /, "to ").replace(/^to (?:just|really|also|always|actually) /, "to ");
  const infinitive = /^to (\w+)(.*)$/.exec(body);
  if (infinitive) {
    if (BAD_VALUE_START.has(infinitive[1] ?? "")) return [];
    body = `${gerund(infinitive[1] ?? "")}${infinitive[2] ?? ""}`;
  }
  // "the color and texture": the article covers the whole list, and it points at something in the chat.
  if (/^the \p{Ll}/u.test(body)) return [];
  const items = phrases(cutList(body, LIKE_END), 4).map(userPerson);
  return items.some((item) => VACUOUS.has(item.toLowerCase())) ? [] : items;
}

const preference =
  (slot: "likes" | "dislikes", verbs: Readonly<Record<string, string>>, confidence: number) =>
  (m: RegExpExecArray): FactDraft[] => {
    const says = verbs[m[1] ?? ""] ?? (m[1] ?? "").replace(/^am\b/, "is");
    return likedItems(m[2] ?? "").map((value) => ({ slot, value, says: `${says} ${value}`, confidence }));
  };

const LIKE_VERBS: Readonly<Record<string, string>> = {
  love: "loves",
  like: "likes",
  enjoy: "enjoys",
  adore: "adores",
  "have loved": "loves",
  "have always loved": "loves",
  "have enjoyed": "enjoys",
  "have been enjoying": "enjoys",
  "am loving": "loves",
};
const DISLIKE_VERBS: Readonly<Record<string, string>> = {
  hate: "hates",
  dislike: "dislikes",
  detest: "detests",
  loathe: "loathes",
  "cannot stand": "cannot stand",
  "do not like": "does not like",
  "do not enjoy": "does not enjoy",
  "do not care for": "does not care for",
};

const GENERIC_FAVOURITE = new Set(
  "thing things part moment memory way bit kind type one feeling aspect quote".split(" "),
);

function favourite(rawKey: string, rawValue: string, confidence: number): FactDraft | null {
  // One spelling per slot, the one its name is written in ("favourite colour").
  const key = rawKey.toLowerCase().replace(/\bcolor\b/, "colour");
  const value = phrase(rawValue, 6);
  if (!value || GENERIC_FAVOURITE.has(key.split(" ").at(-1) ?? "")) return null;
  if (/^the (?:one|same|best|most|way|thing|kind|type|part)\b/i.test(value)) return null;
  const slot = `favourite.${key.replace(/\s+/g, "_")}`;
  return { slot, value, says: `is ${value}`, about: `favourite ${key}`, confidence };
}

function allergies(
  slot: "allergy" | "intolerance",
  tail: string,
  verb: string,
  confidence: number,
): FactDraft[] {
  return listItems(cutList(tail, /\s(?:so|which|and it)\b/))
    .map((item) => item.replace(/^the /, "").toLowerCase())
    .filter((item) => phrase(item, 3))
    .map((item) => ({ slot, value: singular(item), says: `${verb} ${item}`, confidence }));
}

const NOT_AN_ALLERGEN = new Set(
  "seasonal food bad severe many some few lot lots several bunch terrible mild".split(" "),
);

const DIET = [...DIETS].join("|");

export const PREFERENCE_RULES: readonly FactRule[] = [
  {
    re: /^I (love|like|enjoy|adore|have loved|have always loved|have enjoyed|have been enjoying|am loving) (.+)$/,
    build: (m) => preference("likes", LIKE_VERBS, m[1] === "like" ? 0.7 : 0.8)(m),
  },
  {
    re: /^I (am (?:a (?:big |huge |massive |great )?fan of|into|passionate about|obsessed with|crazy about|keen on|fond of)) (.+)$/,
    build: preference("likes", {}, 0.75),
  },
  {
    re: /^I (hate|dislike|detest|loathe|cannot stand|do not like|do not enjoy|do not care for|am not a fan of|am not into) (.+)$/,
    build: preference("dislikes", DISLIKE_VERBS, 0.75),
  },
  {
    re: /^I (?:prefer|have always preferred|generally prefer) (.+)$/,
    build: (m) => {
      const tail = m[1] ?? "";
      const first = /^to /.test(tail)
        ? tail
        : (tail.split(/ (?:over|to|rather than|instead of|more than) /)[0] ?? "");
      return likedItems(first).map((value) => ({
        slot: "likes",
        value,
        says: `prefers ${value}`,
        confidence: 0.75,
      }));
    },
  },
  {
    re: /^(?:I|we) (?:switched|have switched|made the switch) from (.+?) to (.+)$/,
    build: (m) => {
      const [before] = likedItems(m[1] ?? "");
      const [after] = likedItems(m[2] ?? "");
      if (!before || !after) return null;
      return [
        { slot: "likes", value: after, says: `switched from ${before} to ${after}`, confidence: 0.65 },
        { slot: "likes", value: before, says: `likes ${before}`, confidence: 0.6, negated: true },
      ];
    },
  },
  {
    // "fave band rn is Paramore": the time said after the kind is not part of it.
    re: /^(?:my )?(?:all-time |absolute |current )?(?:favou?rite|fave?) (\w+(?: \w+)??)(?: (?:rn|atm|right now|at the moment|currently|these days|ever|of all time))? (?:is|are|has to be|has always been) (.+)$/,
    build: (m) => favourite(m[1] ?? "", cutValue(m[2] ?? ""), 0.85),
  },
  {
    re: /^(.+?) (?:is|are) my (?:all-time |absolute )?(?:favou?rite|fave?) (\w+(?: \w+)?)(?=$|[,.!;]| (?:ever|of all time|right now|now|these days)\b)/,
    build: (m) => favourite(m[2] ?? "", cleanValue(m[1] ?? ""), 0.8),
  },
  {
    re: new RegExp(`^(?:I am|we are) (?:a |an )?(${DIET})(?=$|[,.!;]|\\s+(?:now|and|since|for|too)\\b)`),
    build: (m) => ({
      slot: "diet",
      value: (m[1] ?? "").replace("pescetarian", "pescatarian"),
      says: `is ${m[1]}`,
      confidence: 0.85,
    }),
  },
  {
    re: new RegExp(
      `^I (?:went|have gone|became|have become|turned|have turned|have been) (?:a |an |fully |completely )?(${DIET})\\b`,
    ),
    build: (m) => ({
      slot: "diet",
      value: (m[1] ?? "").replace("pescetarian", "pescatarian"),
      says: `is ${m[1]}`,
      confidence: 0.85,
    }),
  },
  {
    re: /^I am (?:very |severely |deathly |highly |super |mildly |extremely )?allergic to (.+)$/,
    build: (m) => allergies("allergy", m[1] ?? "", "is allergic to", 0.9),
  },
  {
    re: /^I have (?:an )?allerg(?:y|ies) to (.+)$/,
    build: (m) => allergies("allergy", m[1] ?? "", "is allergic to", 0.9),
  },
  {
    re: /^I have (?:a |an )?(?:severe |bad |mild |serious |life-threatening )?((?:\w+ )?\w+) allerg(?:y|ies)\b/,
    build: (m) => {
      const item = (m[1] ?? "").toLowerCase();
      if (item.split(" ").some((w) => NOT_AN_ALLERGEN.has(w)) || !phrase(item, 2)) return null;
      return {
        slot: "allergy",
        value: singular(item),
        says: `has ${article(item)} ${item} allergy`,
        confidence: 0.85,
      };
    },
  },
  {
    re: /^I (?:am (lactose|gluten|fructose|histamine|dairy|soy|wheat) intolerant|have (?:a |an )?(lactose|gluten|fructose|histamine|dairy|soy|wheat) intolerance)\b/,
    build: (m) => {
      const value = m[1] ?? m[2] ?? "";
      return { slot: "intolerance", value, says: `is ${value} intolerant`, confidence: 0.9 };
    },
  },
  {
    re: /^I am (?:intolerant|sensitive) to (.+)$/,
    build: (m) => allergies("intolerance", m[1] ?? "", "is intolerant to", 0.8),
  },
  {
    re: /^I have (?:celiac|coeliac) disease\b/,
    build: () => ({ slot: "intolerance", value: "gluten", says: "has celiac disease", confidence: 0.85 }),
  },
];
