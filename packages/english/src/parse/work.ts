/** What the user does, read from a parsed clause: job title and employer, field of study and school. */
import { FIELD_NAMES, FUTURE_TIME, NON_JOB_MODIFIERS, OCCUPATIONS } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import { article } from "../fact-values.js";
import type { Clause } from "./clauses.js";
import { aboutUser, asName, denied, type Found, find, over } from "./match.js";

/** Words that end a job title or a field: "a solicitor at Clifford Chance", "law at Trinity". */
const PHRASE_END = new Set(
  "at for with in from since and but so because who which that where when now currently here there too on by of to as while not i we you he she they my living working based residing before after until all his her their our your this these last next every most then today nowadays ever again also still just lol lmao haha tbh btw rn though tho".split(
    " ",
  ),
);
/** Learners are not employees: "a law student" studies law. */
const LEARNER =
  /^(?:student|undergrad|undergraduate|postgrad|postgraduate|phd student|apprentice|trainee|pupil|fresher|major)$/i;
/** A job being left: "quit my job as a chef", "left my role as". */
const LEAVING =
  /\b(?:quit|quitting|left|leaving|lost|resigned|resigning|retired|retiring|stepped down|gave up)\b(?:\s+[\p{L}'-]+){0,3}\s+as\b[^,.;]*$/iu;
/** Words that make "I'm at Monzo" a workplace. */
const JOB_CONTEXT = /\b(?:jobs?|work|working|employer|hired|joined|switched|role|position|company|office)\b/i;
/** Verbs whose doer is a job: "I teach" -> teacher. */
const AGENTS: Readonly<Record<string, string>> = {
  teach: "teacher",
  lecture: "lecturer",
  tutor: "tutor",
  coach: "coach",
  nurse: "nurse",
  preach: "preacher",
};
/** Gerunds that name a job: "been nursing for ten years". */
const JOB_GERUNDS: Readonly<Record<string, string>> = {
  nursing: "nurse",
  teaching: "teacher",
  lecturing: "lecturer",
  tutoring: "tutor",
  bartending: "bartender",
  freelancing: "freelancer",
  nannying: "nanny",
  waitressing: "waitress",
  waiting: "waiter",
  plumbing: "plumber",
  farming: "farmer",
  lawyering: "lawyer",
};

/** The words of a noun phrase at the start of a text, up to a preposition, conjunction or punctuation. */
export function nounPhrase(text: string, max = 4): string {
  const words: string[] = [];
  for (const m of text.matchAll(/([\p{L}\p{N}][\p{L}\p{N}'&.-]*)|([^\p{L}\p{N}\s])/gu)) {
    if (m[2] || PHRASE_END.has((m[1] ?? "").toLowerCase())) break;
    words.push(m[1] as string);
    if (words.length > max) return "";
  }
  return words.join(" ").replace(/^(?:a|an|the|my)\s+/i, "");
}

/** An organisation or school name: capitalised words, with "for", "of", "and" or "&" inside. */
function orgName(text: string, lowerOk = false): string | null {
  const m =
    /^\s*(?:the\s+)?((?:\p{Lu}[\p{L}\p{N}'&.-]*)(?:\s+(?:(?:for|of|and|&|de|la)\s+)?\p{Lu}[\p{L}\p{N}'&.-]*)*)/u.exec(
      text,
    );
  if (m?.[1]) return m[1].replace(/[.]$/, "");
  if (!lowerOk) return null;
  // Typed in lower case: "at deloitte", "with the city ambulance service".
  // "at a fintech startup" describes an employer without naming it.
  if (/^\s*(?:a|an)\s/i.test(text)) return null;
  const phrase = nounPhrase(text.replace(/^\s*(?:the|my|our)\s+/i, ""), 4).replace(/[.]+$/, "");
  return phrase && /^\p{Ll}/u.test(phrase) && !PHRASE_END.has(phrase.split(" ")[0] ?? "")
    ? asName(phrase)
    : null;
}

/** People described, not employed: "a nice person", "a morning person", "a total mess". */
const NOT_ROLES =
  /^(?:person|people|guy|girl|man|woman|lady|type|kind|sort|mess|wreck|nightmare|fan|lover|friend|kid|child|result|matter|rule|whole|team|native|survivor|patient|sufferer|victim|beginner|newbie|owner)$/i;

/** A job title: an occupation noun at its head, or one the parser tags as a person's role. */
export function jobTitle(clause: Clause, phrase: string, trusted: boolean): string | null {
  // "a 31 year old teacher" is a teacher.
  // A sentence's full stop is not part of the job: "im a plumber." is a plumber.
  const words = phrase
    .replace(/^(?:\d+|[a-z]+-?)[\s-]*(?:year|yr)s?[\s-]*old\s+/i, "")
    .replace(/[.]+$/, "")
    .split(/\s+/)
    .filter(Boolean);
  const head = (words.at(-1) ?? "").toLowerCase();
  if (words.length === 0 || words.length > 4 || LEARNER.test(head) || NOT_ROLES.test(head)) return null;
  if (words.some((w) => NON_JOB_MODIFIERS.has(w.toLowerCase()))) return null;
  const title = words.join(" ").toLowerCase().replace(/[.]+$/, "");
  // "a mum of two", "a single dad" are parents; "a stay-at-home mum" is a labelled occupation.
  if (
    !trusted &&
    /^(?:mum|mom|dad|mother|father|parent|wife|husband|grandma|grandpa)$/.test(head) &&
    !/\bstay[- ]at[- ]home\b|\bfull[- ]time\b/.test(title)
  )
    return null;
  if (OCCUPATIONS.has(head) || OCCUPATIONS.has(head.replace(/s$/, ""))) return title;
  const tagged = clause.doc.match(head).has("#Actor");
  return tagged || trusted ? title : null;
}

const job = (value: string, negated = false): FactDraft => ({
  slot: "works_as",
  value,
  says: `works as ${article(value)} ${value}`,
  confidence: 0.8,
  negated,
});
const employer = (value: string, negated = false): FactDraft => ({
  slot: "works_at",
  value,
  says: `works at ${value}`,
  confidence: 0.8,
  negated,
});

/**
 * A job in the simple past is over: "I was a teacher for years", "I worked at Google until 2020"; "I have
 * worked as a nurse for ten years" is not.
 */
function simplePast(f: Found): boolean {
  const head = f.text.replace(/^(?:i|we)\s+/i, "");
  if (/^(?:was|were)\b/i.test(head)) return true;
  return /^(?:worked|served)\b/i.test(head) && !/\b(?:have|has|had|'ve)\s+(?:\w+\s+)?$/i.test(f.before);
}

export function readWork(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const user = (f: Found) => aboutUser(clause, f) && !denied(f);
  const title = (f: Found, trusted: boolean) => {
    const rest = f.after;
    const phrase = nounPhrase(rest);
    const value = phrase ? jobTitle(clause, phrase, trusted) : null;
    // "quit my job as a chef", "I worked as a nurse for ten years": the job left is over.
    const left = over(f) || LEAVING.test(`${f.before}${f.text}`) || simplePast(f);
    if (value) out.push(job(value, left));
    const at = /^\s*(?:[\p{L}'-]+\s+){0,4}?(?:at|for|with)\s+(.*)$/u.exec(rest.slice(0, 80));
    const org = at ? orgName(at[1] ?? "", trusted) : null;
    if (value && org) out.push(employer(org, left));
  };
  for (const f of find(clause, "(i|we) (am|was) (a|an)")) if (user(f)) title(f, false);
  for (const f of find(
    clause,
    "(work|works|working|worked|employed|served|serve|serving|hired|qualified|trained|retrained|retraining|started|joined|job|now|freelance|freelancing|moonlight|moonlighting) as (a|an)?",
  ))
    if (user(f)) title(f, true);
  // "I work nights as a security guard", "working part-time as a barista".
  for (const f of find(clause, "(work|works|working|worked) [<w>.] .? as (a|an)?"))
    if (user(f) && !/\bas\b/i.test(f.groups.w ?? "")) title(f, true);
  // "I'm retired now, used to be an engineer": a job that is over.
  for (const f of find(clause, "used to be (a|an)")) {
    const phrase = nounPhrase(f.after);
    const value = phrase && aboutUser(clause, f) ? jobTitle(clause, phrase, false) : null;
    if (value) out.push(job(value, true));
  }
  // "I teach maths", "I lecture in history at Leeds": the verb names the job.
  for (const f of find(clause, "^(i|we) #Adverb? [<v>(teach|lecture|tutor|coach|nurse|preach)]")) {
    const agent = AGENTS[(f.groups.v ?? "").toLowerCase()];
    if (agent && user(f)) {
      out.push(job(agent));
      const at = /^\s*(?:[\p{L}'-]+\s+){0,3}?at\s+(.*)$/u.exec(f.after.slice(0, 80));
      const org = at ? orgName(at[1] ?? "") : null;
      if (org) out.push(employer(org));
    }
  }
  for (const f of find(clause, "(promoted|promotion) to")) if (user(f)) title(f, true);
  for (const f of find(clause, "(become|became|becoming) (a|an)")) if (user(f)) title(f, false);
  // "after six years at Barclays I handed in my notice": the employer left.
  if (/\b(?:notice|quit|left|leaving|resigned|resigning|moving on|new job|starting)\b/i.test(clause.sentence))
    for (const f of find(clause, "after .? (years|months|decades|year) (at|with) [<o>#ProperNoun+]")) {
      const org = orgName(f.groups.o ?? "");
      if (org) out.push(employer(org, true));
    }
  // "switched jobs - I'm at Monzo now, no longer at Barclays".
  if (JOB_CONTEXT.test(clause.sentence)) {
    for (const f of find(clause, "(i|we) am #Adverb? at [<o>#ProperNoun+]")) {
      const org = orgName(f.groups.o ?? "");
      if (org && user(f)) out.push(employer(org));
    }
    for (const f of find(clause, "no longer (at|with) [<o>#ProperNoun+]")) {
      const org = orgName(f.groups.o ?? "");
      if (org && aboutUser(clause, f)) out.push(employer(org, true));
    }
    // "I'm at Deloitte now instead of PwC": the employer set aside.
    if (out.some((d) => d.slot === "works_at" && !d.negated))
      for (const f of find(clause, "(instead of|rather than) [<o>#ProperNoun+]")) {
        const org = orgName(f.groups.o ?? "");
        if (org) out.push(employer(org, true));
      }
  }
  // "after eight years as a teacher I retrained": the job before the change is over.
  for (const f of find(
    clause,
    "(after|for) #Value? (years|months|decades|year|month|decade|ages) as (a|an)?",
  )) {
    const phrase = nounPhrase(f.after);
    const value = phrase ? jobTitle(clause, phrase, false) : null;
    if (value && /^after\b/i.test(f.text)) out.push(job(value, true));
  }
  for (const f of find(clause, "my (job|role|position|title|occupation|profession) is (a|an)?"))
    if (!denied(f)) title(f, true);
  for (const f of find(clause, "(been|am|started|start) [<g>#Gerund]")) {
    const value = JOB_GERUNDS[(f.groups.g ?? "").toLowerCase()];
    if (value && user(f)) out.push(job(value));
  }
  // "starting my new job at Microsoft on Monday" is a plan; the employer is not yet current.
  const ahead = FUTURE_TIME.test(clause.text);
  for (const f of find(
    clause,
    "(work|works|working|worked|employed|started|joined|job|position|role|am|interning|intern) (at|for|with)",
  )) {
    // "started at Spotify in May" is done: only a verb not yet in the past waits for its date.
    if (ahead && !/^(?:started|joined|worked)\b/i.test(f.text)) continue;
    if (!user(f) || /^(?:am)\b/i.test(f.text.split(" ")[0] ?? "")) continue;
    const org = orgName(f.after);
    if (org) out.push(employer(org, over(f) || simplePast(f)));
  }
  for (const f of find(clause, "(joined|left|quit) [<o>#ProperNoun+]")) {
    // "we've left London for good" leaves a home, not an employer.
    if (!user(f) || clause.doc.match(f.groups.o ?? "").has("#Place")) continue;
    const org = orgName(f.groups.o ?? "");
    if (org) out.push(employer(org, /^(?:left|quit)/i.test(f.text)));
  }
  return out;
}

const field = (value: string): FactDraft => ({
  slot: "studies",
  value,
  says: `studies ${value}`,
  confidence: 0.8,
});
const school = (value: string): FactDraft => ({
  slot: "school",
  value,
  says: `studies at ${value}`,
  confidence: 0.8,
});
const DEGREE =
  "(phd|degree|masters|master's|master|bachelors|bachelor's|bsc|ba|ma|msc|mba|course|apprenticeship|diploma|doctorate|a-levels|gcses|bootcamp|programme|program)";

function fieldName(text: string): string | null {
  if (/^\s*(?:my|your|our|his|her|their|its|me|you|him|us|them|it)\b/i.test(text)) return null;
  const phrase = nounPhrase(text, 4)
    .toLowerCase()
    .replace(/^(?:part-time|full-time|part time|full time|mature|\w+-year|\w+ year)\s+/, "")
    // "law student", "history undergrad": the field, not the learner.
    .replace(/\s+(?:student|undergrad|undergraduate|major|degree)$/, "");
  if (
    !phrase ||
    /^(?:it|this|that|hard|harder|well|all|so|really|a lot|lots|even|more|last|next|this|today|tonight|yesterday|university|uni|college|school)\b/.test(
      phrase,
    )
  )
    return null;
  if (new RegExp(`^${DEGREE}$`).test(phrase)) return null;
  return FIELD_NAMES[phrase] ?? phrase;
}

/** A school name, "Edinburgh Uni" read as the University of Edinburgh. */
function schoolName(text: string): string | null {
  const name = orgName(text);
  if (!name) return null;
  const uni = /^(.+?)\s+Uni$/i.exec(name);
  return uni ? `University of ${uni[1]}` : name;
}

export function readStudies(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const user = (f: Found) => aboutUser(clause, f) && !denied(f) && !over(f);
  const atSchool = (rest: string) => {
    const at = /^\s*(?:[\p{L}'-]+\s+){0,4}?(?:at|through)\s+(.*)$/u.exec(rest.slice(0, 80));
    const name = at ? schoolName(at[1] ?? "") : null;
    if (name) out.push(school(name));
  };
  for (const f of find(
    clause,
    `(study|studies|studying|studyng|studing|studied|reading|majoring|major) (in)?`,
  )) {
    if (!user(f) || (/\bstudied\b/i.test(f.text) && !/\bi am|\bi have been\b/i.test(f.before))) continue;
    const rest = f.after;
    // A field is a bare noun ("studying law"); "study a lot", "reading a fantasy novel" name none, and
    // "reading" is a field only at a school ("reading PPE at Oxford").
    const bare =
      !/^\s*(?:a|an|the|some|my|this|that|these|those|for|about|up|hard|abroad|together|online|is|was)\b/i.test(
        rest,
      );
    const value = bare ? fieldName(rest) : null;
    const school = /\bat\s+\p{Lu}/u.test(rest);
    if (value && (!/^reading$/i.test(f.text.split(/\s+/)[0] ?? "") || school))
      out.push(field(value.replace(/[.]+$/, "")));
    atSchool(rest);
  }
  // "my major is biology".
  for (const f of find(clause, "^my (major|subject) is")) {
    const value = fieldName(f.after);
    if (value && !denied(f)) out.push(field(value.replace(/[.]+$/, "")));
  }
  for (const f of find(
    clause,
    `(doing|taking|started|starting|finishing|completing|pursuing|in the middle of|enrolled in|enrolled on) (my|a|an)? (#Adjective|#Noun)? ${DEGREE} (in|on)?`,
  )) {
    if (!user(f)) continue;
    // The field follows "in" or "on" ("a course in Italian"); compromise reads "master's in" as "master
    // is in", so the preposition may be left in what follows the match.
    const into = /\b(?:in|on)$/i.test(f.text) || /^\s*(?:is\s+)?(?:in|on)\s/i.test(f.after);
    const value =
      into || !/enrolled/i.test(f.text)
        ? fieldName(f.after.replace(/^\s*(?:is\s+)?(?:in|on)\s+/i, ""))
        : null;
    if (value) out.push(field(value));
    atSchool(f.after);
  }
  for (const f of find(clause, `[<s>#Noun+] (student|major|degree|undergrad|undergraduate)`)) {
    if (!user(f)) continue;
    // "uni is killing me, architecture degree": the field is the words after the last comma; "2nd yr med
    // student", "a first-year PhD student in chemistry": the year and the level are not the field.
    const named =
      (f.groups.s ?? "")
        .split(/,\s*/)
        .at(-1)
        ?.replace(/^(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|final|last)?[\s-]*(?:year|yr)\s*/i, "")
        .replace(/^(?:phd|masters?|postgrad(?:uate)?|undergrad(?:uate)?|doctoral)\s*/i, "") ?? "";
    if (!named) {
      const inField = /^\s+in\s+(.*)$/i.exec(f.after);
      const value = inField ? fieldName(inField[1] ?? "") : null;
      if (value && user(f)) out.push(field(value));
      atSchool(f.after);
      continue;
    }
    const value = fieldName(named);
    const abbr = FIELD_NAMES[named.toLowerCase()];
    if (abbr || (value && !/^(?:a|an|the|part-time|full-time|mature|first|second|third|final)$/.test(value)))
      out.push(field(abbr ?? (value as string)));
    atSchool(f.after);
  }
  // "switched my major from biology to chemistry": the new field, and the old one retracted.
  for (const f of find(
    clause,
    "(switched|changed|moved) (my|our)? (major|course|degree|subject)? from [<old>.+] to [<new>.+]",
  )) {
    if (!user(f)) continue;
    const now = fieldName(f.groups.new ?? "");
    const before = fieldName(f.groups.old ?? "");
    if (/\b(?:major|course|degree|subject)\b/i.test(f.text) && now) {
      out.push(field(now));
      if (before) out.push({ ...field(before), negated: true });
    }
  }
  for (const f of find(
    clause,
    "(i|we) #Adverb? (attend|attends|attending|am enrolled at|enrolled at|am enrolled in)",
  )) {
    if (!user(f)) continue;
    const name = schoolName(f.after);
    if (name) out.push(school(name));
  }
  // "transferred from Leeds Uni to Manchester", "switched from Sciences Po to the Sorbonne for my second year".
  for (const f of find(
    clause,
    "(switched|transferred|moved|changed) (unis|universities|schools|colleges)? from (the)? [<old>#ProperNoun+] to (the)? [<new>#ProperNoun+]",
  )) {
    const schoolish =
      /\b(?:uni|university|college|school|institute|academy|polytechnic)\b/i.test(f.text) ||
      (!/^moved\b/i.test(f.text) &&
        /\b(?:(?:my|first|second|third|final|next) year|semester|course|degree|studies|studying|major|unis|universities)\b/i.test(
          clause.sentence,
        ));
    const now = schoolish && user(f) ? schoolName(f.groups.new ?? "") : null;
    const before = schoolName(f.groups.old ?? "");
    if (now) {
      out.push(school(now));
      if (before) out.push({ ...school(before), negated: true });
    }
  }
  // "in my final year of law at Durham".
  for (const f of find(clause, "(first|second|third|fourth|final|last) (year|yr) (of|studying|doing)?")) {
    if (!user(f)) continue;
    // "final year of my law degree": the field before the degree.
    const ofDegree = /^\s*my\s+([\p{L}' -]+?)\s+(?:degree|course)\b/iu.exec(f.after);
    // Otherwise a bare field right after ("final year of law"), not a school or an article.
    const bare =
      !/^\s*(?:a|an|the|my|our|uni|university|college|school|at|in|as|and|is|was|has|of|student)\b|^\s*$/i.test(
        f.after,
      );
    const value = ofDegree ? fieldName(ofDegree[1] ?? "") : bare ? fieldName(f.after) : null;
    if (value) out.push(field(value));
    atSchool(f.after);
  }
  // "I go to UCLA" names a school when the name says so or the clause is about studying.
  for (const f of find(clause, "(i|we) #Adverb? (go|still go) to [<sc>(#ProperNoun|#Acronym)+]")) {
    const named = f.groups.sc ?? "";
    const schoolish =
      /\b(?:university|uni|college|school|institute|academy|polytechnic|conservatoire)\b/i.test(named) ||
      /\b(?:major\w*|degree|student|course|semester|term|campus|lectures?|classes|stud\w+)\b/i.test(
        clause.text,
      );
    const name = schoolish && user(f) ? schoolName(named) : null;
    if (name) out.push(school(name));
  }
  for (const f of find(clause, "(student|sophomore|freshman|fresher|undergrad|postgrad|year|yr|phd) at")) {
    if (!user(f)) continue;
    const name = schoolName(f.after);
    if (name) out.push(school(name));
  }
  for (const f of find(clause, "^(i|we) am at [<sc>#ProperNoun+]")) {
    const rest = f.after;
    if (!/^\W*(?:uni|university|college)?\W*(?:reading|doing|studying|studyng|in my|for my)\b/i.test(rest))
      continue;
    const name = schoolName(`${f.groups.sc ?? ""}${/^\s+uni\b/i.test(rest) ? " Uni" : ""}`);
    if (name) out.push(school(name));
    const doing = /\b(?:reading|doing|studying)\s+(.*)$/i.exec(rest);
    const value = doing ? fieldName(doing[1] ?? "") : null;
    if (value) out.push(field(value));
  }
  return out;
}
