import { ValidationError } from "../errors/index.js";
import { buildCandidates } from "./build-candidates.js";
import type {
  ContextFact,
  ContextInput,
  ContextPage,
  ContextProfileItem,
  ContextSkill,
  ContextTurn,
} from "./context-types.js";
import {
  MEMORY_CLOSE,
  MEMORY_OPEN,
  preambleLines,
  renderMemoryBlock,
  SECTION_HEADINGS,
  SECTION_ORDER,
  type SectionName,
} from "./render-memory-block.js";
import { byDay, type ChosenPage, pageLines, selectPages } from "./select-pages.js";
import { type Budget, type Candidate, type Chosen, selectWithinBudget } from "./select-within-budget.js";
import { countingWith, defaultTokenizer, type Tokenizer } from "./tokenizer.js";

export type { ContextFact, ContextInput, ContextPage, ContextProfileItem, ContextSkill, ContextTurn };

/** Tokens of memory context per query when the caller gives no budget. */
export const DEFAULT_CONTEXT_BUDGET = 1500;

type SectionCounts = Record<SectionName, number>;
type SectionKeys = Record<SectionName, string[]>;

export interface AssembledContext {
  /** The input items shown in `text`, in rendered order (unchanged objects, even when truncated). */
  profile: ContextProfileItem[];
  facts: ContextFact[];
  skills: ContextSkill[];
  pages: ContextPage[];
  recent: ContextTurn[];
  /** Per section, how many input items (by id; profile by key) `text` does not show. */
  dropped: SectionCounts;
  /** Ids of the pages shown together with the turn they answer (their `before`), just above them. */
  withLead: string[];
  /** Ids (profile: keys) of the items shown shortened, with an ellipsis. */
  truncated: SectionKeys;
  /** Tokens of `text`, counted with the tokenizer; never more than `budgetTokens`. */
  tokens: number;
  /** The fenced memory block, or "" when no item fits (or there is none). */
  text: string;
}

interface ChosenBySection {
  profile: Chosen<ContextProfileItem>[];
  facts: Chosen<ContextFact>[];
  skills: Chosen<ContextSkill>[];
  pages: ChosenPage[];
  recent: Chosen<ContextTurn>[];
}

/**
 * Assembles the memory context for one query within a token budget. Priority when cutting: the frame
 * and profile, then facts, then matched skills, then recent turns (newest first), then retrieved pages; within a section the
 * best scored first, and an item that does not fit whole is truncated when enough of it fits. Pages that
 * are also among the shown recent turns appear once. When the budget cannot hold even the frame (46 tokens
 * with o200k, up to about 60 with a long user name) or no item fits, the text is empty and every item
 * counts as dropped; there is no minimum budget to validate against.
 * @throws ValidationError when `budgetTokens` is not a non-negative integer or `now` is not ISO 8601.
 */
export function assembleContext(input: ContextInput): AssembledContext {
  const { budgetTokens } = input;
  if (!Number.isSafeInteger(budgetTokens) || budgetTokens < 0) {
    throw new ValidationError(`budgetTokens must be a non-negative integer, got ${String(budgetTokens)}`);
  }
  const share = input.recentShare ?? 1;
  if (!(share >= 0 && share <= 1)) {
    throw new ValidationError(`recentShare must be a number from 0 to 1, got ${String(input.recentShare)}`);
  }
  const given = input.tokenizer ?? defaultTokenizer;
  const tokenizer = input.caches ? countingWith(given, input.caches) : given;
  const preamble = preambleLines(input.now, input.userName);
  const frameCost =
    tokenizer.count(`${MEMORY_OPEN}\n`) +
    preamble.reduce((sum, line) => sum + tokenizer.count(`${line}\n`), 0) +
    tokenizer.count(MEMORY_CLOSE);
  const chosen: ChosenBySection = { profile: [], facts: [], skills: [], pages: [], recent: [] };
  let spent: number | undefined;
  let asLeads: string[] = [];
  if (frameCost <= budgetTokens) {
    const budget: Budget = { remaining: budgetTokens - frameCost };
    const candidates = buildCandidates(input);
    const select = <T>(name: SectionName, list: readonly Candidate<T>[], within = budget) =>
      selectWithinBudget({ candidates: list, heading: SECTION_HEADINGS[name], budget: within, tokenizer });
    chosen.profile = select("profile", candidates.profile);
    chosen.facts = select("facts", candidates.facts);
    chosen.skills = select("skills", candidates.skills);
    // The recent conversation spends at most its share of the budget: the rest is for what the query needs.
    const recentBudget: Budget = { remaining: Math.min(budget.remaining, Math.floor(budgetTokens * share)) };
    const before = recentBudget.remaining;
    chosen.recent = select("recent", candidates.recent, recentBudget);
    budget.remaining -= before - recentBudget.remaining;
    const shown = new Set(chosen.recent.map((entry) => entry.key));
    const pages = selectPages({
      candidates: candidates.pages.filter((candidate) => !shown.has(candidate.key)),
      heading: SECTION_HEADINGS.pages,
      budget,
      tokenizer,
    });
    chosen.pages = pages.chosen;
    asLeads = pages.shownAsLeads;
    spent = budgetTokens - budget.remaining;
  }
  return finish(input, chosen, preamble, tokenizer, tokenizer.additive ? spent : undefined, asLeads);
}

/**
 * Renders the text. With an additive tokenizer (o200k: a newline always ends a pre-token) the block
 * costs exactly what its frame, headings and lines were counted at (`spent`). Otherwise the whole text is
 * counted, as a tokenizer whose counts are not additive could overshoot, and the lowest-priority items
 * are dropped until the exact count fits.
 */
function finish(
  input: ContextInput,
  chosen: ChosenBySection,
  preamble: string[],
  tokenizer: Tokenizer,
  spent: number | undefined,
  asLeads: string[],
): AssembledContext {
  let shownAsLeads = asLeads;
  for (;;) {
    const ordered = renderOrder(chosen);
    const empty = SECTION_ORDER.every((name) => ordered[name].length === 0);
    const text = empty ? "" : renderMemoryBlock(preamble, linesOf(ordered));
    const tokens = empty ? 0 : (spent ?? tokenizer.count(text));
    if (tokens <= input.budgetTokens) return summarize(input, ordered, text, tokens, shownAsLeads);
    const lowest = CUT_ORDER.find((name) => chosen[name].length > 0);
    if (lowest) chosen[lowest].pop();
    spent = undefined;
    shownAsLeads = []; // a cut may have taken a lead with it: count those turns as dropped
  }
}

const CUT_ORDER: readonly SectionName[] = ["pages", "recent", "skills", "facts", "profile"];

function renderOrder(chosen: ChosenBySection): ChosenBySection {
  const byRank = (a: { rank: number }, b: { rank: number }) => a.rank - b.rank;
  return {
    profile: [...chosen.profile].sort(byRank),
    facts: chosen.facts,
    skills: chosen.skills,
    pages: byDay(chosen.pages),
    recent: [...chosen.recent].sort(byRank),
  };
}

function linesOf(ordered: ChosenBySection): Map<SectionName, string[]> {
  return new Map(
    SECTION_ORDER.map((name) => [
      name,
      name === "pages" ? pageLines(ordered.pages) : ordered[name].map((entry) => entry.line),
    ]),
  );
}

function summarize(
  input: ContextInput,
  ordered: ChosenBySection,
  text: string,
  tokens: number,
  shownAsLeads: string[],
): AssembledContext {
  const items = <T>(list: Chosen<T>[]) => list.map((entry) => entry.item);
  const keys = (list: Chosen<unknown>[]) => list.map((entry) => entry.key);
  const missing = (inputKeys: string[], shown: string[]) => {
    const set = new Set(shown);
    return inputKeys.filter((key) => !set.has(key)).length;
  };
  const cut = (list: Chosen<unknown>[]) => keys(list.filter((entry) => entry.truncated));
  const ids = (list: readonly { id: string }[]) => list.map((item) => item.id);
  return {
    profile: items(ordered.profile),
    facts: items(ordered.facts),
    skills: items(ordered.skills),
    pages: items(ordered.pages),
    recent: items(ordered.recent),
    dropped: {
      profile: missing(
        input.profile.map((item) => item.key),
        keys(ordered.profile),
      ),
      facts: missing(ids(input.facts), keys(ordered.facts)),
      skills: missing(ids(input.skills ?? []), keys(ordered.skills)),
      // A page shown among the recent turns, or as the turn another one answers, is not dropped.
      pages: missing(ids(input.pages), [...keys(ordered.pages), ...keys(ordered.recent), ...shownAsLeads]),
      recent: missing(ids(input.recent), keys(ordered.recent)),
    },
    withLead: ordered.pages.filter((entry) => entry.lead !== null).map((entry) => entry.key),
    truncated: {
      profile: cut(ordered.profile),
      facts: cut(ordered.facts),
      skills: cut(ordered.skills),
      pages: cut(ordered.pages),
      recent: cut(ordered.recent),
    },
    tokens,
    text,
  };
}
