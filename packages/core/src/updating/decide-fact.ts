/** A stored fact as the decision reads it: its value, when it became true, and the turns it came from. */
export interface StoredFactView {
  readonly value: string;
  readonly validFrom: string | null;
  readonly evidence: readonly string[];
}

/** An extracted fact as the decision reads it. */
export interface IncomingFact {
  readonly value: string;
  readonly negated: boolean;
  /** The turn it was read from. */
  readonly evidence: string;
}

/**
 * What to do with one extracted fact, given the current fact of its key and every stored fact of the key:
 * - `insert`: no current fact; store it.
 * - `supersede`: another value of the key is current and older; store it and expire that one.
 * - `merge`: the same value is current; add this evidence to it.
 * - `retract`: a negation of the current value; expire it, with no successor.
 * - `skip`: nothing changes: `restated` (this value from this turn was applied before, and may since
 *   have been superseded: a turn extracted again must not undo what later turns changed), `stale` (said
 *   before the current value was said: a segment promoted late, an old import), or `no-match` (a
 *   negation of a value that is not current).
 */
export type FactDecision =
  | { readonly action: "insert" | "supersede" | "merge" | "retract" }
  | { readonly action: "skip"; readonly reason: "restated" | "stale" | "no-match" };

export function sameValue(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function isBefore(at: string, than: string | null): boolean {
  return than !== null && Date.parse(at) < Date.parse(than);
}

/** This value from this turn was applied before (it may since have been superseded). */
export function restated(stored: readonly StoredFactView[], fact: IncomingFact): boolean {
  return stored.some((f) => sameValue(f.value, fact.value) && f.evidence.includes(fact.evidence));
}

/** The decision for `fact`, said at `when` (ISO); pure, so every case is one row of a table test. */
export function decideFact(
  current: StoredFactView | null,
  stored: readonly StoredFactView[],
  fact: IncomingFact,
  when: string,
): FactDecision {
  if (restated(stored, fact)) return { action: "skip", reason: "restated" };
  const same = current !== null && sameValue(current.value, fact.value);
  const stale = current !== null && isBefore(when, current.validFrom);
  if (fact.negated) {
    if (!current || !same) return { action: "skip", reason: "no-match" };
    return stale ? { action: "skip", reason: "stale" } : { action: "retract" };
  }
  if (current && same) return { action: "merge" };
  if (current && stale) return { action: "skip", reason: "stale" };
  return current ? { action: "supersede" } : { action: "insert" };
}
