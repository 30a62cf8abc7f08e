import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import { writeTinyOnnxModel } from "@engram/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddingsStub, embeddingsStub, wordsModel } from "./support/embeddings-stub.js";
import { queryRow } from "./support/raw-sqlite.js";
import { CLI, spawnNode, TEST_DIR } from "./support/spawn-node.js";
import { makeTempDir } from "./support/temp-dir.js";

const dir = makeTempDir("engram-embedder-cli-");
const SYNONYMS = { feline: "cat", kitty: "cat", companion: "pet" };
const CAT = "My cat Biscuit always waits for me at the door";
const TURNS = [
  CAT,
  "I went hiking in the Alps last summer",
  "The quarterly report is due on Friday",
  "We adopted a beagle named Waffles last weekend",
  "I am allergic to peanuts",
];

let stub: EmbeddingsStub;
let slow: EmbeddingsStub;
beforeAll(async () => {
  const models = { plain: wordsModel(256), alike: wordsModel(256, SYNONYMS) };
  stub = await embeddingsStub(models);
  slow = await embeddingsStub(models, { delayMs: 40 });
});
afterAll(async () => {
  await stub.close();
  await slow.close();
  dir.remove();
});

function turnsFile(name: string, copies: number): string {
  const file = join(dir.path, name);
  const lines = Array.from({ length: copies }, (_, i) =>
    TURNS.map((content) => JSON.stringify({ role: "user", content, session: `s${i}` })),
  ).flat();
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const cli = (db: string, model: string | null, args: string[], url = stub.url) =>
  runCliCaptured([
    ...args,
    "--db",
    db,
    ...(model ? ["--embedder", `openai:${model}`, "--embedder-url", url] : []),
  ]);

/** The vector channel's score of the cat turn for "feline companion" (0 when it did not list it). */
async function catScore(db: string, model: string): Promise<number> {
  const run = await cli(db, model, ["search", "--user", "ana", "feline companion", "--k", "5", "--json"]);
  expect(run.stderr).toBe("");
  const { results } = JSON.parse(run.stdout) as {
    results: { text: string; channels: { vector?: { score: number } } }[];
  };
  return results.find((r) => r.text === CAT)?.channels.vector?.score ?? 0;
}

describe("--embedder openai:MODEL and engram reembed", () => {
  it("refuses a store made by another embedder, then reembed moves it and search follows the new model", async () => {
    const db = join(dir.path, "moved.db");
    const ingest = await cli(db, "plain", ["ingest", "--user", "ana", turnsFile("turns.jsonl", 1), "--json"]);
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(await catScore(db, "plain")).toBeLessThan(0.05);

    const refused = await cli(db, "alike", ["search", "--user", "ana", "feline companion"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("made by openai.embedding/plain (256 dimensions)");
    expect(refused.stderr).toContain("embeds with openai.embedding/alike");
    expect(refused.stderr).toContain("engram reembed");
    // The default offline model is refused the same way, before it loads.
    const offline = await runCliCaptured(["search", "--user", "ana", "cat", "--db", db]);
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain("made by openai.embedding/plain");

    // Every memory with a vector gets a new one: the turns and the facts found in them.
    const vectors = queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM vectors").n;
    expect(vectors).toBeGreaterThanOrEqual(TURNS.length);
    const moved = await cli(db, "alike", ["reembed", "--json"]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toEqual({
      from: "openai.embedding/plain (256 dimensions)",
      to: "openai.embedding/alike",
      users: 1,
      memories: vectors,
      resumed: false,
    });
    expect(await catScore(db, "alike")).toBeGreaterThan(0.2);
    expect((await cli(db, "plain", ["search", "--user", "ana", "cat"])).stderr).toContain(
      "made by openai.embedding/alike",
    );
    // ENGRAM_EMBEDDER and ENGRAM_EMBEDDER_URL name it as well as the flags.
    const byEnv = await runCliCaptured(
      ["search", "--user", "ana", "feline companion", "--db", db, "--json"],
      {
        env: { ENGRAM_EMBEDDER: "openai:alike", ENGRAM_EMBEDDER_URL: stub.url },
      },
    );
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(JSON.parse(byEnv.stdout).results[0].text).toMatch(/\bcat\b/);
    const again = await cli(db, "alike", ["reembed"]);
    expect(again.stdout).toContain("already openai.embedding/alike's: nothing to re-embed");
  });

  it("a reembed killed in the middle is finished by running it again", async () => {
    const db = join(dir.path, "killed.db");
    const file = turnsFile("many.jsonl", 40);
    expect((await cli(db, "plain", ["ingest", "--user", "ana", file])).code).toBe(0);
    expect((await cli(db, "plain", ["ingest", "--user", "ben", file])).code).toBe(0);
    const total = queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM vectors").n;
    const before = slow.calls.get("alike") ?? 0;
    const run = spawnNode(CLI, [
      "reembed",
      "--db",
      db,
      "--embedder",
      "openai:alike",
      "--embedder-url",
      slow.url,
      "--batch-size",
      "4",
    ]);
    while ((slow.calls.get("alike") ?? 0) - before < 40) await new Promise((r) => setTimeout(r, 10));
    run.child.kill("SIGKILL");
    await run.exited;

    const refused = await cli(db, "alike", ["search", "--user", "ana", "cat"]);
    expect(refused.stderr).toMatch(
      /being moved from openai\.embedding\/plain \(256 dimensions\) to openai\.embedding\/alike/,
    );
    const finished = await cli(db, "alike", ["reembed", "--json"]);
    expect(finished.code, finished.stderr).toBe(0);
    const report = JSON.parse(finished.stdout);
    expect(report).toMatchObject({ to: "openai.embedding/alike", resumed: true });
    expect(report.memories).toBeLessThanOrEqual(total);
    expect(queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM vectors").n).toBe(total);
    expect(await catScore(db, "alike")).toBeGreaterThan(0.2);
  });

  it("import of a dump made with another embedder embeds it again with a progress bar on a terminal", async () => {
    const db = join(dir.path, "exported.db");
    expect((await cli(db, "plain", ["ingest", "--user", "ana", turnsFile("many.jsonl", 40)])).code).toBe(0);
    const dump = join(dir.path, "ana.json");
    const exported = await cli(db, "plain", ["export", "--user", "ana", "--json"]);
    writeFileSync(dump, exported.stdout);
    const fresh = join(dir.path, "imported.db");
    const imported = await runCliCaptured(
      ["import", dump, "--db", fresh, "--embedder", "openai:alike", "--embedder-url", stub.url, "--json"],
      { isTTY: true },
    );
    expect(imported.code, imported.stderr).toBe(0);
    // The 200 turns and the facts their tier work read from them.
    const total = (JSON.parse(exported.stdout) as { memories: unknown[] }).memories.length;
    expect(total).toBeGreaterThanOrEqual(200);
    expect(JSON.parse(imported.stdout)).toEqual({ userId: "ana", memories: total, reembedded: total });
    expect(imported.stderr).toContain(` ${total}/${total} `);
    expect(await catScore(fresh, "alike")).toBeGreaterThan(0.05);
  });

  it("names the accepted forms for a bad spec, and refuses --embedder-url without openai:", async () => {
    const db = join(dir.path, "bad.db");
    const bad = await runCliCaptured(["search", "--user", "ana", "x", "--db", db, "--embedder", "bert"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad --embedder "bert": expected offline, none, openai:MODEL');
    const env = await runCliCaptured(["search", "--user", "ana", "x", "--db", db], {
      env: { ENGRAM_EMBEDDER: "x" },
    });
    expect(env.stderr).toContain('bad ENGRAM_EMBEDDER "x"');
    const url = await runCliCaptured([
      "search",
      "--user",
      "ana",
      "x",
      "--db",
      db,
      "--embedder-url",
      stub.url,
    ]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain("--embedder-url applies to an openai:MODEL embedder");
    const both = await runCliCaptured([
      "search",
      "--user",
      "ana",
      "x",
      "--db",
      db,
      "--no-embed",
      "--embedder",
      "offline",
    ]);
    expect(both.stderr).toContain("pass either --no-embed or --embedder offline, not both");
  });
});

describe("--embedder onnx:DIR, a local ONNX model", () => {
  it("moves a store to the model in a folder: search then finds by its meanings, and the old model is refused", async () => {
    const model = join(dir.path, "tiny model");
    writeTinyOnnxModel(model, {
      name: "engram-test/pets",
      synonyms: [
        ["cat", "feline", "kitty"],
        ["pet", "companion"],
      ],
      words: ["my", "always", "waits", "door", "hiking", "report", "peanuts"],
    });
    const onnx = ["--embedder", `onnx:${model}`];
    const db = join(dir.path, "onnx.db");
    expect((await cli(db, "plain", ["ingest", "--user", "ana", turnsFile("onnx.jsonl", 1)])).code).toBe(0);
    expect(await catScore(db, "plain")).toBeLessThan(0.05);

    const refused = await cli(db, null, ["search", "--user", "ana", "feline companion", ...onnx]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("embeds with onnx/engram-test/pets");
    const moved = await cli(db, null, ["reembed", ...onnx, "--json"]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({
      from: "openai.embedding/plain (256 dimensions)",
      to: "onnx/engram-test/pets:fp32:mean",
      resumed: false,
    });

    const found = await cli(db, null, ["search", "--user", "ana", "feline companion", "--json", ...onnx]);
    expect(found.code, found.stderr).toBe(0);
    const { results } = JSON.parse(found.stdout) as {
      results: { text: string; channels: { vector?: { score: number } } }[];
    };
    // The turn, and the fact read from it, share no word with the query: only the model's meanings match.
    expect(results[0]?.text).toMatch(/\bcat\b/);
    expect(results.find((r) => r.text === CAT)?.channels.vector?.score).toBeGreaterThan(0.3);
    expect((await cli(db, "plain", ["search", "--user", "ana", "cat"])).stderr).toContain(
      "made by onnx/engram-test/pets:fp32:mean (24 dimensions)",
    );
    // ENGRAM_EMBEDDER names it as well as the flag.
    const byEnv = await runCliCaptured(["search", "--user", "ana", "kitty", "--db", db, "--json"], {
      env: { ENGRAM_EMBEDDER: `onnx:${model}` },
    });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(JSON.parse(byEnv.stdout).results[0].text).toMatch(/\bcat\b/);
  });

  it("names a folder that holds no model, and refuses --embedder-url with it", async () => {
    const db = join(dir.path, "onnx-bad.db");
    const empty = join(dir.path, "empty-model");
    mkdirSync(empty);
    const search = ["search", "--user", "ana", "x", "--db", db, "--embedder", `onnx:${empty}`];
    const run = await runCliCaptured(search);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `onnx:${empty}: config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx not found`,
    );
    const url = await runCliCaptured([...search, "--embedder-url", stub.url]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain("--embedder-url applies to an openai:MODEL embedder");
  });
});

describe("engram-mcp --embedder", () => {
  const MCP = join(TEST_DIR, "..", "packages", "mcp", "src", "bin.ts");
  async function retrieveOver(db: string, model: string): Promise<CallToolResult> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--conditions=@engram/source", "--import", "tsx", MCP, "--db", db, "--user", "ana"],
      cwd: TEST_DIR,
      env: { ...process.env, ENGRAM_EMBEDDER: `openai:${model}`, ENGRAM_EMBEDDER_URL: stub.url },
      stderr: "pipe",
    });
    const client = new Client({ name: "embedder-test", version: "0" });
    await client.connect(transport);
    try {
      return (await client.callTool({
        name: "retrieve_memory",
        arguments: { query: "feline companion" },
      })) as CallToolResult;
    } finally {
      await client.close();
    }
  }
  const text = (r: CallToolResult) => r.content.map((p) => (p.type === "text" ? p.text : "")).join("");

  it("serves with the embedder it names, and refuses a store another one made", async () => {
    const db = join(dir.path, "mcp.db");
    expect((await cli(db, "plain", ["ingest", "--user", "ana", turnsFile("mcp.jsonl", 1)])).code).toBe(0);
    const refused = await retrieveOver(db, "alike");
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("made by openai.embedding/plain (256 dimensions)");
    const served = stub.calls.get("plain") ?? 0;
    const found = await retrieveOver(db, "plain");
    expect(found.isError, text(found)).toBeFalsy();
    expect(text(found)).toContain("Biscuit");
    expect(stub.calls.get("plain")).toBeGreaterThan(served);
  });
});
