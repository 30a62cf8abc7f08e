import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram } from "@engram/core";
import { SqliteStorage } from "@engram/core/sqlite";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { IS_ROOT, readerLauncher, spawnLaunched } from "./support/reader-launcher.js";
import { makeTempDir } from "./support/temp-dir.js";

const TEST_DIR = fileURLToPath(new URL(".", import.meta.url));
const READER = join(TEST_DIR, "support", "read-only-reader.ts");
const LAUNCHER = readerLauncher(READER);
if ("skip" in LAUNCHER) console.warn(`read-only-file.test.ts: skipped: ${LAUNCHER.skip}`);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0)) fn();
});

/** A store with one user's turns in `dir/store/engram.db`, then the file 0444 and its directory 0555. */
async function lockedStore(): Promise<{ path: string; store: string; jsonl: string }> {
  const dir = makeTempDir("engram-ro-file-");
  const store = join(dir.path, "store");
  mkdirSync(store);
  cleanups.push(() => {
    chmodSync(store, 0o755);
    dir.remove();
  });
  chmodSync(dir.path, 0o755);
  const path = join(store, "engram.db");
  const engram = await createEngram({ path, embedder: hashEmbeddingModel(), background: false });
  await engram.add({
    userId: "u",
    messages: [{ role: "user", content: "The tram in Porto was lovely yesterday." }],
  });
  await engram.flush();
  await engram.close();
  const jsonl = join(dir.path, "more.jsonl");
  writeFileSync(jsonl, `${JSON.stringify({ role: "user", content: "One more." })}\n`);
  chmodSync(path, 0o444);
  chmodSync(store, 0o555);
  return { path, store, jsonl };
}

function runReader(path: string, jsonl: string): Record<string, unknown> {
  const child = spawnLaunched(
    LAUNCHER,
    process.execPath,
    ["--conditions=@engram/source", "--import", "tsx", READER, path, jsonl],
    { cwd: TEST_DIR },
  );
  if (child.status !== 0) throw new Error(`reader failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout) as Record<string, unknown>;
}

const digest = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe.skipIf("skip" in LAUNCHER)(
  "a store file this process cannot write (0444 in a 0555 directory)",
  () => {
    it("opens read-only by itself: engine and CLI reads work, writes fail clearly, nothing is created", async () => {
      const { path, store, jsonl } = await lockedStore();
      const before = digest(path);
      const report = runReader(path, jsonl);
      expect(report).toMatchObject({
        readOnly: "the file is not writable by this process",
        hits: ["The tram in Porto was lovely yesterday."],
        context: true,
        listed: 1,
        exported: 1,
        addError: "READ_ONLY",
      });
      const cli = report.cli as Record<string, { code: number; stderr: string }>;
      for (const name of ["search", "list", "show", "stats", "export", "profile"]) {
        expect(cli[name], name).toEqual({ code: 0, stderr: "" });
      }
      expect(cli.ingest?.code).toBe(1);
      expect(cli.ingest?.stderr).toMatch(
        /^engram ingest: the store is open read-only \(the file is not writable/,
      );
      expect(readdirSync(store)).toEqual(["engram.db"]);
      expect(digest(path)).toBe(before);
    });

    it("reads the live WAL of a process that is writing to it", async () => {
      const { path, store, jsonl } = await lockedStore();
      // The writer (this process) can write the file: root ignores the bits, anyone else is given them back.
      if (!IS_ROOT) {
        chmodSync(store, 0o755);
        chmodSync(path, 0o644);
      }
      const writer = new SqliteStorage({ path, readonly: false });
      try {
        await writer.write({ userId: "w" }, { kvPut: [{ namespace: ["n"], key: "k", value: "written" }] });
        if (!IS_ROOT) {
          chmodSync(path, 0o444);
          chmodSync(store, 0o555);
        }
        expect(runReader(path, jsonl)).toMatchObject({ kv: "written", listed: 1, addError: "READ_ONLY" });
      } finally {
        await writer.close();
      }
    });

    it.runIf(IS_ROOT)(
      "as root, permission bits do not make it read-only: only readonly: true does",
      async () => {
        const { path } = await lockedStore();
        const storage = new SqliteStorage({ path });
        expect(storage.readOnly).toBeNull();
        await storage.close();
        const readonly = new SqliteStorage({ path, readonly: true });
        expect(readonly.readOnly).toBe("opened with readonly: true");
        await readonly.close();
      },
    );
  },
);
