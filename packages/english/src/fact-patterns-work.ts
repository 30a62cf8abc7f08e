/**
 * Rules for what the user does: occupation, employer, changes of job, studies.
 */
import { FIELD_NAMES } from "./fact-lexicon.js";
import { type FactDraft, type FactRule, place } from "./fact-patterns.js";
import { article, cutValue, occupation, phrase, properName } from "./fact-values.js";

const GENERIC_ORG_END = new Set(
  "living while time moment bit lot distance pace desk computer home".split(" "),
);

/** An employer: a name ("Google", "the New York Times") or a described one ("a small startup"). */
export function organisation(tail: string): { value: string; rest: string; generic: boolean } | null {
  const named = properName(tail);
  if (named) return { ...named, generic: false };
  const m =
    /^(an? (?:[a-z-]+ ){0,2}([a-z-]+))(?=$|[,.;!]| (?:in|at|for|since|as|and|with|near|now|called|named)\b)/.exec(
      tail.trim(),
    );
  if (!m?.[1] || GENERIC_ORG_END.has(m[2] ?? "")) return null;
  const rest = tail.trim().slice(m[1].length);
  const called = /^ (?:called|named) (.+)$/.exec(rest);
  const name = called?.[1] ? properName(called[1]) : null;
  return name ? { ...name, generic: false } : { value: m[1], rest, generic: true };
}

function employer(tail: string, confidence: number, negated = false): FactDraft | null {
  const org = organisation(tail);
  if (!org) return null;
  const value = org.value;
  return {
    slot: "works_at",
    value,
    says: `works at ${value}`,
    confidence: confidence * (org.generic ? 0.75 : 1),
    negated,
  };
}

/**
 * "software engineer at Google" -> works_as + works_at; "law student at Trinity" -> studies + school (a
 * student studies; studying is not a job).
 */
export function job(tail: string, confidence: number, about?: string): FactDraft[] | null {
  const found = occupation(tail);
  if (!found) return null;
  const student = found.value.endsWith("student");
  const plain = found.value
    .replace(/\s*student$/, "")
    .replace(/^(?:part-time|full-time|mature|\w+-year)\s*/i, "")
    .trim();
  const field = FIELD_NAMES[plain.toLowerCase()] ?? plain;
  // "a Leeds uni student" names where, not what (the parsed reader takes the school).
  const schoolNamed = /\s(?:uni|university|college)$/i.test(plain);
  const drafts: FactDraft[] =
    student && !about
      ? field && !schoolNamed
        ? [{ slot: "studies", value: field, says: `studies ${field}`, confidence }]
        : []
      : [
          {
            slot: about ? `${about}.occupation` : "works_as",
            value: found.value,
            says: `is ${article(found.value)} ${found.value}`,
            confidence,
            about,
          },
        ];
  const at = /^\s+(?:at|for|with) (.+)$/.exec(found.rest);
  const org = at?.[1] ? organisation(at[1]) : null;
  if (org && !org.generic) {
    const slot = about ? `${about}.works_at` : student ? "school" : "works_at";
    drafts.push({
      slot,
      value: org.value,
      says: `${student ? "studies" : "works"} at ${org.value}`,
      confidence,
      about,
    });
  }
  return drafts;
}

const studies = (confidence: number) => (m: RegExpExecArray) => {
  const field = phrase(cutValue(m[1] ?? "", /\s(?:at|for|in|with|on|every)\b/), 4);
  if (!field || /^(?:hard|late|abroad|online|together)$/i.test(field)) return null;
  const drafts: FactDraft[] = [{ slot: "studies", value: field, says: `studies ${field}`, confidence }];
  const at = /\sat (.+)$/.exec(m[1] ?? "");
  const school = at?.[1] ? properName(at[1]) : null;
  if (school)
    drafts.push({ slot: "school", value: school.value, says: `studies at ${school.value}`, confidence });
  return drafts;
};

export const WORK_RULES: readonly FactRule[] = [
  { re: /^I am (?:a|an) (.+)$/, build: (m) => job(m[1] ?? "", 0.8) },
  { re: /^I have been (?:a|an) (.+? (?:for|since) .+)$/, build: (m) => job(m[1] ?? "", 0.75) },
  { re: /^I (?:work|am working|have been working) as (?:a |an )?(.+)$/, build: (m) => job(m[1] ?? "", 0.9) },
  {
    re: /^I (?:became|have become|got a job as|got a new job as|was promoted to|got promoted to|have been promoted to|was hired as|got hired as|started working as|started as) (?:a |an )?(.+)$/,
    build: (m) => job(m[1] ?? "", 0.85),
  },
  {
    re: /^I am (retired|unemployed|self-employed|between jobs)(?=$|[,.!]|\s+(?:now|and|since)\b)/,
    build: (m) => ({ slot: "works_as", value: m[1] ?? "", says: `is ${m[1]}`, confidence: 0.85 }),
  },
  {
    re: /^I am the ((?:co-?)?founder|CEO|CTO|CFO|COO|owner|president|head of \w+|director of \w+) (?:of|at) (.+)$/,
    build: (m) => {
      const role = m[1] ?? "";
      const org = employer(m[2] ?? "", 0.85);
      return org
        ? [{ slot: "works_as", value: role, says: `is the ${role} of ${org.value}`, confidence: 0.85 }, org]
        : null;
    },
  },
  {
    re: /^(?:I|we) (?:work|am working|have been working) (?:at|for) (.+)$/,
    build: (m) => {
      const org = employer(m[1] ?? "", 0.85);
      const as = org ? /^(?:.*?) as (?:a |an )?(.+)$/.exec(m[1]?.slice(org.value.length) ?? "") : null;
      const role = as?.[1] ? job(as[1], 0.85) : null;
      return org ? [org, ...(role ?? []).filter((d) => d.slot === "works_as")] : null;
    },
  },
  { re: /^I have worked (?:at|for) (.+)$/, build: (m) => employer(m[1] ?? "", 0.6) },
  {
    re: /^I (?:started|began) (?:working |a new job |my new job |a job |an internship |a new position |a new role )?(?:at|with|for) (.+)$/,
    build: (m) => employer(m[1] ?? "", 0.85),
  },
  {
    re: /^I (?:got|landed|accepted|took|have accepted) (?:a|an|the) (?:new )?(?:job|position|role|internship|offer) (?:at|with|from) (.+)$/,
    build: (m) => employer(m[1] ?? "", 0.8),
  },
  { re: /^I (?:got|was|have been) hired (?:at|by) (.+)$/, build: (m) => employer(m[1] ?? "", 0.85) },
  {
    re: /^I (?:quit|left|have quit|have left) my (?:job|position|role|internship) (?:at|with) (.+)$/,
    build: (m) => employer(m[1] ?? "", 0.85, true),
  },
  {
    re: /^I (?:quit|resigned from|have resigned from) (\p{Lu}.*)$/u,
    build: (m) => employer(m[1] ?? "", 0.75, true),
  },
  {
    re: /^I (?:was|got|have been) (?:laid off|fired|let go) (?:from|by) (.+)$/,
    build: (m) => employer(m[1] ?? "", 0.85, true),
  },
  {
    re: /^I retired(?: from (.+))?(?=$|[,.!]|\s+(?:last|this|in)\b)/,
    build: (m) => {
      const drafts: FactDraft[] = [
        { slot: "works_as", value: "retired", says: "is retired", confidence: 0.8 },
      ];
      const org = m[1] ? employer(m[1], 0.8, true) : null;
      return org ? [...drafts, org] : drafts;
    },
  },
  {
    re: /^I (?:study|am studying|major in|am majoring in|am doing a (?:degree|PhD|masters|master's|bachelor's|MBA) in|am getting a (?:degree|PhD|master's) in|have a degree in) (.+)$/,
    build: studies(0.8),
  },
  { re: /^I (?:study|am studying|am a student) at (.+)$/, build: place("school", "studies at", 0.85) },
  {
    re: /^I (?:go to|attend) (.+)$/,
    build: (m) => {
      const school = properName(m[1] ?? "");
      return school && /\b(?:University|College|School|Institute|Academy)\b/.test(school.value)
        ? { slot: "school", value: school.value, says: `studies at ${school.value}`, confidence: 0.8 }
        : null;
    },
  },
];
