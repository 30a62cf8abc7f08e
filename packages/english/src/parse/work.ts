/** What the user does for a living, read from a parsed clause: job title and employer. */
import { FUTURE_TIME, NON_JOB_MODIFIERS, OCCUPATIONS } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import { article } from "../fact-values.js";
import type { Clause } from "./clauses.js";
import { aboutUser, asName, denied, type Found, find, over } from "./match.js";

/** Words that end a job title or a field: "a solicitor at Clifford Chance", "law at Trinity". */
const PHRASE_END = new Set(
  "at for with in from since and but so because who which that where when now currently here there too on by of to as while not i we you he she they my living working based residing before after until all his her their our your this these last next every most then today nowadays ever again also still just lol lmao haha tbh btw rn though tho specialising specializing specialised specialized focusing focussing mainly mostly primarily".split(
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
const JOB_CONTEXT =
  /\b(?:jobs?|work|works|worked|working|employer|hired|joined|switched|role|position|company|office)\b/i;
/** Verbs whose doer is a job: "I teach" -> teacher. */
const AGENTS: Readonly<Record<string, string>> = {
  teach: "teacher",
  lecture: "lecturer",
  tutor: "tutor",
  coach: "coach",
  nurse: "nurse",
  preach: "preacher",
};
/** Trades said by what is done, by the user at the start of a clause: "I drive a taxi for a living". */
const TRADES: ReadonlyArray<readonly [string, string]> = [
  ["^(i|we) #Adverb? drive (a|an)? (taxi|taxis|cab|cabs)", "taxi driver"],
  ["^(i|we) #Adverb? drive (a|an)? (bus|buses)", "bus driver"],
  ["^(i|we) #Adverb? drive (a|an)? (lorry|lorries|truck|trucks|hgv)", "lorry driver"],
  ["^(i|we) #Adverb? cut hair", "hairdresser"],
  ["^(i|we) #Adverb? do nails", "nail technician"],
];
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
export function orgName(text: string, lowerOk = false): string | null {
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
  // Without the article, as learners of English write it: "I am accountant in a bank".
  for (const f of find(clause, "^(i|we) (am|was) [<j>#Noun]")) {
    const head = (f.groups.j ?? "").toLowerCase();
    if (user(f) && OCCUPATIONS.has(head) && !/^\s*(?:of|and)\b/i.test(f.after))
      title({ ...f, after: ` ${f.groups.j}${f.after}` }, false);
  }
  // "I work like software developer for Ericsson": "like" for "as".
  for (const f of find(clause, "^(i|we) (work|works|am working|working) like (a|an)?"))
    if (user(f)) title(f, false);
  // "I hold a position as lecturer at the University of Edinburgh".
  for (const f of find(clause, "(hold|have|took|accepted) (a|the) (position|role|post|job) as (a|an)?"))
    if (user(f)) title(f, true);
  for (const f of find(
    clause,
    "(work|works|working|worked|employed|served|serve|serving|hired|qualified|trained|retrained|retraining|started|joined|job|now|freelance|freelancing|moonlight|moonlighting) as (a|an)?",
  ))
    if (user(f)) title(f, true);
  // "I work nights as a security guard", "working part-time as a barista".
  for (const f of find(clause, "(work|works|working|worked|employed) [<w>.] .? as (a|an)?"))
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
  // "got promoted from junior dev to team lead": the new title, and the old one over.
  for (const f of find(clause, "promoted from [<old>.+] to")) {
    if (!user(f)) continue;
    title(f, true);
    const before = jobTitle(clause, nounPhrase(f.groups.old ?? ""), true);
    if (before) out.push(job(before, true));
  }
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
    "(work|works|working|worked|employed|started|joined|job|position|role|am|interning|intern) (at|for|with|by)",
  )) {
    // "started at Spotify in May" is done: only a verb not yet in the past waits for its date.
    if (ahead && !/^(?:started|joined|worked)\b/i.test(f.text)) continue;
    if (!user(f) || /^(?:am)\b/i.test(f.text.split(" ")[0] ?? "")) continue;
    // "I've been offered a role at Siemens", "applying for a job at Arup": not the employer yet.
    if (/\b(?:offered|offer|applying|applied|interview\w*|considering|thinking about)\b/i.test(f.before))
      continue;
    const org = orgName(f.after);
    if (org) out.push(employer(org, over(f) || simplePast(f)));
  }
  // "I work weekends at Wickes", "working remote for Intuit", "I drive for DHL", "at a startup called Fernwell".
  for (const f of [
    ...find(
      clause,
      "(work|works|working|worked) (weekends|nights|days|evenings|mornings|shifts|remote|remotely|part-time|full-time|freelance) (at|for|with) (the)? [<o>#ProperNoun+]",
    ),
    ...find(
      clause,
      "(i|we) #Adverb? (drive|drives|deliver|delivers|ride|rides|cycle|cycles) for [<o>(#ProperNoun|#Acronym)+]",
    ),
    ...find(
      clause,
      "(at|for|with|joined) (a|an) (startup|start-up|company|firm|agency|charity|business|shop|restaurant|cafe|bank|school) (called|named) [<o>#ProperNoun+]",
    ),
  ]) {
    const org = orgName(f.groups.o ?? "");
    if (org && user(f)) out.push(employer(org, over(f) || simplePast(f)));
  }
  // "I joined the NHS as a data analyst".
  for (const f of find(clause, "(joined|join|joining) the [<o>(#ProperNoun|#Acronym)+] as (a|an)?")) {
    const org = orgName(f.groups.o ?? "");
    if (!org || !user(f)) continue;
    out.push(employer(org));
    title(f, true);
  }
  // "I drive a taxi", "I cut hair": a trade said by what is done.
  for (const [pattern, value] of TRADES)
    for (const f of find(clause, pattern)) if (user(f)) out.push(job(value));
  for (const f of find(clause, "(joined|left|quit) [<o>#ProperNoun+]")) {
    // "we've left London for good" leaves a home, not an employer.
    if (!user(f) || clause.doc.match(f.groups.o ?? "").has("#Place")) continue;
    const org = orgName(f.groups.o ?? "");
    if (org) out.push(employer(org, /^(?:left|quit)/i.test(f.text)));
  }
  return out;
}
