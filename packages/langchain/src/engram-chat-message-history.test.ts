import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import { RunnableWithMessageHistory } from "@langchain/core/runnables";
import { afterEach, describe, expect, it } from "vitest";
import { EngramChatMessageHistory, EngramRetriever } from "./index.js";
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

describe("EngramChatMessageHistory", () => {
  it("stores messages as the user's dialogue memories and replays them in order, tool calls included", async () => {
    const engram = await setup();
    const history = new EngramChatMessageHistory({ engram, userId: "ada", sessionId: "s1" });
    await history.addMessages([
      new SystemMessage("You are a travel assistant."),
      new HumanMessage("Weather in Lisbon?"),
      new AIMessage({ content: "", tool_calls: [{ name: "weather", args: { city: "Lisbon" }, id: "c1" }] }),
      new ToolMessage({ content: "sunny", tool_call_id: "c1", name: "weather" }),
      new AIMessage("It is sunny."),
    ]);
    const replayed = await history.getMessages();
    expect(replayed.map((m) => [m.getType(), m.text])).toEqual([
      ["system", "You are a travel assistant."],
      ["human", "Weather in Lisbon?"],
      ["ai", ""],
      ["tool", "sunny"],
      ["ai", "It is sunny."],
    ]);
    expect((replayed[2] as AIMessage).tool_calls).toMatchObject([
      { name: "weather", args: { city: "Lisbon" }, id: "c1" },
    ]);
    expect((replayed[3] as ToolMessage).tool_call_id).toBe("c1");
    const stored = await engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" });
    expect(stored.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    expect(stored.every((m) => m.sessionId === "s1" && m.tier === "short")).toBe(true);
  });

  it("is one session: other sessions and users are not part of it; clear() empties only it", async () => {
    const engram = await setup();
    const s1 = new EngramChatMessageHistory({ engram, userId: "ada", sessionId: "s1" });
    const s2 = new EngramChatMessageHistory({ engram, userId: "ada", sessionId: "s2" });
    const bob = new EngramChatMessageHistory({ engram, userId: "bob", sessionId: "s1" });
    await s1.addUserMessage("first session");
    await s2.addUserMessage("second session");
    await bob.addUserMessage("bob's session");
    expect((await s1.getMessages()).map((m) => m.text)).toEqual(["first session"]);
    await s1.clear();
    expect(await s1.getMessages()).toEqual([]);
    expect((await s2.getMessages()).map((m) => m.text)).toEqual(["second session"]);
    expect((await bob.getMessages()).map((m) => m.text)).toEqual(["bob's session"]);
  });

  it("feeds the tiers: after tier processing the session's messages are mid-term and still its history", async () => {
    const engram = await setup();
    const history = new EngramChatMessageHistory({ engram, userId: "ada", sessionId: "long" });
    for (let i = 0; i < 16; i++) {
      await history.addMessages([
        new HumanMessage(`Question ${i} about hiking trails near Lisbon`),
        new AIMessage(`Answer ${i}: try the Sintra loop`),
      ]);
    }
    await engram.flush();
    const stored = await engram.memories.list({ userId: "ada", kinds: ["message"], sessionId: "long" });
    expect(stored.some((m) => m.tier === "mid")).toBe(true);
    const replayed = await history.getMessages();
    expect(replayed).toHaveLength(32);
    expect(replayed[0]?.text).toBe("Question 0 about hiking trails near Lisbon");
  });

  it("returns the latest `limit` messages, oldest first", async () => {
    const engram = await setup();
    const history = new EngramChatMessageHistory({ engram, userId: "ada", sessionId: "s1", limit: 2 });
    for (const text of ["one", "two", "three"]) await history.addUserMessage(text);
    expect((await history.getMessages()).map((m) => m.text)).toEqual(["two", "three"]);
  });

  it("plugs into RunnableWithMessageHistory", async () => {
    const engram = await setup();
    const llm = new RecordingChatModel({ responses: ["Hello Ada!", "You are Ada."] });
    const prompt = ChatPromptTemplate.fromMessages([
      ["system", "Be brief."],
      new MessagesPlaceholder("history"),
      ["human", "{question}"],
    ]);
    const chat = new RunnableWithMessageHistory({
      runnable: prompt.pipe(llm),
      getMessageHistory: (sessionId: string) =>
        new EngramChatMessageHistory({ engram, userId: "ada", sessionId }),
      inputMessagesKey: "question",
      historyMessagesKey: "history",
    });
    const config = { configurable: { sessionId: "s1" } };
    await chat.invoke({ question: "Hi, I am Ada." }, config);
    await chat.invoke({ question: "Who am I?" }, config);
    expect(shown(llm.calls[1])).toContain("Hi, I am Ada.");
    expect(shown(llm.calls[1])).toContain("Hello Ada!");
  });
});

describe("EngramRetriever", () => {
  it("returns the user's memories as documents with their id, kind and time", async () => {
    const engram = await setup();
    await engram.add({
      userId: "ada",
      messages: [{ role: "user", content: "My sister Lena is a marine biologist." }],
    });
    await engram.add({
      userId: "bob",
      messages: [{ role: "user", content: "My sister Mia is a marine biologist too." }],
    });
    const retriever = new EngramRetriever({ engram, userId: "ada", k: 3 });
    const docs = await retriever.invoke("what does my sister do");
    expect(docs.map((d) => d.pageContent)).toEqual(["My sister Lena is a marine biologist."]);
    expect(docs[0]?.metadata).toMatchObject({ kind: "message", tier: "short", role: "user" });
    expect(docs[0]?.id).toBe(docs[0]?.metadata.id);
  });

  it("filters by kind", async () => {
    const engram = await setup();
    await engram.add({ userId: "ada", messages: [{ role: "user", content: "I live in Lisbon." }] });
    const facts = new EngramRetriever({ engram, userId: "ada", kinds: ["fact"] });
    expect(await facts.invoke("Lisbon")).toEqual([]);
  });

  it("needs a user id", async () => {
    const engram = await setup();
    expect(() => new EngramRetriever({ engram, userId: "" })).toThrow(/EngramRetriever: userId/);
  });
});
