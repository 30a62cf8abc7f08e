import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram } from "@engram/core";
import { sqliteStorage } from "@engram/core/sqlite";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { type EngramErrorInfo, engramMiddleware } from "./index.js";
import { flakyStorage, scriptedModel, tempEngram } from "./test-support/scripted-model.js";

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

describe("a write-back retried after a try that was stored but reported failed", () => {
  it.each(["generate", "stream"] as const)("stores each %sText turn once", async (mode) => {
    let flaky: ReturnType<typeof flakyStorage> | undefined;
    const env = await tempEngram({
      storage: (path) => {
        flaky = flakyStorage(path);
        return flaky.storage;
      },
    });
    cleanup.push(env.dispose);
    if (!flaky) throw new Error("storage not created");
    const errors: EngramErrorInfo[] = [];
    const memory = engramMiddleware({
      engram: env.engram,
      userId: "ada",
      sessionId: "s1",
      writeBehind: { retryDelayMs: () => 1 },
      onError: (_error, info) => errors.push(info),
    });
    cleanup.push(() => memory.close());
    const { model } = scriptedModel(["Noted.", "Noted."]);
    const wrapped = wrapLanguageModel({ model, middleware: memory });
    const ask = async (prompt: string) => {
      if (mode === "stream") await streamText({ model: wrapped, prompt }).text;
      else await generateText({ model: wrapped, prompt });
    };
    // The first turn's write lands, but the queue is told it failed and sends it again.
    flaky.state.lostAcks = 1;
    await ask("I moved to Porto.");
    await ask("I work as a nurse.");
    await memory.flush();
    expect(errors).toEqual([{ stage: "remember", userId: "ada", attempt: 1, willRetry: true }]);
    const turns = await env.engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" });
    expect(turns.map((t) => [t.role, t.text])).toEqual([
      ["user", "I moved to Porto."],
      ["assistant", "Noted."],
      ["user", "I work as a nurse."],
      ["assistant", "Noted."],
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
