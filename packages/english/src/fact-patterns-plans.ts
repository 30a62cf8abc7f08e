/**
 * Rules for the user's plans ("I'm planning to visit Japan next month") and for what the assistant
 * recommended, promised or did for this user ("I'll remind you to call your mom").
 */
import { FUTURE_TIME } from "./fact-lexicon.js";
import type { FactDraft, FactRule } from "./fact-patterns.js";
import { assistantPerson, cutValue, userPerson, wordCount } from "./fact-values.js";

const ING_BASE: Readonly<Record<string, string>> = {
  visiting: "visit",
  going: "go",
  moving: "move",
  traveling: "travel",
  travelling: "travel",
  flying: "fly",
  starting: "start",
  taking: "take",
  getting: "get",
  running: "run",
  buying: "buy",
  attending: "attend",
  heading: "head",
  spending: "spend",
  seeing: "see",
  applying: "apply",
  opening: "open",
  adopting: "adopt",
  building: "build",
  hosting: "host",
  throwing: "throw",
  joining: "join",
  quitting: "quit",
  retiring: "retire",
  selling: "sell",
  having: "have",
  meeting: "meet",
  celebrating: "celebrate",
  leaving: "leave",
  learning: "learn",
};

/** Verbs that make a "plan" out of conversation ("I'm going to be honest", "I will try"). */
const NOT_A_PLAN = new Set(
  "be try think say tell let need miss keep do check look talk ask answer reply stop continue remember wait admit give share send show help explain sleep bed it that this so a an the to not never always just also really definitely".split(
    " ",
  ),
);
const PLAN_END = /\s(?:because|so that|which)\b/;

/** A plan's verb phrase in the third person, or null when it is chatter rather than a plan. */
function planValue(tail: string, needsDate: boolean): string | null {
  const words = cutValue(tail, PLAN_END).split(" ");
  const first = words[0]?.toLowerCase() ?? "";
  words[0] = ING_BASE[first] ?? words[0] ?? "";
  const value = words.join(" ");
  if (
    !value ||
    NOT_A_PLAN.has(words[0] ?? "") ||
    wordCount(value) > 10 ||
    /\b(?:you|your|it|this|that|them)\b/i.test(value.replace(FUTURE_TIME, ""))
  )
    return null;
  // Without a date, only travel to a named place is clearly a plan ("I will visit Japan").
  if (
    needsDate &&
    !FUTURE_TIME.test(value) &&
    !/^(?:visit|travel to|fly to|move to|go to|head to|relocate to) \p{Lu}/u.test(value)
  ) {
    return null;
  }
  return userPerson(value);
}

function plan(tail: string, confidence: number, needsDate: boolean): FactDraft | null {
  const value = planValue(tail, needsDate);
  return value ? { slot: "plan", value, says: `plans to ${value}`, confidence } : null;
}

/** "going to Japan" is a destination; "going to start a new job" is a verb. */
function goingTo(tail: string): FactDraft | null {
  const destination = /^(?:the |a |an |\p{Lu})/u.test(tail);
  return plan(destination ? `go to ${tail}` : tail, 0.75, true);
}

const PLANNING_CONFIDENCE: Readonly<Record<string, number>> = {
  planning: 0.8,
  intending: 0.8,
  preparing: 0.7,
  hoping: 0.6,
  aiming: 0.65,
};

const assistant = (slot: string, value: string, says: string, confidence: number): FactDraft => ({
  slot,
  value,
  says,
  confidence,
});

const ADVICE_END = /\s(?:because|since|as it|as they|which|so that)\b/;

function recommended(tail: string): FactDraft | null {
  const body = tail.replace(/^that /, "");
  const toUser = /^(?:you|the user) (?:should |to |could )?(.+)$/.exec(body);
  const value = assistantPerson(cutValue(toUser?.[1] ?? body, ADVICE_END));
  if (!value || /^(?:it|this|that|these|those|them|so|not)\b/i.test(value) || wordCount(value) > 14)
    return null;
  const says = toUser ? `recommended that the user ${value}` : `recommended ${value}`;
  return assistant("assistant.recommended", value, says, 0.75);
}

export const PLAN_RULES: readonly FactRule[] = [
  {
    re: /^I am (planning|hoping|intending|preparing|aiming) (?:to|on) (.+)$/,
    build: (m) => plan(m[2] ?? "", PLANNING_CONFIDENCE[m[1] ?? ""] ?? 0.6, false),
  },
  { re: /^I (?:plan|intend) (?:to|on) (.+)$/, build: (m) => plan(m[1] ?? "", 0.8, false) },
  { re: /^I (?:have decided|decided) to (.+)$/, build: (m) => plan(m[1] ?? "", 0.7, false) },
  { re: /^I am about to (.+)$/, build: (m) => plan(m[1] ?? "", 0.7, false) },
  {
    re: /^I am planning (a|an) ((?:\w+ )?(?:trip|vacation|holiday|visit|move|party|wedding|getaway|celebration))\b(.*)$/,
    build: (m) => {
      const value = userPerson(`${m[2]} ${cutValue(m[3] ?? "", PLAN_END)}`.trim());
      return { slot: "plan", value, says: `is planning ${m[1]} ${value}`, confidence: 0.75 };
    },
  },
  { re: /^I will (.+)$/, build: (m) => plan(m[1] ?? "", 0.75, true) },
  { re: /^I am going to (.+)$/, build: (m) => goingTo(m[1] ?? "") },
  {
    re: /^I am ((?:visiting|moving|flying|traveling|travelling|heading|starting|attending|running|taking|hosting|getting|having|meeting|throwing|celebrating|spending|leaving) .+)$/,
    build: (m) => plan(m[1] ?? "", 0.75, true),
  },
];

export const ASSISTANT_RULES: readonly FactRule[] = [
  { re: /^I (?:would )?(?:recommend|suggest|advise)(?:ed)? (.+)$/, build: (m) => recommended(m[1] ?? "") },
  {
    re: /^you (?:should|might want to) (?:definitely |really |totally )?((?:try|check out|visit|read|watch|consider|look into|listen to|see|take|get|go to|use|talk to|ask|book|join|start|explore) .+)$/,
    build: (m) => {
      const value = assistantPerson(cutValue(m[1] ?? "", ADVICE_END));
      return wordCount(value) > 14
        ? null
        : assistant("assistant.recommended", value, `recommended that the user ${value}`, 0.65);
    },
  },
  {
    re: /^I will (?:make sure to |be sure to )?remind you (to|about|of|that) (.+)$/,
    build: (m) => {
      const value = `remind the user ${m[1]} ${assistantPerson(cutValue(m[2] ?? "", ADVICE_END))}`;
      return assistant("assistant.promised", value, `promised to ${value}`, 0.85);
    },
  },
  {
    re: /^I will (?:make sure to |be sure to )?((?:send|email|book|schedule|set up|add|note|follow up|check back|look into|keep track of|keep an eye on|remember|prepare|draft|check in|research|find)\b.*)$/,
    build: (m) => {
      const value = assistantPerson(cutValue(m[1] ?? "", ADVICE_END));
      return wordCount(value) > 14
        ? null
        : assistant("assistant.promised", value, `promised to ${value}`, 0.7);
    },
  },
  {
    re: /^I (?:have )?((?:added|booked|scheduled|set up|created|saved|sent|noted|updated|reserved|drafted|made a note|put)\b.*)$/,
    build: (m) => {
      const value = assistantPerson(cutValue(m[1] ?? "", ADVICE_END));
      return wordCount(value) > 14 ? null : assistant("assistant.did", value, value, 0.7);
    },
  },
];
