import type { CacheSet } from "../model/index.js";
import { chrono } from "./load-chrono.js";
import { rescored } from "./query-ports.js";
import { bareYears, mayNameTime, preciseDate, type TimeMention } from "./time-mentions.js";

/** Whether a query asks for a time ("When did...", "What year...", "How long ago..."). */
export function asksWhen(query: string): boolean {
  return /\b(when|what (date|day|month|year|time)|which (date|day|month|year)|how long ago)\b/i.test(query);
}

/** A span of time a query names ("in May 2023", "last year"), as ISO dates, end exclusive. */
export interface TimeRange {
  readonly from: string;
  readonly to: string;
}

/**
 * The span a query is about, resolved against `now`: the first dated expression at its precision
 * ("in 2022": the year; "last month": that month; "on 7 May 2023": the day), to the end of its last part
 * when it names two ("between March and May 2023"). Null when it names none.
 */
export function queryTimeRange(query: string, now: Date, caches?: CacheSet): TimeRange | null {
  if (!caches) return parseTimeRange(query, now);
  // One retrieve asks this of the same query in each of its searches; chrono takes milliseconds a parse.
  // Spans are whole days and midnight is a minute's start, so within one minute the answer is the same.
  const key = `${Math.floor(now.getTime() / 60_000)} ${query}`;
  return caches
    .cache<string, TimeRange | null>("query time ranges", 64)
    .memo(key, () => parseTimeRange(query, now));
}

function parseTimeRange(query: string, now: Date): TimeRange | null {
  const results = mayNameTime(query) ? chrono().en.casual.parse(query, { instant: now, timezone: 0 }) : [];
  for (const result of results) {
    const start = preciseDate(result.start);
    if (start === null) continue;
    const span = spanOf(start);
    const end = result.end ? preciseDate(result.end) : null;
    return { from: span.from, to: end === null ? span.to : spanOf(end).to };
  }
  const year = bareYears(query)[0];
  return year ? spanOf(year.date) : null;
}

/** The days a date covers at its precision (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`; a full ISO time: its day). */
export function spanOf(date: string): TimeRange {
  const [year, month, day] = date.slice(0, 10).split("-").map(Number) as [number, number?, number?];
  const from = new Date(Date.UTC(year, (month ?? 1) - 1, day ?? 1));
  const to = new Date(from);
  if (day !== undefined) to.setUTCDate(day + 1);
  else if (month !== undefined) to.setUTCMonth(month);
  else to.setUTCFullYear(year + 1);
  return { from: iso(from), to: iso(to) };
}

const iso = (d: Date): string => d.toISOString().slice(0, 10);

/** Whether a date at any precision overlaps a range. */
export function overlaps(date: string, range: TimeRange): boolean {
  const span = spanOf(date);
  return span.from < range.to && span.to > range.from;
}

export interface TimedHit {
  /** When the memory was said or happened (ISO), or null. */
  readonly at: string | null;
  readonly times: readonly TimeMention[];
}

/**
 * A time prior on fused scores. A query asking "when" lifts hits that carry a dated expression by
 * `whenStrength`: the turn that says "yesterday" dates the event, its paraphrases do not. A query naming a
 * span lifts hits said in it or mentioning a date in it by `rangeStrength`. Stable for ties.
 */
export function applyTimePrior<T extends { score: number }>(
  hits: readonly T[],
  query: string,
  now: Date,
  timedOf: (hit: T) => TimedHit | undefined,
  strength: { when: number; range: number },
  caches?: CacheSet,
): T[] {
  const when = strength.when > 0 && asksWhen(query);
  const range = strength.range > 0 ? queryTimeRange(query, now, caches) : null;
  if (!when && !range) return [...hits];
  return rescored(hits, (hit) => {
    const timed = timedOf(hit);
    let boost = 0;
    if (timed && when && timed.times.length > 0) boost += strength.when;
    if (timed && range) {
      const inside =
        (timed.at !== null && overlaps(timed.at, range)) || timed.times.some((t) => overlaps(t.date, range));
      if (inside) boost += strength.range;
    }
    return boost ? hit.score + boost : hit.score;
  });
}
