import { join } from "node:path";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterAll, expect, it } from "vitest";
import { fuzzMcpTools } from "./support/fuzz/mcp-fuzz.js";
import { makeTempDir } from "./support/temp-dir.js";

const RUNS = Number(process.env.ENGRAM_FUZZ_RUNS ?? 200);
const dir = makeTempDir("engram-fuzz-mcp-");
afterAll(() => dir.remove());

it(`the MCP tools take ${RUNS} hostile calls: typed tool errors only, a failed call changes nothing`, async () => {
  const path = join(dir.path, "mcp.db");
  const engram = await createEngram({
    path,
    embedder: hashEmbeddingModel({ dimensions: 64 }),
    background: false,
  });
  const tally = await fuzzMcpTools(engram, path, RUNS);
  await engram.close();
  expect(tally.runs).toBe(RUNS);
  expect(tally.errors).toBeGreaterThan(RUNS / 5);
  expect(tally.errors).toBeLessThan(RUNS);
});
