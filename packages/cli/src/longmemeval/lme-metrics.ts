/** The metrics of docs/benchmarks.md for LongMemEval, as its shared README defines them. */

/** A turn of 250 characters or more counts when a passage of it of at least 200 characters is shown. */
export const LONG_TURN_CHARS = 250;
export const PASSAGE_CHARS = 200;
/** Answers of at most this many words are looked for in the context. */
export const SHORT_ANSWER_WORDS = 6;

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * Whether every answer session is among the first k distinct sessions of the ranking (the paper's
 * turn-to-session conversion). `ranked` lists each result's session, best first.
 */
export function sessionRecallAll(
  ranked: readonly (string | null)[],
  answers: readonly string[],
  k: number,
): number {
  const first = new Set<string>();
  for (const session of ranked) {
    if (first.size >= k) break;
    if (session !== null) first.add(session);
  }
  return answers.every((s) => first.has(s)) ? 1 : 0;
}

/** The share of evidence turns among the first k results. */
export function turnRecall(
  evidence: readonly string[],
  ranked: readonly (string | null)[],
  k: number,
): number {
  if (evidence.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return evidence.filter((id) => top.has(id)).length / evidence.length;
}

/**
 * Whether a context shows an evidence turn: whole, or for a turn of LONG_TURN_CHARS or more, any passage
 * of PASSAGE_CHARS consecutive characters of it. Both sides with whitespace collapsed; `render` turns the
 * stored text into what the context would print (the engine's sanitising).
 */
export function shownInContext(turn: string, context: string, render: (text: string) => string): boolean {
  const text = collapse(render(turn));
  const shown = collapse(context);
  if (text.length === 0) return false;
  if (shown.includes(text)) return true;
  if (text.length < LONG_TURN_CHARS) return false;
  for (let start = 0; start + PASSAGE_CHARS <= text.length; start++) {
    if (shown.includes(text.slice(start, start + PASSAGE_CHARS))) return true;
  }
  return false;
}

/** Whether an answer of at most SHORT_ANSWER_WORDS words is in the context (case-insensitive); null when longer. */
export function answerInContext(answer: string, context: string): number | null {
  const words = answer.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > SHORT_ANSWER_WORDS) return null;
  return collapse(context).toLowerCase().includes(collapse(answer).toLowerCase()) ? 1 : 0;
}

/** Means of per-question figures, overall and per group; a null value is left out of its figure's mean. */
export class Means {
  private readonly sums = new Map<string, Map<string, { n: number; sum: number }>>();

  add(group: string, values: Readonly<Record<string, number | null>>): void {
    for (const key of ["all", group]) {
      let figures = this.sums.get(key);
      if (!figures) {
        figures = new Map();
        this.sums.set(key, figures);
      }
      for (const [name, value] of Object.entries(values)) {
        if (value === null) continue;
        const f = figures.get(name) ?? { n: 0, sum: 0 };
        f.n++;
        f.sum += value;
        figures.set(name, f);
      }
    }
  }

  /** Each group's means (rounded to 4 places) and how many questions it holds. */
  summary(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const [group, figures] of this.sums) {
      out[group] = Object.fromEntries(
        [...figures].map(([name, f]) => [name, Math.round((f.sum / f.n) * 10_000) / 10_000]),
      );
    }
    return out;
  }
}
