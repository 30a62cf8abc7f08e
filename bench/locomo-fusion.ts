// Measures the fusion choices of hybrid search on the LoCoMo dev split (evidence recall@k), so the
// default is chosen by measurement: full-text only, vector only, RRF, min-max and z-score fusion,
// with and without the context window. Usage:
//   pnpm tsx --conditions=@engram/source bench/locomo-fusion.ts [--data FILE] [--db DIR]
import { existsSync, mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { goldTurnIds, ingestLocomo, isEligible, parseLocomo, recallAccumulator } from "@engram/cli/locomo";
import { createEngram, type FusionConfig } from "@engram/core";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: "../shared/data/locomo/locomo-dev.json" },
    db: { type: "string", default: ".engram/bench-fusion" },
  },
});
const conversations = parseLocomo(JSON.parse(await readFile(values.data as string, "utf8")));
mkdirSync(values.db as string, { recursive: true });
const ks = [5, 10, 20];

type Variant = { name: string; fusion: FusionConfig; channels?: ("fulltext" | "vector")[] };
const variants: Variant[] = [
  { name: "fulltext only", fusion: {}, channels: ["fulltext"] },
  { name: "vector only", fusion: {}, channels: ["vector"] },
  { name: "rrf", fusion: { method: "rrf" } },
  { name: "minmax 0.5/0.5", fusion: { method: "minmax", weights: { fulltext: 0.5, vector: 0.5 } } },
  { name: "minmax ft0.7/v0.3", fusion: { method: "minmax", weights: { fulltext: 0.7, vector: 0.3 } } },
  { name: "zscore 1/1", fusion: { method: "zscore" } },
  { name: "zscore ft1/v0.7", fusion: { method: "zscore", weights: { fulltext: 1, vector: 0.7 } } },
  { name: "zscore 1/1 n=1000", fusion: { method: "zscore", candidates: 1000 } },
];

const questions = conversations.flatMap((c) => {
  const ids = new Set(c.turns.map((t) => t.diaId));
  return c.qa
    .map((q) => ({ c, q, gold: goldTurnIds(q.evidence, ids) }))
    .filter(({ q, gold }) => isEligible(q.category, gold));
});

const base = await createEngram({ embedder: undefined, path: join(values.db as string, "vectors.db") });
const queryVectors = await (base.embedder as NonNullable<typeof base.embedder>).embed(
  questions.map((x) => x.q.question),
);
await base.close();

for (const contextWindow of [true, false]) {
  const path = join(values.db as string, `ctx-${contextWindow}.db`);
  const fresh = !existsSync(path);
  const engram = await createEngram({ path, contextWindow });
  if (fresh) {
    const start = Date.now();
    for (const c of conversations) await ingestLocomo(engram, c, { userId: `locomo/${c.sampleId}` });
    console.error(`ingested (contextWindow ${contextWindow}) in ${Date.now() - start} ms`);
  }
  await engram.close();
  for (const v of variants) {
    const e = await createEngram({ path, contextWindow, retrieval: { fusion: v.fusion } });
    const acc = recallAccumulator(ks);
    for (const [i, { c, q, gold }] of questions.entries()) {
      const results = await e.search({
        userId: `locomo/${c.sampleId}`,
        query: q.question,
        limit: 20,
        queryVector: queryVectors[i],
        ...(v.channels ? { channels: v.channels } : {}),
      });
      acc.add(
        q.category,
        gold,
        results.map((r) => String(r.memory.metadata.diaId)),
      );
    }
    const s = acc.summary();
    const cat = (n: string) => ks.map((k) => s.by_category[n]?.recall[String(k)]?.toFixed(3)).join("/");
    console.log(
      `ctx=${contextWindow ? "on " : "off"} ${v.name.padEnd(20)} all ${ks.map((k) => s.recall[String(k)]?.toFixed(4)).join(" / ")}` +
        `  c1 ${cat("1")} c2 ${cat("2")} c3 ${cat("3")} c4 ${cat("4")}`,
    );
    await e.close();
  }
}
