import type * as Chrono from "chrono-node";
import { chrono } from "./load-chrono.js";

/**
 * A time expression in a turn, resolved against the moment the turn was said: "last Saturday" said on
 * 8 May 2023 is 2023-05-06. `date` is as precise as the expression: `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
 */
export interface TimeMention {
  readonly text: string;
  readonly date: string;
}

const MONTH_WORDS =
  "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec";
const WEEKDAYS =
  "sunday|monday|tuesday|wednesday|thursday|friday|saturday|sun|mon|tue|thu|thurs?|wed|fri|sat";
const CASUAL =
  "now|today|tonight|tomorrow|overmorrow|tmrw?|yesterday|morning|afternoon|evening|night|midnight|midday|noon|weekends?";
const UNITS = "seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|mos?|quarters?|qtr|years?|yrs?";
const COUNT =
  "this|last|past|next|after|a|an|the|few|several|couple\\s{0,2}(?:of)?|half|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve";
const MAY_NAME_TIME = new RegExp(
  `\\d|\\b(?:${MONTH_WORDS}|${WEEKDAYS}|${CASUAL}|${UNITS})\\b|\\b(?:${COUNT})\\s{1,3}[smhdwy]\\b`,
  "i",
);

/**
 * Whether chrono could find a time in `text`: each of its English parsers needs a digit, a month or a
 * weekday, a word of its casual dates and times, or a unit of time (a one-letter unit after a number word
 * or "this", "last", "next"). Most turns and questions have none and skip its parses, which take about a
 * quarter of a millisecond for a question and more for a long turn.
 */
export function mayNameTime(text: string): boolean {
  return MAY_NAME_TIME.test(text);
}

/** Expressions that name a length of time ("for 7 years"), not a moment: chrono reads them as offsets. */
const DURATION = /^(for|over|in the (past|last))\b/i;

/**
 * Readings that are no date in conversation: "now" is when the turn was said (its day is shown anyway),
 * a bare weekday abbreviation is usually a word ("we sat down", "the sun"), "in the day" an idiom.
 */
const NOT_A_DATE =
  /^((right )?now|today|tonight|this (morning|afternoon|evening)|in the day)$|^(sun|sat|mon|tue|wed|thu|fri)\b/i;

/** The moment a parsed component names, at the precision it is certain of; null for a time of day alone. */
export function preciseDate(component: Chrono.ParsedComponents): string | null {
  const iso = [
    String(component.get("year")).padStart(4, "0"),
    String(component.get("month")).padStart(2, "0"),
    String(component.get("day")).padStart(2, "0"),
  ];
  // A weekday ("last Saturday") fixes the day although chrono calls the day itself implied.
  if (component.isCertain("day") || component.isCertain("weekday")) return iso.join("-");
  if (component.isCertain("month")) return iso.slice(0, 2).join("-");
  if (component.isCertain("year")) return iso[0] as string;
  return null;
}

/** Years named alone ("in 2022"), which chrono leaves out: a 19xx/20xx number after a time preposition. */
const BARE_YEAR = /\b(?:in|during|since|from|until|by|of|before|after)\s+((?:19|20)\d{2})\b(?![-/:.]\d)/gi;

export function bareYears(text: string): TimeMention[] {
  return [...text.matchAll(BARE_YEAR)].map((m) => ({ text: m[0], date: m[1] as string }));
}

/**
 * The dated expressions in `text` ("yesterday", "last year", "May 2023", "two weeks ago"), resolved
 * against `at`, the time the text was said. Durations and bare times of day are left out.
 */
export function resolveTimeMentions(text: string, at: Date): TimeMention[] {
  if (Number.isNaN(at.getTime())) return [];
  if (!mayNameTime(text)) return bareYears(text);
  const mentions: TimeMention[] = [];
  const seen = new Set<string>();
  const reference = { instant: at, timezone: 0 };
  const results = chrono().en.casual.parse(text, reference);
  // The same expressions read as dates to come ("September" in February: this September, not last).
  const ahead = new Map(
    chrono()
      .en.casual.parse(text, reference, { forwardDate: true })
      .map((r) => [r.index, r] as const),
  );
  for (const parsed of results) {
    const later = ahead.get(parsed.index);
    const result = later && saysFuture(text, parsed.index) ? later : parsed;
    const said = result.text.replace(/[\s,;.]+$/, "");
    if (DURATION.test(said) || NOT_A_DATE.test(said)) continue;
    const found = preciseDate(result.start);
    const past = found !== null && result === parsed && saysPast(text, parsed.index);
    const date = past ? earlier(found, result.start, at) : found;
    const key = `${said.toLowerCase()}|${date}`;
    if (date === null || seen.has(key)) continue;
    seen.add(key);
    mentions.push({ text: said, date });
  }
  const covered = mentions.map((m) => m.date.slice(0, 4));
  for (const year of bareYears(text)) if (!covered.includes(year.date)) mentions.push(year);
  return mentions;
}

// What makes a date in a sentence one to come: "we're moving the trip to September", "I'll start in March".
const FUTURE =
  /\b(will|shall|won't|going to|gonna|plan(s|ned|ning)? (to|for|on)|moving|move|postpon\w*|reschedul\w*|next|upcoming|coming up|scheduled|booked|hop(e|ing) to|want to|intend\w* to|look(ing)? forward|soon|expect\w* to|about to)\b|'ll\b/i;

// What makes a date in a sentence one gone by: "I went hiking on Saturday", "we met in March".
const PAST =
  /\b(went|was|were|did|had|got|bought|visited|saw|met|made|took|came|left|finished|started|moved|attended|ran|spent|tried|found|ago|yesterday|last)\b/i;

/** The sentence around `index`. */
function sentenceAt(text: string, index: number): string {
  const start = Math.max(...[".", "!", "?", "\n"].map((c) => text.lastIndexOf(c, index - 1))) + 1;
  const ends = [".", "!", "?", "\n"].map((c) => text.indexOf(c, index)).filter((i) => i >= 0);
  return text.slice(start, ends.length ? Math.min(...ends) : text.length);
}

/** Whether the sentence around `index` speaks of the future (a plan, an intent, something scheduled). */
function saysFuture(text: string, index: number): boolean {
  return FUTURE.test(sentenceAt(text, index));
}

/** Whether the sentence around `index` tells of the past, and of nothing to come. */
function saysPast(text: string, index: number): boolean {
  const sentence = sentenceAt(text, index);
  return PAST.test(sentence) && !FUTURE.test(sentence);
}

/**
 * A date read as one to come moved back to the last one before `at`, when the sentence is in the past: a
 * weekday alone a week back ("I went hiking on Saturday"), a month without its year a year back.
 */
function earlier(date: string, component: Chrono.ParsedComponents, at: Date): string {
  if (date.slice(0, 10) <= at.toISOString().slice(0, 10)) return date;
  if (component.isCertain("weekday") && !component.isCertain("day") && date.length === 10) {
    const back = new Date(`${date}T00:00:00Z`);
    back.setUTCDate(back.getUTCDate() - 7);
    return back.toISOString().slice(0, 10);
  }
  if (!component.isCertain("year")) return `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;
  return date;
}

/** The time mentions stored on a memory's metadata by ingest (`metadata.times`), validated. */
export function storedTimeMentions(metadata: Readonly<Record<string, unknown>>): TimeMention[] {
  const times = metadata.times;
  if (!Array.isArray(times)) return [];
  return times.filter(
    (t): t is TimeMention =>
      typeof t === "object" &&
      t !== null &&
      typeof (t as TimeMention).text === "string" &&
      typeof (t as TimeMention).date === "string",
  );
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A resolved date as people write it: `7 May 2023`, `May 2023`, `2023`. */
export function humanDate(date: string): string {
  const [year, month, day] = date.split("-");
  const name = month ? MONTHS[Number(month) - 1] : undefined;
  if (!name) return year ?? date;
  return day ? `${Number(day)} ${name} ${year}` : `${name} ${year}`;
}

/** The note a rendered turn carries after its text: `(yesterday = 7 May 2023)`. */
export function timeNote(mentions: readonly TimeMention[]): string {
  if (mentions.length === 0) return "";
  return ` (${mentions.map((m) => `${m.text} = ${humanDate(m.date)}`).join("; ")})`;
}
