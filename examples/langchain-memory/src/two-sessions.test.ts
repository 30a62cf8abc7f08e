import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAIChatModel, ScriptedChatModel } from "./chat-models.js";
import { agentSessions, classicChainSessions, FIRST_SESSION, SYSTEM } from "./two-sessions.js";

let dir: string;
let engram: Engram;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-example-"));
  engram = await createEngram({ path: join(dir, "engram.db"), embedder: hashEmbeddingModel() });
});
afterEach(async () => {
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
});

const replies = ["Nice to meet you, Ada!", "Your beagle is Biscuit; avoid peanuts."];

describe("the langchain-memory example", () => {
  it("classic chain: the second session's prompt carries the first session, after the system prompt", async () => {
    const llm = new ScriptedChatModel(replies);
    expect(await classicChainSessions({ engram, llm, userId: "ada" })).toEqual({
      first: replies[0],
      second: replies[1],
    });
    const prompt = llm.prompts[1]?.map((m) => m.text).join("\n") ?? "";
    expect(prompt.startsWith(`${SYSTEM}\n<memory>`)).toBe(true);
    expect(prompt).toContain(FIRST_SESSION);
  });

  it("v1 agent: the same, through the middleware, for another user without leaking", async () => {
    await classicChainSessions({ engram, llm: new ScriptedChatModel(replies), userId: "ada" });
    const model = new ScriptedChatModel(["Hello!", "You have not told me about a dog."]);
    const result = await agentSessions({ engram, model, userId: "bob" });
    expect(result.second).toBe("You have not told me about a dog.");
    const system = model.prompts[1]?.[0]?.text ?? "";
    expect(system.startsWith(`${SYSTEM}\n\n<memory>`)).toBe(true);
    // Bob's own first session is recalled ("Hello!"); Ada's conversation ("Nice to meet you, Ada!") is not.
    expect(system).toContain("Hello!");
    expect(system).not.toContain(replies[0]);
    const bob = await engram.memories.list({ userId: "bob", kinds: ["message"] });
    expect(bob.map((m) => m.sessionId).sort()).toEqual([
      "agent-friday",
      "agent-friday",
      "agent-monday",
      "agent-monday",
    ]);
    expect(await engram.memories.list({ userId: "ada", kinds: ["message"] })).toHaveLength(4);
  });

  it("uses a real model only when the environment names one", () => {
    expect(openAIChatModel({})).toBeNull();
    expect(openAIChatModel({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })).not.toBeNull();
  });
});
