import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram, type Engram, StorageError } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { engramAgentMiddleware } from "./agent/index.js";
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

/** The engine, but its first `add` is stored and then reported failed, as a store that timed out after committing. */
function losingFirstAdd(engram: Engram): Engram {
  let lost = 1;
  return Object.create(engram, {
    add: {
      value: async (input: Parameters<Engram["add"]>[0]) => {
        const result = await engram.add(input);
        if (lost-- > 0) throw new StorageError("the write timed out");
        return result;
      },
    },
  }) as Engram;
}

const storedTurns = async (engram: Engram) =>
  (await engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" })).map((t) => [
    t.role,
    t.text,
  ]);

describe("a write-back run again stores each turn once", () => {
  it("saveContext: the queue's retry of a write that was stored but reported failed", async () => {
    const env = await tempEngram();
    cleanup.push(env.dispose);
    const errors: unknown[] = [];
    const memory = new EngramMemory({
      engram: losingFirstAdd(env.engram),
      userId: "ada",
      sessionId: "s1",
      writeBehind: { retryDelayMs: () => 1 },
      onError: (error) => errors.push(error),
    });
    cleanup.push(() => memory.close());
    await memory.saveContext({ input: "I moved to Porto." }, { output: "Noted." });
    await memory.saveContext({ input: "I work as a nurse." }, { output: "Noted." });
    await memory.flush();
    expect(errors).toHaveLength(1);
    expect(await storedTurns(env.engram)).toEqual([
      ["user", "I moved to Porto."],
      ["assistant", "Noted."],
      ["user", "I work as a nurse."],
      ["assistant", "Noted."],
    ]);
  });

  it("the agent middleware: afterAgent run again on the state of a finished run", async () => {
    const env = await tempEngram();
    cleanup.push(env.dispose);
    const memory = engramAgentMiddleware({ engram: env.engram, userId: "ada" });
    cleanup.push(() => memory.close());
    const model = fakeModel().respond(new AIMessage("Noted."));
    const agent = createAgent({ model, tools: [], middleware: [memory] });
    const context = { userId: "ada", sessionId: "s1" };
    const state = await agent.invoke(
      { messages: [{ role: "user", content: "I moved to Porto." }] },
      { context },
    );
    // What LangGraph does when the node runs again, on a retry or a resume: the same state once more.
    const hook = typeof memory.afterAgent === "function" ? memory.afterAgent : memory.afterAgent?.hook;
    if (typeof hook !== "function") throw new Error("the middleware has no afterAgent hook");
    await hook(state as never, { context } as never);
    await memory.flush();
    expect(await storedTurns(env.engram)).toEqual([
      ["user", "I moved to Porto."],
      ["assistant", "Noted."],
    ]);
  });
});
