import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { EngramCheckpointer } from "@engram/langgraph";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoScript, openAiModel } from "../src/chat-model.js";
import { createMemoryAgent } from "../src/memory-agent.js";
import { ScriptedChatModel } from "../src/scripted-chat-model.js";

describe("the LangGraph memory agent", () => {
  let dir: string;
  const open = () =>
    createEngram({ path: join(dir, "agent.db"), embedder: hashEmbeddingModel(), background: false });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "engram-agent-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function turn(
    engram: Engram,
    model: ScriptedChatModel,
    thread: string,
    text: string,
    user = "alice",
  ) {
    const agent = createMemoryAgent(engram, model);
    const result = await agent.invoke(
      { messages: [new HumanMessage(text)] },
      { configurable: { thread_id: thread, user_id: user } },
    );
    return result.messages.at(-1)?.text;
  }

  it("remembers a user across threads and a restart, through the store and the checkpointer", async () => {
    const model = demoScript();
    let engram = await open();
    expect(await turn(engram, model, "thread-1", "My cat is called Miso. Please remember that.")).toBe(
      "Noted: your cat is called Miso.",
    );
    await engram.close();
    engram = await open();
    expect(await turn(engram, model, "thread-2", "What is my cat called?")).toBe("Your cat is called Miso.");
    // The fact came in as a store item of alice's; both turns were written back as her messages.
    const items = await engram.memories.list({ userId: "alice", kinds: ["item"] });
    expect(items.map((m) => m.text)).toEqual(["The user's cat is called Miso."]);
    const messages = await engram.memories.list({ userId: "alice", kinds: ["message"], order: "asc" });
    expect(messages.map((m) => [m.role, m.sessionId])).toEqual([
      ["user", "thread-1"],
      ["assistant", "thread-1"],
      ["user", "thread-2"],
      ["assistant", "thread-2"],
    ]);
    // thread-1's state survived the restart.
    const saved = await new EngramCheckpointer(engram).getTuple({
      configurable: { thread_id: "thread-1", user_id: "alice" },
    });
    expect(saved?.checkpoint.channel_values.messages).toHaveLength(4);
    await engram.close();
  });

  it("keeps users apart: another user's thread does not see the fact", async () => {
    const engram = await open();
    const model = demoScript();
    await turn(engram, model, "thread-1", "My cat is called Miso. Please remember that.");
    expect(await turn(engram, model, "thread-9", "What is my cat called?", "bob")).toBe(
      "I don't know your cat's name.",
    );
    await engram.close();
  });

  it("uses a real model only when OpenAI settings are present", () => {
    expect(openAiModel({})).toBeNull();
    expect(openAiModel({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1" })).not.toBeNull();
  });

  it("puts the recalled memory in the model's system prompt", async () => {
    const engram = await open();
    await engram.add({ userId: "carol", messages: [{ role: "user", content: "I live in Lisbon" }] });
    const model = new ScriptedChatModel([() => new AIMessage("ok")]);
    await turn(engram, model, "t", "Where do I live?", "carol");
    expect(model.prompts[0]?.[0]?.text).toContain("Lisbon");
    await engram.close();
  });
});
