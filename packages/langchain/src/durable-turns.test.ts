import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { EngramMemory } from "./engram-memory.js";
import { tempEngram } from "./test-support/temp-engram.js";

const CHILD = join(dirname(fileURLToPath(import.meta.url)), "test-support", "exit-after-save.ts");

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe("a turn EngramMemory or the agent middleware accepted is committed when the call returns", () => {
  it("saveContext resolves after the raw turn is in the database", async () => {
    const env = await tempEngram();
    cleanup.push(env.dispose);
    const memory = new EngramMemory({ engram: env.engram, userId: "ada" });
    cleanup.push(() => memory.close());
    await memory.saveContext({ input: "I moved to Porto." }, { output: "Noted." });
    const turns = await env.engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" });
    expect(turns.map((t) => [t.role, t.text])).toEqual([
      ["user", "I moved to Porto."],
      ["assistant", "Noted."],
    ]);
  });

  it("a process that exits right after the chain and the agent returned, without close(), loses nothing", async () => {
    const env = await tempEngram();
    const path = join(env.dir, "child.db");
    cleanup.push(env.dispose);
    const child = spawnSync(
      process.execPath,
      ["--conditions=@engram/source", "--import", "tsx", CHILD, path],
      {
        encoding: "utf8",
      },
    );
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("answered\n");
    expect(child.status).toBe(0);
    const engram = await createEngram({ path, embedder: hashEmbeddingModel(), background: false });
    try {
      const turns = await engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" });
      expect(turns.map((t) => [t.role, t.text])).toEqual([
        ["user", "My sister Maria lives in Porto."],
        ["assistant", "Noted: Maria lives in Porto."],
        ["user", "I work as a nurse."],
        ["assistant", "Noted: you are a nurse."],
      ]);
      const report = await engram.flush();
      expect(report.failed).toBe(0);
      const after = await engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" });
      expect(after.map((t) => t.status)).toEqual(["ready", "ready", "ready", "ready"]);
    } finally {
      await engram.close();
    }
  });
});
