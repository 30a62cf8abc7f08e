/**
 * What the user is about to do, read from the verbs of a parsed clause: a future form ("I will visit"),
 * an intention ("we plan to buy"), or a present progressive with a future time ("we're adopting a dog
 * in the spring"). The value is the verb's infinitive with what follows it: "adopt a dog in the spring".
 */
import { FUTURE_TIME, PETS, RELATIVES } from "../fact-lexicon.js";
import type { FactDraft } from "../fact-patterns.js";
import { userPerson } from "../fact-values.js";
import type { Clause } from "./clauses.js";
import { aboutUser, clauseVerbs, denied, find, foundAt } from "./match.js";

const MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december";
/** Future times beyond the shared list: seasons, the end of a period, a date in the month, "for April". */
const PLAN_TIME = new RegExp(
  `\\b(?:in the (?:spring|summer|autumn|fall|winter|new year)|(?:at|by) (?:the )?end of (?:the |this )?(?:week|month|year|summer|term|${MONTHS})|on the \\d{1,2}(?:st|nd|rd|th)|in (?:late|early|mid)[- ](?:${MONTHS})|later (?:today|this \\w+)|this (?:weekend|evening|afternoon)|(?:for|at|over|on) (?:christmas|easter|new year|thanksgiving|half[- ]term|the holidays|my birthday|valentine'?s day)|over the (?:\\w+ )?(?:break|holidays?|weekend)|after (?:christmas|easter|new year|the holidays|the summer)|(?:for|by) (?:${MONTHS}))\\b`,
  "i",
);
const hasTime = (text: string) => FUTURE_TIME.test(text) || PLAN_TIME.test(text);
/** A clause that may state a plan: a future time, an intention, or "off to". */
export const PLAN_CUES = {
  test: (text: string) =>
    hasTime(text) ||
    /\b(?:will|shall|plan\w*|intend\w*|going to|gonna|about to|aim\w*|goal|scheduled|due to|set to|off to|thinking|considering|booked|booking|signed up|registered|enrolled|moved|pushed|postponed|rescheduled|bumped|brought forward|put back)\b/i.test(
      text,
    ),
};
/** Verbs that state a feeling or a state, not something the user will do. */
const NOT_ACTIONS = new Set(
  "be have feel think know want need hope like love hate wonder try look seem mean guess wish say tell ask write miss".split(
    " ",
  ),
);
/** Where the plan's words end: a reason, a feeling, another clause. */
const PLAN_END =
  /\s*(?:[,;:!?()]|\.(?:\s|$)|\s[-–—]+\s|\band\s+(?:my\s+|the\s+)?\w+\s+(?:start|starts|begin|begins|is|are|was|were)\b|\b(?:so|because|since|and I|but|which|who|if|as|instead of|rather than|not|for (?:her|his|my|our|their) (?:job|work)|to (?:take|start|see|be)|wish me|lol|haha)\b)/i;
/** Intentions that make the next verb a plan: "we plan to buy a house", "thinking of moving". */
const INTENT =
  /\b(?:(?:plan|goal|aim|idea) is to|(?:plan|plans|planning|intend|intends|intending|going|gonna|about|aim|aiming|scheduled|due|set|want|wants|hope|hoping)\s+to|(?:thinking of|thinking about|considering))\s*$/i;
/** An intention and the word after it. */
const INTENT_AT =
  /\b(thinking of|thinking about|considering|planning on|planning to|due to|about to|going to|gonna|plan to|intend to|intending to|aiming to|set to|scheduled to)\s+([a-z]+)\b/gi;
/**
 * The verb is the user's when nothing but "I"/"we", auxiliaries, adverbs and a time come before it
 * ("Next summer I will visit", "flying to Tokyo"); "The lease starts on the 8th" is the lease's.
 */
const USER_VERB =
  /^(?:\s*(?:so|then|and|but|also|just|now|next|this|last|on|in|at|the|(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|september|october|november|december|christmas|easter|holidays|week|weekend|month|year|summer|spring|autumn|fall|winter|morning|evening|tonight|tomorrow|soon|after|that|finally|actually|really|honestly|definitely|probably|still))*\s*(?:(?:(?:the|my|our)\s+(?:plan|goal|aim|idea)\s+is\s+to)|(?:i|we|im|ive)(?:\s+(?:am|are|will|shall|have|has|had|was|were|be|been|also|just|really|still|finally|now|then|soon|definitely|actually|going|planning|hoping|about|due|set|to|gonna|intend|intending|plan|aim|aiming|thinking|of|about|considering|looking|at|forward|hopefully|want|wants|hope|hoping|would|like|love))*)?\s*$/i;
/** Verbs of a timetable: the simple present with a future time is a plan ("I start my new job Monday"). */
const SCHEDULED = new Set(
  "start begin fly leave move go finish graduate retire travel return arrive head".split(" "),
);
/**
 * An event of the user's and its date, said of the event: "my" or "our" anything, or "the" and an event
 * a person goes through ("the wedding", not "the lease"); a place or firm may follow ("at Google").
 */
const DATED_EVENT =
  /^(my|our|the)\s+((?:[a-z]+(?:'s)?\s+){0,2}[a-z]+(?:\s+(?:at|with)\s+\p{Lu}[\p{L}&'-]*(?:\s+\p{Lu}[\p{L}&'-]*)*)?)(?:\s+(?:is|are|starts?|begins?)|'s)\s+(?:due\s+)?((?:on|in|next|this|tomorrow|at)\b.*)$/iu;
const EVENTS =
  /^(?:wedding|big day|party|move|trip|holiday|exam|exams|final|finals|interview|surgery|operation|appointment|graduation|ceremony|race|marathon|gig|concert|due date|induction|scan|hearing)$/i;
/** Things one has on a date, beyond the events said of themselves. */
const HAD_EVENTS =
  /^(?:appointment|appt|test|exam|exams|interview|meeting|party|date|class|lesson|lessons|match|game|gig|concert|show|trip|holiday|flight|deadline|shift|shifts|presentation|review|check-up|checkup|session|recital|performance|audition|course|conference|event|procedure|treatment|jab|vaccine|booster|visit|viva|defence|defense|birthday|anniversary|reunion|hen|stag|do|job|role|position|baby|scan|hearing|court|operation)$/i;

/** Going somewhere: "heading to my parents' for Christmas" is a trip. */
const GOING = new Set(["go", "head", "travel"]);
/** Having a dated event: "I have a dentist appointment tomorrow", "I've got my driving test on Thursday". */
const HAVING = /^(?:have|has|have got|has got|'ve got|got|(?:(?:am|are|is|will be|'ll be)\s+)?having)$/i;

/**
 * A plan, in the third person ("show my paintings" -> "show their paintings"), or none when its words
 * point back into the chat ("make it happen", "keep it up") or hold too little to be a plan.
 */
function plan(raw: string, kind: "act" | "event" | "trip" = "act"): FactDraft[] {
  const value = userPerson(raw.replace(/\s+coming up$/i, "").trim());
  const words = value.split(/\s+/).filter(Boolean);
  const pointer =
    /\b(?:it|them|things|stuff|there|you)\b|\b(?:this|that|these|those)\b(?=\s*$|\s+(?:happen|work|out|up|done|right|again|first|later|soon|now|next|tomorrow|today|tonight)\b)/i;
  if (words.length < 2 || pointer.test(value)) return [];
  const says =
    kind === "trip" ? `plans a ${value}` : kind === "event" ? `has ${value} ahead` : `plans to ${value}`;
  return [{ slot: "plan", value, says, confidence: 0.7 }];
}

export function readPlans(clause: Clause): FactDraft[] {
  const out: FactDraft[] = [];
  const text = clause.text;
  const verbs = clauseVerbs(clause);
  for (const v of verbs) {
    if (v.negative || !v.infinitive) continue;
    // compromise reads "im" as two words, which moves its offsets: a verb not found where it says is skipped.
    if (text.slice(v.start, v.start + v.text.length).toLowerCase() !== v.text.toLowerCase()) continue;
    const having = HAVING.test(v.text) && !/past/.test(v.form);
    if (NOT_ACTIONS.has(v.infinitive) && !having && v.infinitive !== "be") continue;
    const before = text.slice(0, v.start);
    if (!USER_VERB.test(before) || !aboutUser(clause, foundAt(clause, v.start, v.text))) continue;
    const after = text.slice(v.start + v.text.length);
    const rest = after.split(PLAN_END)[0]?.trim() ?? "";
    // A future form or a progressive is a plan when a time says when; an intention is one by itself.
    const future = /future/.test(v.form) || /\b(?:will|shall|'ll)\b/.test(v.auxiliary);
    const progressive =
      /progressive|gerund/.test(v.form) ||
      /ing$/.test(v.text.split(/\s+/).at(-1) ?? "") ||
      /\bgetting \w+ed$/.test(v.text);
    // The time must be the verb's own: in what follows it, or put first in the clause.
    const lead = before.split(/\b(?:i|we)\b/i)[0] ?? "";
    const fronted = FUTURE_TIME.exec(lead)?.[0] ?? PLAN_TIME.exec(lead)?.[0];
    const dated = hasTime(rest) || fronted !== undefined;
    // compromise may read "am due to give" as one verb: the intention is then inside its words.
    const intent = INTENT.test(before) || INTENT.test(v.text.split(/\s+/).slice(0, -1).join(" "));
    if (having || v.infinitive === "be") {
      // An event had or a place to be at a future time: "a dentist appointment tomorrow".
      const event = rest.replace(/^(?:got\s+)?(?:a|an|my|the|our)\s+/i, "");
      // What is had must be an event: "a dentist appointment tomorrow", not "many tomatoes this year".
      const occasion = having ? event.split(/\s+/).some((w) => EVENTS.test(w) || HAD_EVENTS.test(w)) : true;
      if (
        dated &&
        event &&
        occasion &&
        // "I'll be 30 in March" is a birthday to come, not a plan.
        !/^(?:to|a lot|no|any|some|fun|time|\d+|[a-z]+ty(?:-\w+)?)\b/i.test(event) &&
        (future || progressive || v.infinitive !== "be")
      )
        out.push(...plan(event, "event"));
      continue;
    }
    const present = /simple-present/.test(v.form) && SCHEDULED.has(v.infinitive);
    // "we're planning a trip to Iceland": what is being planned is a plan, dated or not.
    const planning =
      progressive &&
      /^(?:plan|organise|organize|arrange)$/.test(v.infinitive) &&
      /^(?:a|an|our|my)\s/i.test(rest);
    if (!intent && !planning && !((future || progressive || present) && dated)) continue;
    // What the user wants is a plan only once it has a date ("want to run a marathon next year").
    if (clause.wanted && !dated) continue;
    // "planning to get a dog": the next verb is the plan.
    if (/^(?:plan|intend|aim|hope|want)$/.test(v.infinitive) && /^to\b/i.test(rest)) continue;
    // "going to propose" is an intention, read at its second verb; "going to Rome" is a trip.
    const toVerb = verbs.some(
      (w) => w.start > v.start && /^\s*to\s*$/i.test(text.slice(v.start + v.text.length, w.start)),
    );
    if (GOING.has(v.infinitive) && toVerb) continue;
    if (GOING.has(v.infinitive) && /^to\s+(?!the\b|bed\b|work\b|school\b)/i.test(rest)) {
      out.push(...plan(`trip ${rest}`, "trip"));
      continue;
    }
    // "are getting married": the plan is to get married, not to marry.
    const verb = /\bgetting (\w+ed)$/.exec(v.text)?.[1]
      ? `get ${/\bgetting (\w+ed)$/.exec(v.text)?.[1]}`
      : v.infinitive;
    // "planning field research next month": the plan is the research, not planning it.
    const words = [
      /^(?:plan|organise|organize|arrange)$/.test(verb) && rest ? "" : verb,
      rest,
      fronted && !rest.includes(fronted) ? fronted.replace(/^\p{Lu}(?=\p{Ll})/u, (c) => c.toLowerCase()) : "",
    ].filter(Boolean);
    const value = words
      .join(" ")
      .replace(/\s+/g, " ")
      .replace(/^(?:a|an|the)\s+/i, "")
      .trim();
    if (value.split(" ").length <= 14) out.push(...plan(value));
  }
  // The parser may miss the verb after an intention ("thinking of getting", "due to give birth"): the
  // word after it is then read as the verb.
  for (const m of text.matchAll(INTENT_AT)) {
    const before = text.slice(0, m.index);
    const word = (m[2] ?? "").toLowerCase();
    const at = (m.index ?? 0) + m[0].length - word.length;
    // Read only where the parser found no verb.
    if (
      !USER_VERB.test(before) ||
      verbs.some((v) => v.start <= at && v.start + v.text.length >= at + word.length)
    )
      continue;
    // "going to Japan" names a place: "to" is a preposition there, and the word after it no verb.
    const terms = (
      clause.doc.match(`${m[1]} ${word}`).json()[0] as { terms?: Array<{ tags: string[] }> } | undefined
    )?.terms;
    const tags = terms?.flatMap((t) => t.tags) ?? [];
    const last = terms?.at(-1)?.tags ?? [];
    if (
      last.some((t) => /^(?:ProperNoun|Place|Date|Value|Pronoun|Determiner)$/.test(t)) ||
      (/\bto$/i.test(m[1] ?? "") && tags.includes("Preposition"))
    )
      continue;
    const inf = /ing$/.test(word)
      ? ((clause.nlp(`I am ${word}`).verbs().json()[0] as { verb?: { infinitive?: string } } | undefined)
          ?.verb?.infinitive ?? "")
      : word;
    if (!inf || /\s/.test(inf) || NOT_ACTIONS.has(inf)) continue;
    const rest =
      text
        .slice((m.index ?? 0) + m[0].length)
        .split(PLAN_END)[0]
        ?.trim() ?? "";
    if (clause.wanted && !hasTime(rest)) continue;
    const found = foundAt(clause, m.index ?? 0, m[0]);
    if (aboutUser(clause, found) && !denied(found)) out.push(...plan(`${inf} ${rest}`.trim()));
  }
  // "we're off to Mexico in June", "my driving test is on the 14th".
  for (const f of find(clause, "^(i|we)? (am|are)? off to [<p>(#Place|#ProperNoun)+]")) {
    const rest = text
      .slice(f.start + f.text.length - (f.groups.p ?? "").length)
      .split(PLAN_END)[0]
      ?.trim();
    if (rest) out.push(...plan(`trip to ${rest}`, "trip"));
  }
  // "I've booked a week in Crete for August", "signed up for a pottery class starting next week".
  for (const f of find(
    clause,
    "(booked|booking|signed up for|registered for|entered|enrolled in|enrolled on|scheduled for|booked in for)",
  )) {
    const rest = f.after.split(PLAN_END)[0]?.trim() ?? "";
    const event = rest.replace(/^(?:a|an|my|the|our)\s+/i, "");
    if (event && hasTime(event) && aboutUser(clause, f) && !denied(f)) out.push(...plan(event, "event"));
  }
  // "my driving test is on the 14th", "my interview at Google is next Tuesday", "the wedding's in May".
  const dated = DATED_EVENT.exec(text);
  if (dated) {
    const when = (dated[3] ?? "").split(PLAN_END)[0]?.trim() ?? "";
    const what = (dated[2] ?? "").toLowerCase();
    const owned = (dated[1] ?? "").toLowerCase() !== "the" || EVENTS.test(what);
    // "my daughter is in Spain next week" is her trip ("our baby is due in March" a birth to come);
    // "my flat is on the 14th floor" no date.
    const due = /\sdue\s/i.test(dated[0]);
    const head = /([a-z]+)(?:\s+(?:at|with)\s.*)?$/.exec(what)?.[1] ?? "";
    const someone = !due && (head in RELATIVES || head in PETS);
    const place = /^on the \d{1,2}(?:st|nd|rd|th)\s+(?:floor|street|avenue|road|row|century)\b/i.test(when);
    if (owned && !someone && !place && hasTime(when)) out.push(...plan(`${dated[2]} ${when}`, "event"));
  }
  out.push(...rescheduled(clause), ...tripAhead(clause));
  return out;
}

/** Things an event is moved by: "got moved", "has been pushed back", "was rescheduled". */
const MOVED =
  /^(?:(?:my|our|the)\s+)((?:[\p{L}]+\s+){0,3}?[\p{L}]+)\s+(?:(?:got|has been|have been|was|were|is|are|'s)\s+)?(?:moved|pushed|postponed|rescheduled|changed|bumped|brought forward|put back)(?:\s+(?:back|forward|out))?\s+(?:from\s+(?:the\s+)?([\p{L}\p{N}]+(?:\s+\d{4})?)\s+)?to\s+(?:the\s+)?([\p{L}\p{N}]+(?:\s+\d{4})?)(?:\s*,?\s*(?:instead of|not|rather than)\s+(?:the\s+)?([\p{L}\p{N}]+))?/iu;
const WEEKDAY = /^(?:mon|tues|wednes|thurs|fri|satur|sun)day$|^\d{1,2}(?:st|nd|rd|th)$/i;

/**
 * An event moved to another date: "my interview moved to Thursday instead of Tuesday", "our trip to Japan
 * got pushed from April to October": the event at its new date, and at the old one retracted.
 */
function rescheduled(clause: Clause): FactDraft[] {
  const m = MOVED.exec(clause.text.trim());
  if (!m?.[1] || !m[3]) return [];
  // "my interview", "our trip": the user's; with "the", only an event a person goes through ("the wedding",
  // not "the club meeting"), as for a dated event.
  const mine = /^\s*(?:my|our)\b/i.test(clause.text);
  const event = m[1].split(/\s+/).some((w) => EVENTS.test(w) || (mine && HAD_EVENTS.test(w)));
  // "my sister's flight" is hers: the event is the user's when nothing before it is someone's.
  if (!event || /'s\b/.test(m[1])) return [];
  const at = (when: string) => `${m[1]} ${WEEKDAY.test(when.split(/\s+/)[0] ?? "") ? "on" : "in"} ${when}`;
  const old = m[2] ?? m[4];
  return [
    ...plan(at(m[3]), "event"),
    ...(old ? plan(at(old), "event").map((d) => ({ ...d, negated: true })) : []),
  ];
}

/** "before my move to Madrid in January", "for our trip to Crete next week": a dated trip named in passing. */
const TRIP_AHEAD =
  /\b(?:my|our)\s+((?:big\s+|first\s+|next\s+)?(?:move|trip|holiday|flight|visit|honeymoon|relocation)\s+to\s+\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)\s+((?:in|on|next|this|at the end of)\s+[\p{L}\p{N}]+(?:\s+\d{4})?)/u;
function tripAhead(clause: Clause): FactDraft[] {
  const m = TRIP_AHEAD.exec(clause.text);
  if (!m?.[1] || !m[2] || !hasTime(m[2]) || !aboutUser(clause, foundAt(clause, m.index, m[0]))) return [];
  return plan(`${m[1]} ${m[2]}`, "event");
}
