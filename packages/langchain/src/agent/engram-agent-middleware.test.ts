import { EngramError, ScopeError } from "@engram/core";
import { AIMessage, SystemMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { shown, tempEngram } from "../test-support/temp-engram.js";
import { engramAgentMiddleware } from "./index.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup(options: { toolResults?: "skip" | "summarize" } = {}) {
  const env = await tempEngram();
  cleanup.push(env.dispose);
  const memory = engramAgentMiddleware({ engram: env.engram, ...options });
  cleanup.push(() => memory.close());
  const turns = async (userId: string) =>
    (await env.engram.memories.list({ userId, kinds: ["message"], order: "asc" })).map((m) => [
      m.role,
      m.text,
    ]);
  return { engram: env.engram, memory, turns };
}

const SYSTEM = "You are a helpful assistant. Be brief.";
const ask = (text: string) => ({ messages: [{ role: "user" as const, content: text }] });

describe("engramAgentMiddleware in a langchain v1 agent", () => {
  it("recalls the first conversation in the second one, after the caller's system prompt", async () => {
    const { memory, turns } = await setup();
    const model = fakeModel()
      .respond(new AIMessage("Biscuit is a lovely name for a beagle."))
      .respond(new AIMessage("Your dog is called Biscuit."));
    const agent = createAgent({ model, tools: [], systemPrompt: SYSTEM, middleware: [memory] });
    await agent.invoke(ask("I just adopted a beagle called Biscuit."), { context: { userId: "ada" } });
    const result = await agent.invoke(ask("What is my dog called?"), { context: { userId: "ada" } });
    expect(result.messages.at(-1)?.text).toBe("Your dog is called Biscuit.");
    const system = model.calls[1]?.messages[0];
    expect(SystemMessage.isInstance(system)).toBe(true);
    expect(system?.text.startsWith(`${SYSTEM}\n\n<memory>`)).toBe(true);
    expect(system?.text).toContain("I just adopted a beagle called Biscuit.");
    await memory.flush();
    expect(await turns("ada")).toEqual([
      ["user", "I just adopted a beagle called Biscuit."],
      ["assistant", "Biscuit is a lovely name for a beagle."],
      ["user", "What is my dog called?"],
      ["assistant", "Your dog is called Biscuit."],
    ]);
  });

  it("leaves the turns the agent already sends out of the recent conversation, and keeps older ones", async () => {
    const { engram, memory } = await setup();
    await engram.add({ userId: "ada", messages: [{ role: "user", content: "I live in Lisbon." }] });
    const model = fakeModel()
      .respond(new AIMessage("Biscuit is a lovely name for a beagle."))
      .respond(new AIMessage("Kibble and walks."));
    const agent = createAgent({ model, tools: [], systemPrompt: SYSTEM, middleware: [memory] });
    const adopted = "I just adopted a beagle called Biscuit.";
    await agent.invoke(ask(adopted), { context: { userId: "ada" } });
    await memory.flush();
    const messages = [
      { role: "user" as const, content: adopted },
      { role: "assistant" as const, content: "Biscuit is a lovely name for a beagle." },
      { role: "user" as const, content: "What does he need every day?" },
    ];
    await agent.invoke({ messages }, { context: { userId: "ada" } });
    const recent = model.calls[1]?.messages[0]?.text.split("## Recent conversation")[1] ?? "";
    expect(recent).toContain("I live in Lisbon.");
    expect(recent).not.toContain("Biscuit");
  });

  it("fails without a user id with a ScopeError and writes nothing", async () => {
    const { engram, memory } = await setup();
    const model = fakeModel().respond(new AIMessage("never"));
    const agent = createAgent({ model, tools: [], middleware: [memory] });
    const error = await agent.invoke(ask("Hello")).catch((e: unknown) => e);
    const cause = EngramError.isInstance(error) ? error : (error as { cause?: unknown }).cause;
    expect(cause).toBeInstanceOf(ScopeError);
    expect(model.calls).toHaveLength(0);
    expect(await engram.users()).toEqual([]);
  });

  it("answers even when writing the turn back fails, and reports the failure", async () => {
    const env = await tempEngram();
    cleanup.push(env.dispose);
    const failing = Object.create(env.engram, {
      add: { value: () => Promise.reject(new Error("SQLITE_FULL: database or disk is full")) },
    }) as typeof env.engram;
    const errors: unknown[] = [];
    const memory = engramAgentMiddleware({
      engram: failing,
      userId: "ada",
      writeBehind: { maxAttempts: 2, retryDelayMs: () => 1 },
      onError: (error) => errors.push(error),
    });
    cleanup.push(() => memory.close());
    const model = fakeModel().respond(new AIMessage("Sure."));
    const agent = createAgent({ model, tools: [], middleware: [memory] });
    const result = await agent.invoke(ask("Remember my gate code 2468."));
    expect(result.messages.at(-1)?.text).toBe("Sure.");
    await memory.flush();
    expect(errors).toHaveLength(2);
  });

  it("keeps two users apart", async () => {
    const { memory } = await setup();
    const model = fakeModel()
      .respond(new AIMessage("Noted."))
      .respond(new AIMessage("Noted."))
      .respond(new AIMessage("Walrus."));
    const agent = createAgent({ model, tools: [], middleware: [memory] });
    await agent.invoke(ask("My code word is pelican."), { context: { userId: "ada" } });
    await agent.invoke(ask("My code word is walrus."), { context: { userId: "bob" } });
    await agent.invoke(ask("What is my code word?"), { context: { userId: "bob" } });
    expect(shown(model.calls[2]?.messages)).toContain("walrus");
    expect(shown(model.calls[2]?.messages)).not.toContain("pelican");
  });

  it("writes one turn per invocation of a tool-calling agent, with tool results summarised on request", async () => {
    const { memory, turns } = await setup({ toolResults: "summarize" });
    const weather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
      name: "weather",
      description: "Weather for a city",
      schema: z.object({ city: z.string() }),
    });
    const model = fakeModel()
      .respond(
        new AIMessage({ content: "", tool_calls: [{ name: "weather", args: { city: "Lisbon" }, id: "c1" }] }),
      )
      .respond(new AIMessage("It is sunny in Lisbon."));
    const agent = createAgent({ model, tools: [weather], middleware: [memory] });
    await agent.invoke(ask("Weather in Lisbon?"), { context: { userId: "ada", sessionId: "trip" } });
    await memory.flush();
    expect(await turns("ada")).toEqual([
      ["user", "Weather in Lisbon?"],
      ["assistant", '[tool weather({"city":"Lisbon"}) -> sunny in Lisbon]\nIt is sunny in Lisbon.'],
    ]);
  });
});
