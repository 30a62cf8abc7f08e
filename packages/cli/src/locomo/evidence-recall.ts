/**
 * Evidence recall@k for LoCoMo, as the dataset's README defines it: gold ids are every `D<s>:<t>`
 * (also `D:<s>:<t>`) found in the evidence strings, normalised to `D<int>:<int>`, de-duplicated and
 * restricted to turns of the conversation; recall@k = |gold ∩ top-k| / |gold|.
 */
export function goldTurnIds(evidence: readonly string[], turnIds: ReadonlySet<string>): string[] {
  const gold = new Set<string>();
  for (const entry of evidence) {
    for (const m of entry.matchAll(/D:?(\d+):(\d+)/g)) {
      const id = `D${Number(m[1])}:${Number(m[2])}`;
      if (turnIds.has(id)) gold.add(id);
    }
  }
  return [...gold];
}

/** Questions of categories 1-4 with at least one gold turn are eligible (5 is adversarial). */
export function isEligible(category: number, gold: readonly string[]): boolean {
  return category >= 1 && category <= 4 && gold.length > 0;
}

export function recallAtK(gold: readonly string[], retrieved: readonly string[], k: number): number {
  const top = new Set(retrieved.slice(0, k));
  return gold.filter((g) => top.has(g)).length / gold.length;
}

export interface RecallAccumulator {
  add(category: number, gold: readonly string[], retrieved: readonly string[]): void;
  summary(): {
    questions: number;
    recall: Record<string, number>;
    by_category: Record<string, { n: number; recall: Record<string, number> }>;
  };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** Sums recall per k overall and per category; overall is the mean over questions, not of categories. */
export function recallAccumulator(ks: readonly number[]): RecallAccumulator {
  const sums = new Map<string, { n: number; sum: number[] }>();
  const bucket = (key: string) => {
    const b = sums.get(key) ?? { n: 0, sum: ks.map(() => 0) };
    sums.set(key, b);
    return b;
  };
  const finish = (b: { n: number; sum: number[] }) =>
    Object.fromEntries(ks.map((k, i) => [String(k), b.n ? round((b.sum[i] as number) / b.n) : 0]));
  return {
    add(category, gold, retrieved) {
      for (const b of [bucket("all"), bucket(String(category))]) {
        b.n++;
        ks.forEach((k, i) => {
          b.sum[i] = (b.sum[i] as number) + recallAtK(gold, retrieved, k);
        });
      }
    },
    summary() {
      const all = bucket("all");
      const categories = [...sums.keys()].filter((c) => c !== "all").sort();
      return {
        questions: all.n,
        recall: finish(all),
        by_category: Object.fromEntries(
          categories.map((c) => {
            const b = sums.get(c) as { n: number; sum: number[] };
            return [c, { n: b.n, recall: finish(b) }];
          }),
        ),
      };
    },
  };
}

/**
 * The share of gold turns whose text appears in a rendered context: a turn counts when its text, as the
 * context renders it (`render`, e.g. the engine's sanitising), is a substring of the context.
 */
export function contextEvidenceRecall(
  goldTexts: readonly string[],
  context: string,
  render: (text: string) => string = (text) => text,
): number {
  if (goldTexts.length === 0) return 0;
  return goldTexts.filter((text) => context.includes(render(text))).length / goldTexts.length;
}

/** Means of one per-question figure, overall and per category (overall over questions, as recall@k). */
export function meanAccumulator(): {
  add(category: number, value: number): void;
  summary(): { all: number; by_category: Record<string, number> };
} {
  const sums = new Map<string, { n: number; sum: number }>();
  const add = (key: string, value: number) => {
    const b = sums.get(key) ?? { n: 0, sum: 0 };
    b.n++;
    b.sum += value;
    sums.set(key, b);
  };
  const mean = (key: string) => {
    const b = sums.get(key);
    return b?.n ? round(b.sum / b.n) : 0;
  };
  return {
    add(category, value) {
      add("all", value);
      add(String(category), value);
    },
    summary() {
      const categories = [...sums.keys()].filter((c) => c !== "all").sort();
      return { all: mean("all"), by_category: Object.fromEntries(categories.map((c) => [c, mean(c)])) };
    },
  };
}
