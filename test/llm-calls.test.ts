import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ingestLocomo, parseLocomo } from "@engram/cli/locomo";
import { createEngram } from "@engram/core";
import { afterAll, describe, expect, it } from "vitest";
import { countingModel } from "./support/scripted-llm.js";
import { LOCOMO_DEV, locomoDevAvailable } from "./support/shared-data.js";
import { makeTempDir } from "./support/temp-dir.js";

describe("language-model calls per ingested turn", () => {
  const dir = makeTempDir("engram-llm-calls-");
  afterAll(() => dir.remove());

  it.skipIf(!locomoDevAvailable())(
    "stays at or under 0.2 over the LoCoMo dev ingest (batched eviction and promotion)",
    async () => {
      const conversations = parseLocomo(JSON.parse(readFileSync(LOCOMO_DEV, "utf8")));
      const { model, calls } = countingModel();
      const engram = await createEngram({
        path: join(dir.path, "calls.db"),
        embedder: null,
        llm: model,
        background: false,
      });
      let turns = 0;
      for (const c of conversations) {
        // Tier work after every session's add, as the background worker does in a live agent.
        await ingestLocomo(engram, c, { afterSession: () => engram.flush() });
        turns += c.turns.length;
      }
      const stats = await engram.stats();
      await engram.close();
      expect(stats.byKind.message).toBe(turns); // nothing lost on the way through the tiers
      expect(stats.byKind.segment ?? 0).toBeGreaterThan(0);
      const perTurn = calls() / turns;
      console.log(`LLM calls: ${calls()} for ${turns} turns = ${perTurn.toFixed(3)} per turn`);
      expect(perTurn).toBeGreaterThan(0);
      expect(perTurn).toBeLessThanOrEqual(0.2);
    },
  );
});
