/**
 * The people in the user's life, read from a parsed clause: a relative named ("my sister Chloe"), what
 * they do and where they live, a partner and what it says of marital status (children in children.ts).
 * Friends and colleagues are left out: "my friend lives in Paris" says nothing durable about the user.
 */
import { FUTURE_TIME, MARITAL_STATUSES, NOT_NAMES } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import { article } from "../fact-values.js";
import { readChildren } from "./children.js";
import type { Clause } from "./clauses.js";
import { KIN } from "./lexicon.js";
import { asName, BARE_KIN, denied, find, foundAt, over } from "./match.js";
import { jobTitle, nounPhrase } from "./work.js";

const KIN_WORDS = Object.keys(KIN).sort((a, b) => b.length - a.length);
/** A clause about family at all: a relative, children, or a marital status. */
export const FAMILY_CUE = new RegExp(
  `\\b(?:${KIN_WORDS.join("|")}|kids|children|twins|triplets|sons|daughters|boys|girls|seeing|dating|broke up|split up|not with|named|single|married|divorced|widow\\w*|divorcee|separated|engaged)s?(?![\\p{L}\\p{N}_])`,
  "iu",
);
const SPOUSE = new Set(["wife", "husband", "hubby", "wifey", "missus", "esposa", "esposo", "spouse"]);
const ENGAGED = new Set(["fiance", "fiancé", "fiancee", "fiancée"]);
const MODIFIERS =
  "(?:(?:older|younger|big|little|baby|twin|eldest|oldest|youngest|elder|half|lovely|amazing|late)[- ]?\\s*)?";
const MENTION = new RegExp(
  // The end is a lookahead, not \\b, which is ASCII only: "fiancé" ends on a letter it does not know;
  // chat drops the apostrophe of "my sister's name", "my mom's a nurse".
  `(?:\\b(?:my|our|mi)\\s+${MODIFIERS}|^\\s*(?=(?:${BARE_KIN})\\b))(${KIN_WORDS.join("|")})(?:(?![\\p{L}\\p{N}_])|(?=s\\s+(?:name|called|named|a|an)\\s))`,
  "giu",
);

/** A name after the relative: "my sister Chloe", "My father, Harold,", "my boy's called Kai". */
function nameAfter(rest: string): { name: string; rest: string } | null {
  const m =
    /^(?:,\s*|\s+)(?:(?:is |'s |s )?(?:called|named)\s+)?(\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)(,?)/u.exec(
      rest,
    ) ??
    /^(?:'s|s|\s+is)\s+(?:called|named)\s+([\p{L}'-]+)()/iu.exec(rest) ??
    /^(?:'s|s)\s+name\s+is\s+(\p{Lu}[\p{L}'-]+)()/u.exec(rest);
  if (!m?.[1]) return null;
  // "my daughter Sara's recital": the name without its possessive.
  const name = asName(m[1].replace(/'s$/, ""));
  if (NOT_NAMES.has(name.toLowerCase()) || name.toLowerCase() in KIN) return null;
  return { name, rest: rest.slice(m[0].length) };
}

/** A first name typed in lower case after the relative: "my daughter emma", "my bf jake". */
function firstNameAfter(clause: Clause, rest: string): { name: string; rest: string } | null {
  const m = /^\s+(\p{Ll}[\p{Ll}'-]+)(,?)/u.exec(rest);
  const word = m?.[1];
  if (!word || NOT_NAMES.has(word) || word in KIN || !clause.doc.match(word).has("#FirstName")) return null;
  return { name: asName(word), rest: rest.slice((m?.[0] ?? "").length) };
}

/**
 * A name as what the relative is: "my brother is Sam", "my sister's Jo, not Joanne". Only a word the
 * parser knows as a first name, or one set against another, so "my dad is Irish" names nobody.
 */
function nameIs(clause: Clause, rest: string): { name: string; rest: string } | null {
  const m = /^(?:'s|s|\s+is)\s+(\p{Lu}[\p{L}'-]+)(?=\s*(?:$|[,.;!?]|\s+(?:not|and|btw)\b))/u.exec(rest);
  const word = m?.[1];
  if (!word || NOT_NAMES.has(word.toLowerCase()) || word.toLowerCase() in KIN) return null;
  const after = rest.slice((m?.[0] ?? "").length);
  const tagged = clause.doc.match(word);
  if (tagged.has("#Demonym")) return null;
  if (!tagged.has("#FirstName") && !/^,?\s+not\s+\p{Lu}/u.test(after)) return null;
  return { name: word, rest: after };
}

/** A relative's job said by its verb: "my mum teaches". */
const AGENT_OF: Readonly<Record<string, string>> = {
  teaches: "teacher",
  lectures: "lecturer",
  nurses: "nurse",
  coaches: "coach",
  tutors: "tutor",
  preaches: "preacher",
};

/** "The user's sister is a nurse." (or "was", for a job retired from). */
function relativeJob(rel: string, word: string, title: string, past = false): FactDraft {
  return {
    slot: `${rel}.occupation`,
    value: title,
    says: `${past ? "was" : "is"} ${article(title)} ${title}`,
    confidence: past ? 0.7 : 0.75,
    about: word,
  };
}

/**
 * A relative's job said in passing, after their mention: in apposition ("my brother, a nurse,"), by its
 * verb ("my mum teaches"), in an aside ("my partner, who's a chef,") or as a title ("my sister the doctor").
 */
function jobInPassing(clause: Clause, rest: string): string | null {
  const apposed = /^\s*,\s*(?:who(?:'s| is)\s+)?(?:a|an)\s+([^,]+),/i.exec(rest);
  if (apposed?.[1]) return jobTitle(clause, nounPhrase(apposed[1]), false);
  // "my sister the doctor says".
  const titled = /^\s+the\s+(\p{Ll}+)\b/u.exec(rest);
  if (titled?.[1]) return jobTitle(clause, titled[1], false);
  const taught =
    /^\s*(?:,\s*)?(?:just |also |still )*(teaches|lectures|nurses|coaches|tutors|preaches)\b/i.exec(rest);
  return taught?.[1] ? (AGENT_OF[taught[1].toLowerCase()] ?? null) : null;
}

const partner = (name: string): FactDraft => ({
  slot: "partner",
  value: name,
  says: `is named ${name}`,
  confidence: 0.7,
  about: "partner",
});

const nameSlot = (rel: string) =>
  rel === "partner"
    ? "partner"
    : rel === "child" || rel === "son" || rel === "daughter"
      ? "child"
      : `${rel}.name`;

/** The relative a text mentions last ("my dad" -> "dad"), or null. */
export function lastRelative(text: string): string | null {
  return [...text.matchAll(MENTION)].at(-1)?.[1]?.toLowerCase() ?? null;
}

/** The marital status a spouse's mention says has ended, from the words around it, or null. */
function spouseLost(before: string, after: string): string | null {
  if (
    /\b(?:late|lost|losing|since)\s+(?:my\s+)?$/i.test(before) ||
    /^(?:\s+[\p{Lu}][\p{L}'-]+)?,?\s+(?:sadly\s+)?(?:passed away|passed on|passed|died|was killed)\b/iu.test(
      after,
    )
  )
    return "widowed";
  const parted =
    /^(?:\s+[\p{Lu}][\p{L}'-]+)?\s+and\s+I\s+(?:have\s+|are\s+|got\s+|just\s+|recently\s+)*(separated|divorced|split up|split)\b/iu.exec(
      after,
    )?.[1] ?? /\b(separated|divorced|split up|split)\s+from\s+(?:my\s+)?$/i.exec(before)?.[1];
  if (!parted) return null;
  return /^divorced/i.test(parted) ? "divorced" : "separated";
}

export function readFamily(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const text = clause.text;
  for (const m of text.matchAll(MENTION)) {
    const word = (m[1] ?? "").toLowerCase();
    const rel = KIN[word] ?? word;
    const before = text.slice(0, m.index);
    if (/\b(?:friend|mate|boss|colleague|coworker|neighbour|neighbor)'?s\s*$/i.test(before)) continue;
    let rest = text.slice((m.index ?? 0) + m[0].length);
    // "my wife passed away", "my late husband", "my wife and I separated": no longer married.
    // The clause may end at the mention ("my wife | and I separated"): what follows is read in the sentence.
    const inSentence = clause.sentence.toLowerCase().indexOf(m[0].toLowerCase());
    const following =
      inSentence >= 0
        ? clause.sentence.slice(inSentence + m[0].length)
        : text.slice((m.index ?? 0) + m[0].length);
    const ended = SPOUSE.has(word) ? spouseLost(/\blate\b/i.test(m[0]) ? "late " : before, following) : null;
    if (ended) {
      out.push({ slot: "marital_status", value: ended, says: `is ${ended}`, confidence: 0.7 });
      continue;
    }
    if (SPOUSE.has(word))
      out.push({ slot: "marital_status", value: "married", says: "is married", confidence: 0.7 });
    if (ENGAGED.has(word))
      out.push({ slot: "marital_status", value: "engaged", says: "is engaged", confidence: 0.7 });
    // "Oliver, my youngest, starts school": the name before the mention, read from the sentence (the
    // clause may start at the comma).
    const leading =
      new RegExp(`(?:^|[.!?]\\s+)(\\p{Lu}[\\p{L}'-]+),\\s+${m[0].trim()}\\b`, "u").exec(
        clause.sentence,
      )?.[1] ?? null;
    const named =
      nameAfter(rest) ??
      firstNameAfter(clause, rest) ??
      nameIs(clause, rest) ??
      (leading && !NOT_NAMES.has(leading.toLowerCase()) && !(leading.toLowerCase() in KIN)
        ? { name: leading, rest }
        : null);
    if (named) {
      const slot = nameSlot(rel);
      out.push({ slot, value: named.name, says: `is named ${named.name}`, confidence: 0.75, about: word });
      rest = named.rest;
    }
    const passing = rel === "child" ? null : jobInPassing(clause, rest);
    if (passing) out.push(relativeJob(rel, word, passing));
    // What the rest of the clause says about them, when they are its subject.
    const pred =
      /^\s*(?:,\s*)?(?:just |now |recently |also |still )*(has been|'s been|is|was|'s|s|works|worked|lives|lived|moved|qualified|trained|became|has become|resides|is living|is based|got a job|is training|retrained|used to be|started as|started work as)\b(.*)$/iu.exec(
        rest,
      );
    if (!pred || rel === "child") continue;
    const verb = (pred[1] ?? "").toLowerCase();
    const tail = pred[2] ?? "";
    const found = foundAt(clause, m.index ?? 0, `${m[0]}${rest.slice(0, rest.length - tail.length)}`);
    if (denied(found) || /^\s*not\b/i.test(tail)) continue;
    const job =
      /^\s+(?:[\p{L}]+ly\s+)?(?:(?:(?:training|studying)\s+)?(?:to be\s+)?(?:a|an)\s+|(?:[\p{L}'-]+\s+){0,4}?as\s+(?:a\s+|an\s+)?)((?:retired|former|trainee|junior|senior|qualified|newly qualified|literally)\s+)?(.*)$/iu.exec(
        tail,
      );
    if (
      job &&
      /^(?:is|was|'s|s|works|worked|qualified|trained|became|has become|got a job|is training|retrained|used to be|has been|'s been|started as|started work as)$/.test(
        verb,
      )
    ) {
      const phrase = nounPhrase(job[2] ?? "");
      const title = phrase
        ? jobTitle(
            clause,
            phrase,
            /^(?:works|worked|qualified|trained|started as|started work as)$/.test(verb),
          )
        : null;
      if (title)
        out.push(relativeJob(rel, word, title, /retired|former/.test(job[1] ?? "") || verb === "used to be"));
    }
    const place = /\b(?:in|to)\s+((?:\p{Lu}[\p{L}'-]+)(?:\s+\p{Lu}[\p{L}'-]+){0,2})/u.exec(tail);
    // "is in Spain next week" is a trip, not a home.
    const away = FUTURE_TIME.test(tail) || /\b(?:visiting|on holiday|on a trip)\b/i.test(tail);
    if (place?.[1] && !NOT_NAMES.has(place[1].toLowerCase()) && rel !== "partner" && !away) {
      const value = place[1];
      out.push({ slot: `${rel}.lives_in`, value, says: `lives in ${value}`, confidence: 0.7, about: word });
      // "lives with us here in Leeds": the user lives there too.
      if (/\bwith (?:us|me)\b/i.test(tail))
        out.push({ slot: "lives_in", value, says: `lives in ${value}`, confidence: 0.7 });
    }
  }
  out.push(...asides(clause));
  // "I'm seeing someone called Raj"; "I'm not with Tom anymore", "broke up with Tom": a partner no longer.
  for (const f of find(
    clause,
    "^(i|we) am? (seeing|dating) (someone|somebody|a guy|a girl|a man|a woman|this guy|this girl) (called|named) [<n>#ProperNoun]",
  ))
    if (!denied(f)) out.push(partner(asName(f.groups.n ?? "")));
  for (const f of [
    ...find(clause, "^(i|we) am not with [<n>#Person] (anymore|any more)"),
    ...find(clause, "(broke|split) up with [<n>#Person]"),
  ])
    out.push({ ...partner(asName(f.groups.n ?? "")), negated: true });
  // "I'm married to a fireman": the partner's job.
  for (const f of find(clause, "(i|we) am married to (a|an) [<j>.+]")) {
    const title = denied(f) ? null : jobTitle(clause, nounPhrase(f.groups.j ?? ""), false);
    if (title) out.push(relativeJob("partner", "spouse", title));
  }
  out.push(...readChildren(clause));
  const status = (value: string): FactDraft => ({
    slot: "marital_status",
    value,
    says: `is ${value}`,
    confidence: 0.7,
  });
  const STATUS = `(${MARITAL_STATUSES.join("|")})`;
  for (const f of find(clause, `(i|we) (am|are|have been|got|just got) #Adverb? [<s>${STATUS}]`)) {
    if (!denied(f) && !over(f)) out.push(status((f.groups.s ?? "").toLowerCase()));
  }
  // "just got engaged to Aisha!": the status and the partner, the subject left out.
  for (const f of find(clause, "^#Adverb? (got|just got) [<s>(married|engaged)]")) {
    if (denied(f)) continue;
    out.push(status((f.groups.s ?? "").toLowerCase()));
    const to = /^\s+to\s+([\p{L}'-]+)/u.exec(f.after)?.[1] ?? "";
    const named = /^\p{Lu}/u.test(to) || (to !== "" && clause.doc.match(to).has("#FirstName"));
    if (named && !NOT_NAMES.has(to.toLowerCase()) && !(to.toLowerCase() in KIN))
      out.push(partner(asName(to)));
  }
  // "I'm 35, married, two kids".
  for (const f of find(clause, `^(i|we) (am|are) #Value [<s>${STATUS}]`))
    out.push(status((f.groups.s ?? "").toLowerCase()));
  for (const f of find(clause, "i am a [<s>(widow|widower|divorcee)]")) {
    if (!denied(f)) out.push(status((f.groups.s ?? "").startsWith("widow") ? "widowed" : "divorced"));
  }
  for (const f of find(clause, "(i|we) am a single (mum|mom|dad|mother|father|parent)")) {
    if (!denied(f)) out.push(status("single"));
  }
  for (const f of find(clause, "[<s>(single|married|divorced)] (again|now)")) {
    // "broke up with my boyfriend, single again": the status is the speaker's unless "he is" says whose.
    if (!denied(f) && !/\b(?:is|are|was|'s)\s*$/i.test(f.before))
      out.push(status((f.groups.s ?? "").toLowerCase()));
  }
  // "recently divorced, living in Croydon": a status said on its own.
  const alone =
    /^\s*(?:recently |newly |happily |just |now )?(single|married|divorced|widowed|engaged|separated)\s*(?:[,.!]|$)/i.exec(
      text,
    );
  if (alone?.[1]) out.push(status(alone[1].toLowerCase()));
  for (const f of find(clause, "^#Adverb? [<s>(single|married|divorced|widowed|engaged)] (and|since|for)")) {
    out.push(status((f.groups.s ?? "").toLowerCase()));
  }
  return out;
}

/**
 * What a parenthesis or a dash adds to the relative before it, read from the whole sentence (the aside is a
 * clause of its own): "my husband (he's a chef)", "my mum - who was a teacher - ".
 */
function asides(clause: Clause): FactDraft[] {
  if (!/[(–—]|\s-\s/.test(clause.sentence)) return [];
  const out: FactDraft[] = [];
  const job = new RegExp(
    `\\bmy (${KIN_WORDS.join("|")}) (?:\\(|[-–—]+ )(?:he|she|they|who)(?:'s| is| are| was) (?:a|an) ([^)–—]+?)(?:\\)| [-–—]|$)`,
    "i",
  ).exec(clause.sentence);
  const word = job?.[1]?.toLowerCase() ?? "";
  const title = job?.[2] ? jobTitle(clause, nounPhrase(job[2]), false) : null;
  if (title && word) out.push(relativeJob(KIN[word] ?? word, word, title));
  return out;
}
