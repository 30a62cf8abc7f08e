import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { failingEmbeddingModel } from "@engram/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-failing-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store whose user has an embed job that failed once and is due again later. */
let stores = 0;
async function storeWithFailingJob() {
  const db = join(dir, `s${stores++}.db`);
  const engram = await createEngram({
    path: db,
    background: false,
    tiers: false,
    embedder: failingEmbeddingModel(10),
    logger: false,
  });
  await engram.add({
    userId: "cara",
    messages: [{ role: "user", content: "The plumber comes on Thursday" }],
  });
  const report = await engram.flush();
  await engram.close();
  expect(report.retried).toBe(1);
  return db;
}

describe("engram stats with failing background work", () => {
  it("shows a user's failing jobs with their error, in text and in --json", async () => {
    const db = await storeWithFailingJob();
    const text = await runCliCaptured(["stats", "--user", "cara", "--db", db, "--no-embed"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /\nfailing\s+embed failed 1 times, retried at \S+: embedding still failing: .*simulated embedding failure/,
    );
    const json = await runCliCaptured(["stats", "--user", "cara", "--db", db, "--no-embed", "--json"]);
    const doc = JSON.parse(json.stdout) as { failingJobs: unknown[] };
    expect(doc.failingJobs).toEqual([
      {
        id: expect.any(String),
        type: "embed",
        status: "queued",
        attempts: 1,
        lastError: expect.stringMatching(/simulated embedding failure/),
        retryAt: expect.any(String),
      },
    ]);
    const clean = await runCliCaptured(["stats", "--user", "nobody", "--db", db, "--no-embed", "--json"]);
    expect(JSON.parse(clean.stdout)).toMatchObject({ failingJobs: [] });
  });
});

describe("commands that read or change a user's memory warn of failing background jobs", () => {
  it("search, context, list and profile write one warning line to stderr, and none for a clean user", async () => {
    const db = await storeWithFailingJob();
    const warning =
      /^warning: 1 background job of user cara being retried; latest embed: .*simulated embedding failure.* \(engram stats --user cara lists them\)\n$/;
    for (const args of [
      ["search", "--user", "cara", "plumber"],
      ["context", "--user", "cara", "plumber"],
      ["list", "--user", "cara"],
      ["profile", "--user", "cara"],
    ]) {
      const run = await runCliCaptured([...args, "--db", db, "--no-embed", "--json"]);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(warning);
      expect(() => JSON.parse(run.stdout)).not.toThrow();
    }
    const cleanDb = join(dir, "clean.db");
    const seed = join(dir, "seed.jsonl");
    writeFileSync(seed, `${JSON.stringify({ role: "user", content: "The plumber came" })}\n`);
    expect(
      (await runCliCaptured(["ingest", "--user", "dan", seed, "--db", cleanDb, "--no-embed"])).code,
    ).toBe(0);
    const clean = await runCliCaptured(["search", "--user", "dan", "plumber", "--db", cleanDb, "--no-embed"]);
    expect(clean.code).toBe(0);
    expect(clean.stderr).toBe("");
  });
});
