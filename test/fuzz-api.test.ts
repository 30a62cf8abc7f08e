import { join } from "node:path";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterAll, expect, it } from "vitest";
import { fuzzPublicApi } from "./support/fuzz/api-fuzz.js";
import { makeTempDir } from "./support/temp-dir.js";

const RUNS = Number(process.env.ENGRAM_FUZZ_RUNS ?? 300);
const dir = makeTempDir("engram-fuzz-api-");
afterAll(() => dir.remove());

it(`the public API takes ${RUNS} hostile calls: typed errors only, a rejected call changes nothing`, async () => {
  const path = join(dir.path, "fuzz.db");
  const engram = await createEngram({
    path,
    embedder: hashEmbeddingModel({ dimensions: 64 }),
    background: false,
  });
  const tally = await fuzzPublicApi(engram, path, RUNS);
  await engram.close();
  expect(tally.runs).toBe(RUNS);
  // The inputs are hostile enough that many are refused, and plausible enough that many are not.
  expect(tally.rejected).toBeGreaterThan(RUNS / 5);
  expect(tally.rejected).toBeLessThan(RUNS);
});
