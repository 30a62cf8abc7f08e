import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evalLocomo } from "@engram/cli/locomo";
import { qdrantStorage } from "@engram/core/qdrant";
import { afterAll, expect, it } from "vitest";
import { startQdrantDouble } from "../qdrant-double/index.js";
import { LOCOMO_DEV as DATA, locomoDevAvailable } from "../support/shared-data.js";
import { makeTempDir } from "../support/temp-dir.js";

const dir = makeTempDir("engram-locomo-parity-");
afterAll(() => dir.remove());

/** Conversations compared: two of the five keep the run to minutes and still hold some 300 questions. */
const CONVERSATIONS = 2;

/**
 * The whole engine (offline embedder, tiers, z-score fusion) on both backends over part of the dev split:
 * evidence recall must agree within 0.02 at every k. Slow: two ingests with the offline embedder.
 */
it.skipIf(!locomoDevAvailable())(
  "engram eval locomo gives the same recall on Qdrant as on SQLite, within 0.02 (needs the LoCoMo dev file)",
  async () => {
    const ks = [5, 10, 20];
    const data = join(dir.path, "locomo-part.json");
    writeFileSync(data, JSON.stringify(JSON.parse(readFileSync(DATA, "utf8")).slice(0, CONVERSATIONS)));
    const sqlite = await evalLocomo({ dataPath: data, dbPath: join(dir.path, "parity.db"), ks });
    const double = await startQdrantDouble();
    try {
      const storage = qdrantStorage({ url: double.url, collectionPrefix: "parity_" });
      const qdrant = await evalLocomo({ dataPath: data, dbPath: "", storage, ks });
      const recall = (doc: Record<string, unknown>) => doc.recall as Record<string, number>;
      console.log(JSON.stringify({ sqlite: recall(sqlite), qdrant: recall(qdrant) }));
      expect(qdrant.questions).toBe(sqlite.questions);
      for (const k of ks) {
        expect(Math.abs((recall(qdrant)[k] as number) - (recall(sqlite)[k] as number))).toBeLessThanOrEqual(
          0.02,
        );
      }
    } finally {
      await double.close();
    }
  },
  3_600_000,
);
