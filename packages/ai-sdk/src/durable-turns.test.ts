import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram } from "@engram/core";
import { sqliteStorage } from "@engram/core/sqlite";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { engramMiddleware } from "./index.js";
import { scriptedModel, tempEngram } from "./test-support/scripted-model.js";

const CHILD = join(dirname(fileURLToPath(import.meta.url)), "test-support", "exit-after-call.ts");

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** The messages as another connection to the file sees them: what is committed, not what is queued. */
async function committedTurns(path: string) {
  const reader = sqliteStorage({ path });
  try {
    const records = await reader.scan({ userId: "ada" }, { filter: { kinds: ["message"] }, order: "asc" });
    return records.map((r) => [r.role, r.text, r.status]);
  } finally {
    await reader.close();
  }
}

describe("a turn the middleware accepted is in the database when the call returns", () => {
  it.each(["generate", "stream"] as const)("with %sText, before flush() or close()", async (mode) => {
    const env = await tempEngram();
    cleanup.push(env.dispose);
    const path = env.path;
    const memory = engramMiddleware({ engram: env.engram, userId: "ada" });
    cleanup.push(() => memory.close());
    const { model } = scriptedModel(["Noted."]);
    const wrapped = wrapLanguageModel({ model, middleware: memory });
    if (mode === "stream") await streamText({ model: wrapped, prompt: "I moved to Porto." }).text;
    else await generateText({ model: wrapped, prompt: "I moved to Porto." });
    expect(memory.pendingWrites).toBe(0);
    expect(await committedTurns(path)).toEqual([
      ["user", "I moved to Porto.", "pending"],
      ["assistant", "Noted.", "pending"],
    ]);
  });
});

describe("a process that exits right after its calls, without close()", () => {
  it("loses no generateText or streamText turn; the next open embeds them", async () => {
    const env = await tempEngram();
    const path = env.path;
    await env.engram.close();
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
      // The worker may have embedded the first turn while the second call ran; the last is still pending.
      expect(turns.map((t) => [t.role, t.text])).toEqual([
        ["user", "My sister Maria lives in Porto."],
        ["assistant", "Noted: Maria lives in Porto."],
        ["user", "I work as a nurse."],
        ["assistant", "Noted: you are a nurse."],
      ]);
      expect(turns.at(-1)?.status).toBe("pending");
      const report = await engram.flush();
      expect(report.failed).toBe(0);
      const after = await engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" });
      expect(after.map((t) => t.status)).toEqual(["ready", "ready", "ready", "ready"]);
      const vectors = await storageOf(engram).getVectors(
        { userId: "ada" },
        after.map((t) => t.id),
      );
      expect(vectors.size).toBe(4);
      const hits = await engram.search({ userId: "ada", query: "Maria Porto", channels: ["vector"] });
      expect(hits.length).toBeGreaterThan(0);
    } finally {
      await engram.close();
    }
  });
});
