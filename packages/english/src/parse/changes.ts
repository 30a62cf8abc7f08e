/**
 * A value that changed, said as a move from one to the other: "moved from Accenture to KPMG",
 * "transferred from Ohio State to Michigan", "switched from biology to computer science". What moved is
 * read from the words around it: a school when the sentence is about studying or a name says so, an
 * employer when it is about work or the names are firms, a field of study when the words are fields. A
 * move between places is a new home, read by the home reader (`isHomeMove` tells it which are not).
 */
import { FIELD_NAMES, OCCUPATIONS } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import type { Clause } from "./clauses.js";
import { aboutUser, denied, type Found, find } from "./match.js";
import { orgName } from "./work.js";

const CHANGE = `(switched|switching|changed|moved|transferred|transfered|jumped|went|swapped) (over|ship)? from (the)? [<old>.+] to (the)? [<new>.+]`;
/** Words of a sentence about studying. */
const STUDY =
  /\b(?:uni|university|universities|unis|college|colleges|school|schools|semester|term|course|courses|degree|major|majors|studying|studies|study|student|(?:first|second|third|final|fourth|1st|2nd|3rd|4th) (?:year|yr)|transfer(?:red)? student|grad school|campus|lectures?)\b/i;
/** Words of a sentence about work. */
const WORK =
  /\b(?:job|jobs|work|works|worked|working|role|company|companies|employer|team|office|hired|salary|pay|boss|contract|career|sector)\b/i;
/** A name that says it is a school. */
const SCHOOL_NAME = /\b(?:uni|university|college|school|institute|academy|polytechnic|state)\b/i;

/** What a change names, from its words and the sentence around it. */
function kindOf(clause: Clause, old: string, now: string): "school" | "employer" | "field" | "home" | null {
  const names = `${old} ${now}`;
  const sentence = clause.sentence;
  const place = (name: string) => clause.doc.match(name.split(/\s+/)[0] ?? "").has("#Place");
  if (!SCHOOL_NAME.test(names) && place(old) && place(now)) return "home";
  if (SCHOOL_NAME.test(names) || (STUDY.test(sentence) && !WORK.test(sentence))) {
    return /\p{Lu}/u.test(now) ? "school" : "field";
  }
  if (WORK.test(sentence)) return "employer";
  const tagged = clause.doc.match(now.split(/\s+/)[0] ?? "");
  if (place(now)) return "home";
  // "switched from Barclays to HSBC": firms (an employer is read only where both are capitalised names).
  if (tagged.has("(#Organization|#Acronym)") || /\p{Lu}{2,}/u.test(now)) return "employer";
  if (FIELD_NAMES[now.toLowerCase()] !== undefined) return "field";
  return null;
}

/** "from Marketing to Sales", "from Nurse to Sister": roles and teams, not employers. */
const isJobWords = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .some(
      (w) =>
        OCCUPATIONS.has(w) ||
        /^(?:marketing|sales|finance|hr|ops|operations|engineering|design|product|support|admin|management|team|department|shift|nights|days)$/.test(
          w,
        ),
    );

/** The words of one side of the change: up to a comma, a time or the end of the clause. */
const side = (text: string) =>
  (
    text.split(
      /\s*(?:[,;:!?()]|\.(?:\s|$)|\s[-–—]+\s|\b(?:this|last|next|in|for|on|at|after|because|since|but|and|so|lol|haha|tbh|ngl|rn|now)\b)/i,
    )[0] ?? ""
  )
    .replace(/^(?:my|our|a|an|the)\s+/i, "")
    .trim();

/** The facts a change states: the new value, and the old one retracted. */
export function readChanges(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  for (const f of find(clause, CHANGE)) {
    if (!aboutUser(clause, f) || denied(f)) continue;
    const old = side(f.groups.old ?? "");
    const now = side(f.groups.new ?? "");
    if (!old || !now || old.split(/\s+/).length > 4 || now.split(/\s+/).length > 4) continue;
    const kind = kindOf(clause, old, now);
    if (kind === "school" || kind === "employer") {
      const slot = kind === "school" ? "school" : "works_at";
      const says = kind === "school" ? "studies at" : "works at";
      const [was, is] = [orgName(old), orgName(now)];
      // An employer is a name on both sides ("from Barclays to HSBC"), not a job or a team.
      if (!is || (kind === "employer" && (!was || [old, now].some(isJobWords)))) continue;
      out.push({ slot, value: is, says: `${says} ${is}`, confidence: 0.75 });
      if (was && was !== is)
        out.push({ slot, value: was, says: `${says} ${was}`, confidence: 0.75, negated: true });
    } else if (kind === "field") {
      const [was, is] = [old.toLowerCase(), now.toLowerCase()];
      const field = (v: string) => FIELD_NAMES[v] ?? v;
      out.push({ slot: "studies", value: field(is), says: `studies ${field(is)}`, confidence: 0.75 });
      if (was !== is)
        out.push({
          slot: "studies",
          value: field(was),
          says: `studies ${field(was)}`,
          confidence: 0.75,
          negated: true,
        });
    }
  }
  return out;
}

/** Whether a "moved from X to Y" is a move between homes, not between schools or employers. */
export function isHomeMove(clause: Clause, found: Found): boolean {
  const old = side(found.groups.old ?? "");
  const now = side(found.groups.p ?? found.groups.new ?? "");
  const kind = kindOf(clause, old, now);
  return kind === "home" || kind === null;
}
