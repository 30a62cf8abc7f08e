import { readFile } from "node:fs/promises";
import { type Extractor, ValidationError } from "@engram/core";
import { newRecord } from "@engram/core/integration";
import { z } from "zod";

const factSchema = z
  .object({
    slot: z.string().min(1),
    value: z.string().min(1),
    also: z.array(z.string().min(1)).optional(),
    supersedes: z.string().min(1).optional(),
  })
  .strict();
const itemSchema = z
  .object({
    id: z.string().min(1),
    text: z.string().min(1),
    facts: z.array(factSchema),
    topic: z.string().min(1),
    style: z.string().min(1),
  })
  .strict();
export type FactItem = z.output<typeof itemSchema>;
export type ExpectedFact = z.output<typeof factSchema>;

/** Reads a persona-facts benchmark: an array of statements with the facts each should yield. */
export async function readFactBenchmark(path: string): Promise<FactItem[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (cause) {
    throw new ValidationError(`eval facts: ${path} is not a JSON file: ${(cause as Error).message}`, {
      cause,
    });
  }
  const parsed = z.array(itemSchema).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(
      `eval facts: ${path}: item ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}`,
    );
  }
  const ids = new Set<string>();
  for (const item of parsed.data) {
    if (ids.has(item.id)) throw new ValidationError(`eval facts: ${path}: id ${item.id} appears twice`);
    ids.add(item.id);
  }
  return parsed.data;
}

const STOPWORDS = new Set(["a", "an", "the", "my", "to", "in", "of", "at", "on", "for", "and"]);

/** A value's content words: lowercase, no punctuation or articles, a plural's final s dropped. */
export function valueWords(value: string): string[] {
  return value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, " ")
    .split(/[\s-]+/)
    .filter((w) => w && !STOPWORDS.has(w))
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

/**
 * Whether an extracted value states the expected one: every content word of the expected value (or of
 * one of its accepted forms) is in the extracted value. "playing cello" states "cello"; "trip to Japan in
 * April" states "trip to Japan"; "doctor" does not state "family doctor".
 */
export function valueMatches(extracted: string, expected: ExpectedFact): boolean {
  const got = new Set(valueWords(extracted));
  return [expected.value, ...(expected.also ?? [])].some((form) => {
    const want = valueWords(form);
    return want.length > 0 && want.every((w) => got.has(w));
  });
}

/** Slots reported together: a relative's slots by attribute, every favourite as one. */
export function slotGroup(slot: string): string {
  if (slot.startsWith("favourite.")) return "favourite";
  const relation = /^([a-z]+)\.(name|occupation|lives_in)$/.exec(slot);
  return relation && relation[1] !== "pet" ? `family.${relation[2]}` : slot;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
export interface Scores extends Counts {
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
function scores({ tp, fp, fn }: Counts): Scores {
  const precision = tp + fp ? tp / (tp + fp) : null;
  const recall = tp + fn ? tp / (tp + fn) : null;
  // Undefined while either is; 0 when both are 0.
  const f1 =
    precision === null || recall === null
      ? null
      : precision + recall > 0
        ? (2 * precision * recall) / (precision + recall)
        : 0;
  return {
    tp,
    fp,
    fn,
    precision: precision === null ? null : round(precision),
    recall: recall === null ? null : round(recall),
    f1: f1 === null ? null : round(f1),
  };
}

/** What the extractor said about one statement. */
export interface ExtractedForItem {
  readonly slot: string;
  readonly value: string;
  readonly negated: boolean;
  readonly single: boolean;
}

export interface ItemOutcome {
  readonly id: string;
  readonly topic: string;
  readonly positive: boolean;
  readonly matched: number;
  readonly missed: ExpectedFact[];
  readonly extra: ExtractedForItem[];
  /** For a statement that changes a value: whether the extractor's facts replace the old one. */
  readonly superseded: boolean | null;
}

/**
 * Slots that name the same thing: a child's name is `child` when the statement does not say son or
 * daughter, and an extractor that does not tell them apart says `child` for both.
 */
const SAME_SLOT: Readonly<Record<string, readonly string[]>> = {
  "son.name": ["child"],
  "daughter.name": ["child"],
};

/** Whether an extracted slot states the expected one. */
export const slotMatches = (extracted: string, expected: string) =>
  extracted === expected || (SAME_SLOT[expected] ?? []).includes(extracted);

/** Scores one statement: expected facts matched one to one with the extracted ones (slot and value). */
export function scoreItem(item: FactItem, extracted: readonly ExtractedForItem[]): ItemOutcome {
  const stated = extracted.filter((f) => !f.negated);
  const free = new Set(stated.map((_, i) => i));
  const missed: ExpectedFact[] = [];
  let matched = 0;
  for (const want of item.facts) {
    const hit = [...free].find(
      (i) => slotMatches(stated[i]?.slot ?? "", want.slot) && valueMatches(stated[i]?.value ?? "", want),
    );
    if (hit === undefined) missed.push(want);
    else {
      free.delete(hit);
      matched++;
    }
  }
  const positive = item.facts.length > 0;
  // On a statement that must yield nothing, a retraction is a fact about the user too.
  const extra = positive ? [...free].map((i) => stated[i] as ExtractedForItem) : [...extracted];
  const changes = item.facts.filter((f) => f.supersedes !== undefined);
  const superseded = changes.length
    ? changes.every(
        (want) =>
          stated.some((f) => slotMatches(f.slot, want.slot) && f.single && valueMatches(f.value, want)) ||
          extracted.some(
            (f) =>
              f.negated &&
              slotMatches(f.slot, want.slot) &&
              valueMatches(f.value, { slot: want.slot, value: want.supersedes as string }),
          ),
      )
    : null;
  return { id: item.id, topic: item.topic, positive, matched, missed, extra, superseded };
}

export interface FactReport {
  readonly statements: number;
  readonly positives: number;
  readonly negatives: number;
  readonly overall: Scores;
  readonly by_slot: Record<string, Scores>;
  readonly by_topic: Record<string, Scores>;
  /** Statements that change an earlier value, and how many of them the extracted facts replace. */
  readonly supersession: { statements: number; correct: number; accuracy: number | null };
  /** Statements that must yield nothing: how many yielded a fact, and how many facts. */
  readonly false_facts: { statements: number; with_facts: number; facts: number; rate: number | null };
}

/** Sums outcomes into precision, recall and F1 overall, per slot group and per topic. */
export function summarize(items: readonly FactItem[], outcomes: readonly ItemOutcome[]): FactReport {
  const overall: Counts = { tp: 0, fp: 0, fn: 0 };
  const bySlot = new Map<string, Counts>();
  const byTopic = new Map<string, Counts>();
  const at = (map: Map<string, Counts>, key: string) => {
    const c = map.get(key) ?? { tp: 0, fp: 0, fn: 0 };
    map.set(key, c);
    return c;
  };
  const byId = new Map(items.map((item) => [item.id, item]));
  for (const o of outcomes) {
    const item = byId.get(o.id) as FactItem;
    const topic = at(byTopic, o.topic);
    const missed = new Set(o.missed);
    for (const want of item.facts) {
      const key = missed.has(want) ? "fn" : "tp";
      overall[key]++;
      topic[key]++;
      at(bySlot, slotGroup(want.slot))[key]++;
    }
    for (const f of o.extra) {
      overall.fp++;
      topic.fp++;
      at(bySlot, slotGroup(f.slot)).fp++;
    }
  }
  const changes = outcomes.filter((o) => o.superseded !== null);
  const correct = changes.filter((o) => o.superseded).length;
  const negatives = outcomes.filter((o) => !o.positive);
  const withFacts = negatives.filter((o) => o.extra.length > 0).length;
  const sorted = (map: Map<string, Counts>) =>
    Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => [k, scores(c)]));
  return {
    statements: outcomes.length,
    positives: outcomes.length - negatives.length,
    negatives: negatives.length,
    overall: scores(overall),
    by_slot: sorted(bySlot),
    by_topic: sorted(byTopic),
    supersession: {
      statements: changes.length,
      correct,
      accuracy: changes.length ? round(correct / changes.length) : null,
    },
    false_facts: {
      statements: negatives.length,
      with_facts: withFacts,
      facts: negatives.reduce((n, o) => n + o.extra.length, 0),
      rate: negatives.length ? round(withFacts / negatives.length) : null,
    },
  };
}

/**
 * The tuning half and the check half: within each topic, in id order, statements alternate between
 * them, so both halves cover every topic and style alike.
 */
export function splitHalves(items: readonly FactItem[]): { tune: FactItem[]; check: FactItem[] } {
  const tune: FactItem[] = [];
  const check: FactItem[] = [];
  const byTopic = new Map<string, FactItem[]>();
  for (const item of items) byTopic.set(item.topic, [...(byTopic.get(item.topic) ?? []), item]);
  for (const list of byTopic.values()) {
    const ordered = [...list].sort((a, b) => a.id.localeCompare(b.id));
    for (const [i, item] of ordered.entries()) (i % 2 === 0 ? tune : check).push(item);
  }
  return { tune, check };
}

/** Runs an extractor over every statement, each as one user message on its own. */
export async function extractAll(
  extractor: Extractor,
  items: readonly FactItem[],
): Promise<Map<string, ExtractedForItem[]>> {
  const out = new Map<string, ExtractedForItem[]>();
  const at = "2026-01-01T00:00:00.000Z";
  for (const item of items) {
    const record = newRecord(
      {
        id: `m_${item.id}`,
        userId: "eval-facts",
        kind: "message",
        tier: "short",
        text: item.text,
        role: "user",
      },
      at,
    );
    const facts = await extractor.persona([record], []);
    out.set(
      item.id,
      facts
        .filter((f) => f.subject === "user")
        .map((f) => ({ slot: f.slot, value: f.value, negated: f.negated, single: f.single })),
    );
  }
  return out;
}

export interface EvalFactsOptions {
  readonly dataPath: string;
  /** The extractor under test. Default: the engine's offline extractor. */
  readonly extractor?: Extractor;
}

/**
 * The persona-facts benchmark: each statement given to the extractor as one user message; precision,
 * recall and F1 per slot and per topic, supersession accuracy and false facts, overall and for the tuning
 * and check halves apart.
 */
export async function evalFacts(options: EvalFactsOptions): Promise<Record<string, unknown>> {
  const items = await readFactBenchmark(options.dataPath);
  if (items.length === 0) throw new ValidationError(`eval facts: ${options.dataPath} holds no statement`);
  const extractor = options.extractor ?? (await import("@engram/core")).offlineExtractor;
  const extracted = await extractAll(extractor, items);
  const outcomes = new Map(items.map((item) => [item.id, scoreItem(item, extracted.get(item.id) ?? [])]));
  const report = (list: readonly FactItem[]) =>
    summarize(
      list,
      list.map((item) => outcomes.get(item.id) as ItemOutcome),
    );
  const { tune, check } = splitHalves(items);
  return {
    ...report(items),
    halves: { tune: report(tune), check: report(check) },
    config: {
      extractor: extractor.name,
      matching:
        "an expected fact is found when an extracted fact has its slot and every content word of its value (or of an accepted form); each extracted fact matches one expected fact; unmatched extracted facts are false positives, and on statements that must yield nothing every extracted fact (retractions too) is a false fact",
      supersession:
        "a statement that changes an earlier value counts as superseding when the extractor yields the new value on that single-valued slot, or retracts the old one",
      halves: "within each topic, in id order, statements alternate between the tuning and the check half",
    },
  };
}
