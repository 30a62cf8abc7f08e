import { EngramError } from "@engram/core";
import { generateText, stepCountIs, type Tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { engramTools } from "./index.js";
import { scriptedModel, tempEngram } from "./test-support/scripted-model.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup() {
  const env = await tempEngram();
  cleanup.push(env.dispose);
  return { engram: env.engram, tools: engramTools({ engram: env.engram, userId: "ada", sessionId: "s1" }) };
}

/** Runs a tool's execute as the AI SDK would, for its (non-streaming) output. */
async function call<I, O>(t: Tool<I, O>, input: I): Promise<O> {
  if (!t.execute) throw new Error("tool has no execute");
  const output = await t.execute(input, { toolCallId: "t1", messages: [], context: {} });
  return output as O;
}

describe("engramTools", () => {
  it("remember stores a statement as the user's memory; searchMemory finds it with an id", async () => {
    const { engram, tools } = await setup();
    const { ids } = await call(tools.remember, { text: "I am allergic to peanuts." });
    expect(ids).toHaveLength(1);
    const { memories } = await call(tools.searchMemory, { query: "peanuts allergy", limit: 5 });
    expect(memories[0]).toMatchObject({ id: ids[0], text: "I am allergic to peanuts.", kind: "message" });
    const stored = await engram.memories.get({ userId: "ada", id: ids[0] as string });
    expect(stored.metadata).toEqual({ source: "remember-tool" });
    expect(stored.sessionId).toBe("s1");
  });

  it("forget deletes one memory by id; an unknown id is a NotFound error the model can read", async () => {
    const { engram, tools } = await setup();
    const { ids } = await call(tools.remember, { text: "My locker code is 4411." });
    await call(tools.forget, { id: ids[0] as string });
    expect(await engram.memories.list({ userId: "ada" })).toEqual([]);
    const error = await call(tools.forget, { id: "nope" }).catch((e: unknown) => e);
    expect(EngramError.isInstance(error) && error.code).toBe("NOT_FOUND");
  });

  it("correctMemory rewrites a memory by id, or applies a correction in plain words", async () => {
    const { engram, tools } = await setup();
    const { ids } = await call(tools.remember, { text: "I live in Munich." });
    const id = ids[0] as string;
    const edited = await call(tools.correctMemory, { id, text: "I live in Munich, near the Isar." });
    expect(edited).toEqual({ updated: [id], created: [], superseded: [] });
    expect((await engram.memories.get({ userId: "ada", id })).text).toBe("I live in Munich, near the Isar.");
    const corrected = await call(tools.correctMemory, { text: "I moved to Berlin." });
    expect(corrected.created.length).toBeGreaterThan(0);
    const profile = await engram.profile({ userId: "ada" });
    expect(profile.find((t) => t.key === "lives_in")?.value).toBe("Berlin");
  });

  it("is scoped to its user: another user's tools do not see the memory", async () => {
    const { engram, tools } = await setup();
    await call(tools.remember, { text: "My passport number ends in 7731." });
    const bob = engramTools({ engram, userId: "bob" });
    const { memories } = await call(bob.searchMemory, { query: "passport number", limit: 5 });
    expect(memories).toEqual([]);
  });

  it("needs a user id", async () => {
    const { engram } = await setup();
    expect(() => engramTools({ engram, userId: "" })).toThrow(/engramTools: userId/);
  });

  it("runs as AI SDK tools in a generateText loop", async () => {
    const { engram, tools } = await setup();
    const { model } = scriptedModel([
      { toolCalls: [{ toolName: "remember", input: { text: "My favourite tea is sencha." } }] },
      "I'll remember that.",
    ]);
    const result = await generateText({ model, tools, stopWhen: stepCountIs(2), prompt: "Remember my tea." });
    expect(result.text).toBe("I'll remember that.");
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ ids: [expect.any(String)] });
    expect((await engram.memories.list({ userId: "ada" })).map((m) => m.text)).toEqual([
      "My favourite tea is sencha.",
    ]);
  });
});
