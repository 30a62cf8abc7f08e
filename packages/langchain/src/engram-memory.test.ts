import { ConversationChain } from "@langchain/classic/chains";
import { BufferMemory } from "@langchain/classic/memory";
import { PromptTemplate } from "@langchain/core/prompts";
import { afterEach, describe, expect, it } from "vitest";
import { EngramChatMessageHistory, EngramMemory } from "./index.js";
import { RecordingChatModel, shown, tempEngram } from "./test-support/temp-engram.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup() {
  const env = await tempEngram();
  cleanup.push(env.dispose);
  return env.engram;
}

const recallPrompt = PromptTemplate.fromTemplate(
  "You are a friendly assistant.\n{memory}\nHuman: {input}\nAI:",
);
const historyPrompt = PromptTemplate.fromTemplate(
  "You are a friendly assistant.\n{history}\nHuman: {input}\nAI:",
);

describe("EngramChatMessageHistory and EngramMemory in classic chains", () => {
  it("a conversation kept in EngramChatMessageHistory is recalled in the next session through EngramMemory", async () => {
    const engram = await setup();
    const llm = new RecordingChatModel({
      responses: [
        "Biscuit is a lovely name for a beagle.",
        "Beagles love long walks.",
        "Your dog is called Biscuit.",
      ],
    });
    const history = new EngramChatMessageHistory({ engram, userId: "ada", sessionId: "monday" });
    const monday = new ConversationChain({
      llm,
      prompt: historyPrompt,
      memory: new BufferMemory({ chatHistory: history, memoryKey: "history" }),
    });
    await monday.invoke({ input: "I just adopted a beagle called Biscuit." });
    await monday.invoke({ input: "What do beagles like?" });
    // Same session: the buffer replays the stored history.
    expect(shown(llm.calls[1])).toContain("I just adopted a beagle called Biscuit.");
    expect((await history.getMessages()).map((m) => [m.getType(), m.text])).toEqual([
      ["human", "I just adopted a beagle called Biscuit."],
      ["ai", "Biscuit is a lovely name for a beagle."],
      ["human", "What do beagles like?"],
      ["ai", "Beagles love long walks."],
    ]);

    const memory = new EngramMemory({ engram, userId: "ada", sessionId: "friday" });
    cleanup.push(() => memory.close());
    const friday = new ConversationChain({ llm, prompt: recallPrompt, memory });
    const { response } = await friday.invoke({ input: "What is my dog called?" });
    expect(response).toBe("Your dog is called Biscuit.");
    const prompt = shown(llm.calls[2]);
    expect(prompt.startsWith("You are a friendly assistant.\n<memory>")).toBe(true);
    expect(prompt).toContain("I just adopted a beagle called Biscuit.");
    await memory.flush();
    const friday_ = new EngramChatMessageHistory({ engram, userId: "ada", sessionId: "friday" });
    expect((await friday_.getMessages()).map((m) => m.text)).toEqual([
      "What is my dog called?",
      "Your dog is called Biscuit.",
    ]);
  });

  it("EngramMemory alone carries a fact from one session to the next, and never across users", async () => {
    const engram = await setup();
    const llm = new RecordingChatModel({ responses: ["Noted.", "Noted.", "Pelican.", "Walrus."] });
    const chain = (userId: string, sessionId: string) => {
      const memory = new EngramMemory({ engram, userId, sessionId });
      cleanup.push(() => memory.close());
      return new ConversationChain({ llm, prompt: recallPrompt, memory });
    };
    await chain("ada", "s1").invoke({ input: "My code word is pelican." });
    await chain("bob", "s1").invoke({ input: "My code word is walrus." });
    await chain("ada", "s2").invoke({ input: "What is my code word?" });
    await chain("bob", "s2").invoke({ input: "What is my code word?" });
    expect(shown(llm.calls[2])).toContain("pelican");
    expect(shown(llm.calls[2])).not.toContain("walrus");
    expect(shown(llm.calls[3])).toContain("walrus");
    expect(shown(llm.calls[3])).not.toContain("pelican");
  });

  it("needs a user id", async () => {
    const engram = await setup();
    expect(() => new EngramMemory({ engram, userId: "" })).toThrow(/EngramMemory: userId/);
    expect(() => new EngramChatMessageHistory({ engram, userId: "ada", sessionId: "" })).toThrow(
      /EngramChatMessageHistory: sessionId/,
    );
  });

  it("does not fail the chain when the write-back fails", async () => {
    const engram = await setup();
    const failing = Object.create(engram, {
      add: { value: () => Promise.reject(new Error("SQLITE_FULL: database or disk is full")) },
    }) as typeof engram;
    const errors: unknown[] = [];
    const memory = new EngramMemory({
      engram: failing,
      userId: "ada",
      writeBehind: { maxAttempts: 2, retryDelayMs: () => 1 },
      onError: (error) => errors.push(error),
    });
    const llm = new RecordingChatModel({ responses: ["Sure."] });
    const { response } = await new ConversationChain({ llm, prompt: recallPrompt, memory }).invoke({
      input: "Remember my gate code 2468.",
    });
    expect(response).toBe("Sure.");
    await memory.flush();
    expect(errors).toHaveLength(2);
  });

  it("reports a turn too large to store, without failing the chain or retrying it", async () => {
    const engram = await setup();
    const reports: unknown[][] = [];
    const memory = new EngramMemory({ engram, userId: "ada", onError: (...report) => reports.push(report) });
    cleanup.push(() => memory.close());
    await memory.saveContext({ input: "x".repeat(1_048_577) }, { output: "Noted." });
    expect(reports).toEqual([
      [
        expect.objectContaining({
          code: "INVALID_INPUT",
          message: expect.stringMatching(/messages\.0\.content/),
        }),
        { stage: "remember", userId: "ada", attempt: 0, willRetry: false },
      ],
    ]);
    expect(await engram.memories.list({ userId: "ada" })).toEqual([]);
  });
});
