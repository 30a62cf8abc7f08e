import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import { createEngram } from "@engram/core";
import { afterAll, expect, it } from "vitest";
import { longIngestFile, spawnCli, waitForFile } from "../../packages/cli/src/test-support/spawn-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

const dir = makeTempDir("engram-input-limits-");
afterAll(() => dir.remove());

const sentence = "My sister moved to Lisbon last spring and opened a bakery near the river. ";
const text = (bytes: number) => sentence.repeat(Math.ceil(bytes / sentence.length)).slice(0, bytes);

it("refuses a 5 MB message within a second, engine and CLI, storing nothing", async () => {
  const engram = await createEngram({ path: join(dir.path, "five.db"), background: false });
  try {
    let started = performance.now();
    await expect(
      engram.add({ userId: "u", messages: [{ role: "user", content: text(5 * 1024 * 1024) }] }),
    ).rejects.toThrow("over the limit");
    const engineMs = performance.now() - started;
    const file = join(dir.path, "five.jsonl");
    writeFileSync(file, `${JSON.stringify({ role: "user", content: text(5 * 1024 * 1024) })}\n`);
    started = performance.now();
    const run = await runCliCaptured(["ingest", "--user", "u", file, "--db", join(dir.path, "five-cli.db")]);
    const cliMs = performance.now() - started;
    console.log(JSON.stringify({ engineMs, cliMs }));
    expect(run.code).toBe(1);
    expect(engineMs).toBeLessThan(1000);
    expect(cliMs).toBeLessThan(1000);
    expect((await engram.stats()).memories).toBe(0);
  } finally {
    await engram.close();
  }
});

it.each([
  ["by default, found by full text through its passages", {}, "fulltext"],
  ["with 8 passages embedded, found by its vector", { passages: 8 }, "vector"],
] as const)(
  "stores a 100 KB message in under 5 seconds with the offline embedder: %s",
  async (_, embedding, channel) => {
    const engram = await createEngram({
      path: join(dir.path, `hundred-${channel}.db`),
      background: false,
      embedding,
    });
    try {
      await engram.embedder?.embed(["load the model first: its one-off load is not the message's cost"]);
      const started = performance.now();
      await engram.add({ userId: "u", messages: [{ role: "user", content: text(100 * 1024) }] });
      await engram.flush();
      const ms = performance.now() - started;
      // The message itself; with tiers on, a fact extracted from it may be found too.
      const hits = await engram.search({
        userId: "u",
        query: "sister bakery",
        channels: [channel],
        kinds: ["message"],
      });
      console.log(JSON.stringify({ hundredKbMs: ms, channel }));
      expect(hits).toHaveLength(1);
      expect(ms).toBeLessThan(5000);
    } finally {
      await engram.close();
    }
  },
);

it("SIGTERM in the middle of embedding stops the ingest within 3 seconds", async () => {
  const db = join(dir.path, "term.db");
  const cli = spawnCli(["ingest", "--user", "u", longIngestFile(join(dir.path, "long.jsonl")), "--db", db]);
  await waitForFile(`${db}-wal`, cli);
  // Long enough for the model to load and the first add to be embedding.
  await new Promise((r) => setTimeout(r, 8000));
  const started = performance.now();
  cli.child.kill("SIGTERM");
  const { code } = await cli.done;
  const ms = performance.now() - started;
  console.log(JSON.stringify({ sigtermExitMs: ms }));
  expect(code).toBe(143);
  expect(ms).toBeLessThan(3000);
  const stats = JSON.parse((await runCliCaptured(["stats", "--db", db, "--json"])).stdout) as {
    memories: number;
  };
  expect(stats.memories).toBe(0);
});
