import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "./run-cli.js";
import { longIngestFile, spawnCli, spawnRootScript, waitForFile } from "./test-support/spawn-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-interrupt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("engram ingest interrupted", () => {
  // Signalled as soon as the store is open; test/slow/input-limits.slow.test.ts signals mid-embedding.
  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s during a long ingest exits with 128+n and one line, leaving the store unchanged",
    async (signal) => {
      const db = join(dir, `${signal}.db`);
      const seed = join(dir, "seed.jsonl");
      writeFileSync(seed, `${JSON.stringify({ role: "user", content: "I keep bees in Oslo." })}\n`);
      expect((await runCliCaptured(["ingest", "--user", "seed", seed, "--db", db, "--no-embed"])).code).toBe(
        0,
      );
      const before = (await runCliCaptured(["stats", "--db", db, "--json"])).stdout;
      // Minutes of work for the offline embedder: the signal arrives long before it could finish.
      const cli = spawnCli(["ingest", "--user", "u", longIngestFile(join(dir, "long.jsonl")), "--db", db]);
      // The WAL appears when the child opens the store, after its signal handlers are in place.
      await waitForFile(`${db}-wal`, cli);
      cli.child.kill(signal);
      const { code, stderr } = await cli.done;
      expect(code).toBe(signal === "SIGTERM" ? 143 : 130);
      expect(stderr).toBe(`engram ingest: interrupted by ${signal}; the batch in progress was not stored\n`);
      expect((await runCliCaptured(["stats", "--db", db, "--json"])).stdout).toBe(before);
    },
  );

  it("SIGINT during the tier work of a large import exits within 2 s: every line stored, tier work stopped between steps and finished by the next run", async () => {
    const db = join(dir, "tiers.db");
    const path = join(dir, "many.jsonl");
    // Words pages rarely share: most pages start a segment of their own, the costly case for tier work.
    const syllables = ["ka", "lo", "mi", "ren", "tu", "sa", "vel", "dor", "pi", "quen", "zar", "bo"];
    const word = (i: number) =>
      [7, 11, 13].map((p) => syllables[(i * p + (i >> 3)) % syllables.length]).join("");
    const lines = Array.from({ length: 14_000 }, (_, i) =>
      JSON.stringify({
        role: i % 2 ? "assistant" : "user",
        content: `About ${word(i)} and ${word(i + 5)} ${i}`,
      }),
    );
    writeFileSync(path, `${lines.join("\n")}\n`);
    // Run as `pnpm engram` runs it (the root package.json's script), in a process group of its own that
    // gets the signal, as a terminal's Ctrl-C sends it: no launcher in between may kill it hard.
    const cli = spawnRootScript("engram", ["ingest", "--user", "u", path, "--db", db, "--no-embed"]);
    const stats = async () =>
      JSON.parse((await runCliCaptured(["stats", "--user", "u", "--json", "--db", db])).stdout || "{}") as {
        byKind?: Record<string, number>;
        byTier?: Record<string, number>;
        jobs?: Record<string, number>;
      };
    await waitForFile(`${db}-wal`, cli);
    // Tier work has begun once pages have moved into segments.
    for (;;) {
      if (cli.child.exitCode !== null)
        throw new Error(`ingest ended before tier work was seen: ${(await cli.done).stderr}`);
      if (((await stats()).byKind?.segment ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const sent = performance.now();
    process.kill(-(cli.child.pid as number), "SIGINT");
    const { code, stderr } = await cli.done;
    const exitMs = performance.now() - sent;
    expect(code).toBe(130);
    expect(stderr).toBe(
      "engram ingest: interrupted by SIGINT; the turns are stored; tier work stopped after its last finished step and resumes the next time the store is opened for writing\n",
    );
    expect(exitMs).toBeLessThan(2000);
    const stopped = await stats();
    expect(stopped.byKind?.message).toBe(14_000);
    // Queued again, due now: not left running under a lease nobody renews.
    expect(stopped.jobs).toEqual({ queued: 1 });
    const again = await runCliCaptured(["ingest", "--user", "u", path, "--db", db, "--no-embed", "--json"]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ memories: 14_000, added: 0 });
    const done = await stats();
    expect(done.jobs).toEqual({ done: 1 });
    expect(done.byKind?.segment ?? 0).toBeLessThanOrEqual(200);
    // Short-term holds no more than its capacity and one batch of pages (two turns a page here).
    expect(done.byTier?.short).toBeLessThanOrEqual(2 * 14);
  });
});
