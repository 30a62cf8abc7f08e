import { join } from "node:path";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { fuzzPublicApi } from "../support/fuzz/api-fuzz.js";
import { fuzzCli } from "../support/fuzz/cli-fuzz.js";
import { fuzzMcpTools } from "../support/fuzz/mcp-fuzz.js";
import { makeTempDir } from "../support/temp-dir.js";

// 10,000 generated inputs in all (the default suite runs 700 more with other seeds).
const API_RUNS = 4_000;
const CLI_RUNS = 4_000;
const MCP_RUNS = 2_000;
const dir = makeTempDir("engram-fuzz-slow-");
afterAll(() => dir.remove());

describe("fuzzing with fast-check, 10,000 inputs: typed errors only, a rejected input changes nothing", () => {
  it(`the public API, ${API_RUNS} calls`, async () => {
    const path = join(dir.path, "api.db");
    const engram = await createEngram({
      path,
      embedder: hashEmbeddingModel({ dimensions: 64 }),
      background: false,
    });
    const tally = await fuzzPublicApi(engram, path, API_RUNS);
    await engram.close();
    console.log(`public API: ${JSON.stringify(tally)}`);
    expect(tally.runs).toBe(API_RUNS);
  });

  it(`the engram command line and its JSONL reader, ${CLI_RUNS} runs`, async () => {
    const tally = await fuzzCli(dir.path, CLI_RUNS);
    console.log(`CLI: ${JSON.stringify(tally)}`);
    expect(tally.runs).toBe(CLI_RUNS);
  });

  it(`the MCP tools, ${MCP_RUNS} calls`, async () => {
    const path = join(dir.path, "mcp.db");
    const engram = await createEngram({
      path,
      embedder: hashEmbeddingModel({ dimensions: 64 }),
      background: false,
    });
    const tally = await fuzzMcpTools(engram, path, MCP_RUNS);
    await engram.close();
    console.log(`MCP tools: ${JSON.stringify(tally)}`);
    expect(tally.runs).toBe(MCP_RUNS);
  });
});
