/** What the user studies and where, read from a parsed clause: field of study and school. */
import { FIELD_NAMES } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import type { Clause } from "./clauses.js";
import { aboutUser, denied, type Found, find, over } from "./match.js";
import { nounPhrase, orgName } from "./work.js";

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
    // "Edinburgh uni student here": the words before "student" name the school.
    if (/\s(?:uni|university|college)$/i.test(named)) {
      const name = schoolName(named.replace(/\s(?:university|college)$/i, " Uni"));
      if (name) out.push(school(name));
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
    // "i go to Newcastle uni": the word after the name says what it is.
    const uni = /^\s+(?:uni|university|college)\b/i.test(f.after);
    const named = `${f.groups.sc ?? ""}${uni ? " Uni" : ""}`;
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
    // "a student at Bath doing architecture".
    const doing = name
      ? /^\s*(?:the\s+)?[\p{L}'& -]+?,?\s+(?:doing|reading|studying)\s+(.*)$/u.exec(f.after)
      : null;
    const value = doing ? fieldName(doing[1] ?? "") : null;
    if (value) out.push(field(value));
  }
  for (const f of find(clause, "^(i|we) am at [<sc>#ProperNoun+]")) {
    const rest = f.after;
    if (!/^\W*(?:uni|university|college)?\W*(?:reading|doing|studying|studyng|in my|for my)\b/i.test(rest))
      continue;
    // "I'm at Tesco doing nights" is a shift at work, not a course.
    if (
      /^\W*doing\s+(?:nights|days|shifts|overtime|weekends|lates|earlies|ok|okay|well|fine|great|good|alright|badly)\b/i.test(
        rest,
      )
    )
      continue;
    const name = schoolName(`${f.groups.sc ?? ""}${/^\s+uni\b/i.test(rest) ? " Uni" : ""}`);
    if (name) out.push(school(name));
    const doing = /\b(?:reading|doing|studying)\s+(.*)$/i.exec(rest);
    const value = doing ? fieldName(doing[1] ?? "") : null;
    if (value) out.push(field(value));
  }
  return out;
}
