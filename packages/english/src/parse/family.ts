/**
 * The people in the user's life, read from a parsed clause: a relative named ("my sister Chloe"), what
 * they do and where they live, a partner and what it says of marital status, children and their names.
 * Friends and colleagues are left out: "my friend lives in Paris" says nothing durable about the user.
 */
import { FUTURE_TIME, MARITAL_STATUSES, NOT_NAMES, NUMBER_WORDS, RELATIVES } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import { article } from "../fact-values.js";
import type { Clause } from "./clauses.js";
import { aboutUser, asName, BARE_KIN, denied, find, foundAt, over } from "./match.js";
import { jobTitle, nounPhrase } from "./work.js";

/** Relatives and partners beyond the shared list, by the words people use. */
const KIN: Readonly<Record<string, string>> = {
  ...RELATIVES,
  hubby: "partner",
  mam: "mother",
  wifey: "partner",
  missus: "partner",
  esposa: "partner",
  esposo: "partner",
  bf: "partner",
  gf: "partner",
  grandad: "grandfather",
  granddad: "grandfather",
  gran: "grandmother",
  granny: "grandmother",
  nan: "grandmother",
  nana: "grandmother",
  kiddo: "child",
  youngest: "child",
  eldest: "child",
  oldest: "child",
  firstborn: "child",
  kid: "child",
  child: "child",
  boy: "son",
  girl: "daughter",
  "little one": "child",
  sis: "sister",
  "other half": "partner",
  bro: "brother",
  stepbrother: "stepbrother",
  stepsister: "stepsister",
  stepson: "stepson",
  stepdaughter: "stepdaughter",
  "sister-in-law": "sister-in-law",
  "brother-in-law": "brother-in-law",
  "mother-in-law": "mother-in-law",
  "father-in-law": "father-in-law",
};
const KIN_WORDS = Object.keys(KIN).sort((a, b) => b.length - a.length);
/** A clause about family at all: a relative, children, or a marital status. */
export const FAMILY_CUE = new RegExp(
  `\\b(?:${KIN_WORDS.join("|")}|kids|children|twins|triplets|sons|daughters|boys|girls|seeing|dating|broke up|split up|not with|named|single|married|divorced|widow\\w*|divorcee|separated|engaged)(?![\\p{L}\\p{N}_])`,
  "iu",
);
const SPOUSE = new Set(["wife", "husband", "hubby", "wifey", "missus", "esposa", "esposo", "spouse"]);
const ENGAGED = new Set(["fiance", "fiancé", "fiancee", "fiancée"]);
const MODIFIERS =
  "(?:(?:older|younger|big|little|baby|twin|eldest|oldest|youngest|elder|half|lovely|amazing)[- ]?\\s*)?";
const MENTION = new RegExp(
  // The end is a lookahead, not \\b, which is ASCII only: "fiancé" ends on a letter it does not know.
  `(?:\\b(?:my|our|mi)\\s+${MODIFIERS}|^\\s*(?=(?:${BARE_KIN})\\b))(${KIN_WORDS.join("|")})(?![\\p{L}\\p{N}_])`,
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

export function readFamily(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const text = clause.text;
  for (const m of text.matchAll(MENTION)) {
    const word = (m[1] ?? "").toLowerCase();
    const rel = KIN[word] ?? word;
    const before = text.slice(0, m.index);
    if (/\b(?:friend|mate|boss|colleague|coworker|neighbour|neighbor)'?s\s*$/i.test(before)) continue;
    let rest = text.slice((m.index ?? 0) + m[0].length);
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
  // "we named our baby Rose".
  for (const f of find(
    clause,
    "(named|called) (our|my) (baby|son|daughter|boy|girl|little one) [<n>#ProperNoun]",
  ))
    out.push({
      slot: "child",
      value: asName(f.groups.n ?? ""),
      says: `has a child named ${asName(f.groups.n ?? "")}`,
      confidence: 0.7,
    });
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
  // Children: "we have two kids", "we've got twins, Noah and Lily", "a single mum of one".
  for (const f of find(
    clause,
    "(have|got|had|raising) [<n>(#Value|twins|triplets)] #Adjective? #Adjective? (adult|grown|teenage|young)? (kids|children|sons|daughters|boys|girls|son|daughter|boy|girl|little ones)?",
  )) {
    if (denied(f) || over(f)) continue;
    const word = (f.groups.n ?? "").toLowerCase();
    const count = word === "twins" ? 2 : word === "triplets" ? 3 : (NUMBER_WORDS[word] ?? Number(word));
    const noun = f.text.split(/\s+/).at(-1)?.toLowerCase() ?? "";
    if (
      !count ||
      count > 12 ||
      (word !== "twins" && word !== "triplets" && !/kid|child|son|daughter|boy|girl|ones/.test(noun))
    )
      continue;
    out.push(childCount(count, 0.75), ...childNames(f.after));
  }
  // "my two boys are 5 and 7", "our three kids": a count said with the possessive.
  for (const f of find(
    clause,
    "^(my|our) [<n>#Value] #Adjective? (kids|children|sons|daughters|boys|girls|little ones)",
  )) {
    const count = NUMBER_WORDS[(f.groups.n ?? "").toLowerCase()] ?? Number(f.groups.n);
    if (count > 1 && count <= 12) out.push(childCount(count));
  }
  // "mum to Ella and Finn", "my kids, Zara and Leo, love camping".
  for (const f of find(clause, "(mum|mom|dad|mother|father|parent) to [<k>#ProperNoun+]")) {
    // "taking my mum to Paris": the user's own mother going somewhere, not the user a mother to someone.
    const someones = /\b(?:my|our|his|her|their|your|the)\s+(?:\w+\s+)?$/i.test(f.before);
    if (!denied(f) && !someones)
      out.push(...childNames(f.text.slice(f.text.search(/\bto\b/i) + 2) + f.after));
  }
  // Read from the sentence: a dash, a colon or a bracket ends the clause before the names.
  for (const pattern of KIDS_NAMED) {
    const named = pattern.exec(clause.sentence);
    // The children are the user's when the clause that mentions them is about the user.
    const mention = named ? (named[0].split(/[,:(]|\s[-–—]|\s(?:named|called|are)\s/)[0] ?? "").trim() : "";
    const at = mention ? clause.text.indexOf(mention) : -1;
    if (!named?.[1] || at < 0) continue;
    const found = foundAt(clause, at, mention);
    if (aboutUser(clause, found) && !denied(found))
      out.push(...childNames(named[1].replace(/\s*\(\d+\)/g, "")));
  }
  for (const f of find(clause, "(mum|mom|dad|mother|father|parent) of [<n>#Value]")) {
    const count = NUMBER_WORDS[(f.groups.n ?? "").toLowerCase()] ?? Number(f.groups.n);
    if (count && !denied(f)) out.push(childCount(count));
  }
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

/** Children's names after them, each perhaps with an age in brackets: "Isla (6) and Ruby (4)". */
const KID_LIST = String.raw`\p{Lu}[\p{L}'-]*(?:\s*\(\d+\))?(?:(?:,\s*|\s+and\s+|\s*&\s*)\p{Lu}[\p{L}'-]*(?:\s*\(\d+\))?)*`;
/**
 * "my kids, Zara and Leo", "my twins Leo and Mia", "two girls, Isla (6) and Ruby (4)", "3 kids - Ava, Sam
 * and Jo", "my boys are Jack and Harry"; "mum of two: Leo and Mia".
 */
const KIDS_NAMED = [
  new RegExp(
    String.raw`\b(?:my|our|two|three|four|five|six|\d)\s+(?:(?:two|three|four|five|six|\d)\s+)?(?:little\s+)?(?:kids|children|boys|girls|sons|daughters|twins|triplets)\s*(?:[,:(]|\s[-–—]|\s(?:named|called|are))?\s*(${KID_LIST})`,
    "u",
  ),
  new RegExp(
    String.raw`\b(?:mum|mom|dad|mother|father|parent) (?:of|to) (?:two|three|four|five|six|\d)\s*(?:[,:(]|\s[-–—])\s*(${KID_LIST})`,
    "u",
  ),
];

/** "The user has 3 children." */
const childCount = (count: number, confidence = 0.7): FactDraft => ({
  slot: "children",
  value: String(count),
  says: `has ${count} ${count === 1 ? "child" : "children"}`,
  confidence,
});

/** Children's names in a list: "Ella and Finn", "Ava, Noah and Zoe". */
function childNames(list: string): FactDraft[] {
  const m =
    /^\s*,?\s*((?:(?:baby|little)\s+)?\p{Lu}[\p{L}'-]*(?:(?:,\s+|\s+and\s+|\s*&\s*)(?:(?:baby|little)\s+)?\p{Lu}[\p{L}'-]*)*)/u.exec(
      list,
    );
  const out: FactDraft[] = [];
  for (const n of m?.[1]?.split(/,\s+|\s+and\s+|\s*&\s*/) ?? []) {
    const name = n.replace(/^(?:baby|little)\s+/, "");
    if (name && !NOT_NAMES.has(name.toLowerCase()) && !(name.toLowerCase() in KIN))
      out.push({ slot: "child", value: name, says: `has a child named ${name}`, confidence: 0.7 });
  }
  return out;
}

/**
 * What a parenthesis or a dash adds to the relative before it, read from the whole sentence (the aside is a
 * clause of its own): "our two boys (Rhys and Owen)", "my husband (he's a chef)", "my mum - who was a
 * teacher - ".
 */
function asides(clause: Clause): FactDraft[] {
  if (!/[(–—]|\s-\s/.test(clause.sentence)) return [];
  const out: FactDraft[] = [];
  const kids =
    /\b(?:our|my) (one|two|three|four|five|\d) (?:kids|children|boys|girls|sons|daughters)\s*(?:\(|[-–—]+|:)\s*([^)]+?)(?:\)|$)/i.exec(
      clause.sentence,
    );
  if (kids?.[1]) {
    const count = NUMBER_WORDS[kids[1].toLowerCase()] ?? Number(kids[1]);
    out.push(childCount(count), ...childNames(kids[2] ?? ""));
  }
  const job = new RegExp(
    `\\bmy (${KIN_WORDS.join("|")}) (?:\\(|[-–—]+ )(?:he|she|they|who)(?:'s| is| are| was) (?:a|an) ([^)–—]+?)(?:\\)| [-–—]|$)`,
    "i",
  ).exec(clause.sentence);
  const word = job?.[1]?.toLowerCase() ?? "";
  const title = job?.[2] ? jobTitle(clause, nounPhrase(job[2]), false) : null;
  if (title && word) out.push(relativeJob(KIN[word] ?? word, word, title));
  return out;
}
