import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "./run-cli.js";
import { longIngestFile, spawnCli, waitForFile } from "./test-support/spawn-cli.js";

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
});
