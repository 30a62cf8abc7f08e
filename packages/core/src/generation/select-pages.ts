import type { ContextPage } from "./context-types.js";
import { formatDay, turnHead } from "./render-memory-block.js";
import { sanitizeMemoryText } from "./sanitize-memory-text.js";
import { type Candidate, type Chosen, type SectionInput, truncateLine } from "./select-within-budget.js";

/** A retrieved turn taken into the context, with the day it is shown under and the turn it answers. */
export interface ChosenPage extends Chosen<ContextPage> {
  readonly day: string | null;
  /** The line of the turn before it in its exchange, shown first; null when not shown with it. */
  readonly lead: string | null;
}

/** The line that opens a day's turns: each day once, not on every line. */
export const dayLine = (day: string) => `[${day}]`;

/** Undated turns render last, under no day line. */
const UNDATED = "\uffff";

/**
 * Takes retrieved turns in rank order while budget remains, never stopping at the first that does not fit.
 * Each costs its line, its day line when it is the first of its day, and the line of the turn it answers
 * (`before`) when that fits too and is not shown already. Whole turns go first; what is left then holds
 * the best turn that did not fit, truncated. `shownAsLeads`: turns whose line is shown as another's lead.
 */
export function selectPages(options: SectionInput<ContextPage>): {
  chosen: ChosenPage[];
  shownAsLeads: string[];
} {
  const { candidates, heading, budget, tokenizer } = options;
  const cost = (line: string) => tokenizer.count(`${line}\n`);
  const chosen: ChosenPage[] = [];
  const shownAsLeads: string[] = [];
  const days = new Set<string>();
  const shown = new Map<string, "lead" | "turn">();
  let cutCandidate: Candidate<ContextPage> | null = null;
  const fixedCost = (day: string | null) =>
    (chosen.length === 0 ? cost(heading) : 0) + (day && !days.has(day) ? cost(dayLine(day)) : 0);
  const take = (
    candidate: Candidate<ContextPage>,
    day: string | null,
    taken: { line: string; cost: number; truncated: boolean; lead: string | null },
    fixed: number,
  ) => {
    const dayKey = day ?? UNDATED;
    if (day) days.add(day);
    if (taken.lead) shown.set(`${dayKey}\n${taken.lead}`, "lead");
    shown.set(`${dayKey}\n${candidate.head}${candidate.body}`, "turn");
    const { item, key, rank } = candidate;
    chosen.push({ item, key, rank, line: taken.line, truncated: taken.truncated, day, lead: taken.lead });
    budget.remaining -= taken.cost + fixed;
  };
  // Whole turns first, in rank order; then the best turn that did not fit whole, cut to what is left.
  for (const candidate of candidates) {
    const day = formatDay(candidate.item.at);
    const dayKey = day ?? UNDATED;
    const line = candidate.head + candidate.body;
    const seen = shown.get(`${dayKey}\n${line}`);
    if (seen) {
      if (seen === "lead") shownAsLeads.push(candidate.key); // its text is in the context already
      continue;
    }
    const fixed = fixedCost(day);
    const available = budget.remaining - fixed;
    const whole = cost(line);
    const lead = leadLine(candidate.item);
    const leadCost = lead && !shown.has(`${dayKey}\n${lead}`) ? cost(lead) : 0;
    if (lead && leadCost > 0 && whole + leadCost <= available) {
      take(candidate, day, { line, cost: whole + leadCost, truncated: false, lead }, fixed);
    } else if (whole <= available) {
      take(candidate, day, { line, cost: whole, truncated: false, lead: null }, fixed);
    } else {
      cutCandidate ??= candidate;
    }
  }
  if (cutCandidate && budget.remaining > 0) {
    const day = formatDay(cutCandidate.item.at);
    const fixed = fixedCost(day);
    const cut = truncateLine(cutCandidate.head, cutCandidate.body, budget.remaining - fixed, tokenizer);
    if (cut) take(cutCandidate, day, { ...cut, lead: null }, fixed);
  }
  return { chosen, shownAsLeads };
}

/** The candidate line of a retrieved turn: its speaker and text, the date going to the day line. */
export function pageHead(page: ContextPage): string {
  return turnHead({ ...page, at: null }, false);
}

function leadLine(page: ContextPage): string | null {
  const before = page.before ? sanitizeMemoryText(page.before) : "";
  return before ? `- ${before}` : null;
}

/** Days in time order, undated last; within a day, the order they were chosen in (rank). */
export function byDay(chosen: readonly ChosenPage[]): ChosenPage[] {
  const key = (page: ChosenPage) => page.day ?? UNDATED;
  return chosen
    .map((page, i) => ({ page, i }))
    .sort((a, b) => (key(a.page) < key(b.page) ? -1 : key(a.page) > key(b.page) ? 1 : a.i - b.i))
    .map((x) => x.page);
}

/** The section's lines from pages in {@link byDay} order: a day line opens each day, leads come first. */
export function pageLines(ordered: readonly ChosenPage[]): string[] {
  const lines: string[] = [];
  let day: string | null | undefined;
  for (const page of ordered) {
    if (page.day !== day && page.day) lines.push(dayLine(page.day));
    day = page.day;
    if (page.lead) lines.push(page.lead);
    lines.push(page.line);
  }
  return lines;
}
