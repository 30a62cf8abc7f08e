import * as chrono from "chrono-node";
import { bareYears, type TimeMention } from "./time-mentions.js";

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
 * ("in 2022": the year; "last month": that month; "on 7 May 2023": the day). Null when it names none.
 */
export function queryTimeRange(query: string, now: Date): TimeRange | null {
  for (const result of chrono.en.casual.parse(query, { instant: now, timezone: 0 })) {
    const start = result.start;
    const year = start.get("year");
    const month = start.get("month");
    const day = start.get("day");
    if (year === null || month === null || day === null) continue;
    const unit =
      start.isCertain("day") || start.isCertain("weekday")
        ? "day"
        : start.isCertain("month")
          ? "month"
          : start.isCertain("year")
            ? "year"
            : null;
    if (unit === null) continue;
    const from = new Date(Date.UTC(year, unit === "year" ? 0 : month - 1, unit === "day" ? day : 1));
    const to = new Date(from);
    if (unit === "day") to.setUTCDate(to.getUTCDate() + 1);
    else if (unit === "month") to.setUTCMonth(to.getUTCMonth() + 1);
    else to.setUTCFullYear(to.getUTCFullYear() + 1);
    const end = result.end;
    // A span ("between March and May 2023") runs to the end of its last part.
    if (end?.isCertain("month")) {
      const last = new Date(Date.UTC(end.get("year") ?? year, (end.get("month") ?? month) - 1, 1));
      last.setUTCMonth(last.getUTCMonth() + 1);
      if (last > to) return { from: iso(from), to: iso(last) };
    }
    return { from: iso(from), to: iso(to) };
  }
  const year = bareYears(query)[0];
  return year ? { from: `${year.date}-01-01`, to: `${Number(year.date) + 1}-01-01` } : null;
}

const iso = (d: Date): string => d.toISOString().slice(0, 10);

/** Whether a date at any precision (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a full ISO time) overlaps a range. */
export function overlaps(date: string, range: TimeRange): boolean {
  const start = date.length === 4 ? `${date}-01-01` : date.length === 7 ? `${date}-01` : date.slice(0, 10);
  const end =
    date.length === 4 ? `${Number(date) + 1}-01-01` : date.length === 7 ? nextMonth(date) : `${start}~`;
  return start < range.to && end > range.from;
}

function nextMonth(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
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
): T[] {
  const when = strength.when > 0 && asksWhen(query);
  const range = strength.range > 0 ? queryTimeRange(query, now) : null;
  if (!when && !range) return [...hits];
  return hits
    .map((hit, rank) => {
      const timed = timedOf(hit);
      let boost = 0;
      if (timed && when && timed.times.length > 0) boost += strength.when;
      if (timed && range) {
        const inside =
          (timed.at !== null && overlaps(timed.at, range)) ||
          timed.times.some((t) => overlaps(t.date, range));
        if (inside) boost += strength.range;
      }
      return { hit: boost ? { ...hit, score: hit.score + boost } : hit, rank };
    })
    .sort((a, b) => b.hit.score - a.hit.score || a.rank - b.rank)
    .map((x) => x.hit);
}
