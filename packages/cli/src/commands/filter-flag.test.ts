import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-filter-"));
const db = join(dir, "f.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);

beforeAll(async () => {
  const lines = [
    {
      role: "user",
      content: "The kayak trip to the fjord is in June",
      metadata: { project: "travel", priority: 1 },
    },
    {
      role: "user",
      content: "The kayak club meeting moved to Tuesday",
      metadata: { project: "club", priority: 3 },
    },
    { role: "user", content: "I sold my old kayak paddle" },
  ];
  const path = join(dir, "seed.jsonl");
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n"));
  expect((await cli("ingest", "--user", "ana", path)).code).toBe(0);
});

describe("--filter on search and context", () => {
  it("search keeps only memories whose metadata passes", async () => {
    const run = await cli(
      "search",
      "--user",
      "ana",
      "kayak",
      "--filter",
      '{"priority":{"$gte":2}}',
      "--json",
    );
    expect(run.code).toBe(0);
    const texts = (JSON.parse(run.stdout) as { results: { text: string }[] }).results.map((r) => r.text);
    expect(texts).toEqual(["The kayak club meeting moved to Tuesday"]);
  });

  it("context shows only the turns that pass", async () => {
    const run = await cli("context", "--user", "ana", "kayak", "--filter", '{"project":"travel"}', "--json");
    expect(run.code).toBe(0);
    const text = (JSON.parse(run.stdout) as { text: string }).text;
    expect(text).toContain("fjord");
    expect(text).not.toContain("club meeting");
    expect(text).not.toContain("paddle");
  });

  it("a filter that is not a JSON object, or names an unknown operator, fails with the reason", async () => {
    const notJson = await cli("search", "--user", "ana", "kayak", "--filter", "project=travel");
    expect(notJson.code).not.toBe(0);
    expect(notJson.stderr).toContain("bad --filter");
    const badOp = await cli("search", "--user", "ana", "kayak", "--filter", '{"priority":{"$above":1}}');
    expect(badOp.code).not.toBe(0);
    expect(badOp.stderr).toContain("filter.priority.$above");
  });
});
