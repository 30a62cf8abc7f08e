import type { Engram } from "@engram/core";
import {
  generateObject,
  generateText,
  Output,
  stepCountIs,
  streamObject,
  streamText,
  ToolLoopAgent,
  tool,
  wrapLanguageModel,
} from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type EngramMiddlewareOptions, engramMiddleware } from "./index.js";
import { scriptedModel, systemText, tempEngram } from "./test-support/scripted-model.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** An engine that counts its retrieve calls, and a middleware over it closed before the engine. */
async function setup(options: Partial<EngramMiddlewareOptions> = {}) {
  const env = await tempEngram();
  cleanup.push(env.dispose);
  await env.engram.add({
    userId: "ada",
    messages: [{ role: "user", content: "I live in Lisbon near the river." }],
  });
  const counted = { retrieves: 0 };
  const engram = Object.create(env.engram, {
    retrieve: {
      value: (input: Parameters<Engram["retrieve"]>[0]) => {
        counted.retrieves++;
        return env.engram.retrieve(input);
      },
    },
  }) as Engram;
  const memory = engramMiddleware({ engram, userId: "ada", ...options });
  cleanup.push(() => memory.close());
  const turns = async () =>
    (await env.engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" }))
      .slice(1)
      .map((m) => [m.role, m.text]);
  return { engram: env.engram, memory, counted, turns };
}

const weather = tool({
  description: "Weather for a city",
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, forecast: "sunny, 24 C" }),
});

const toolTurn = [
  { text: "Let me check the forecast.", toolCalls: [{ toolName: "weather", input: { city: "Lisbon" } }] },
  "It is sunny in Lisbon today.",
];

describe("engramMiddleware in multi-step tool runs", () => {
  it("recalls once, injects memory into every step, and writes one turn without the tool results", async () => {
    const { memory, counted, turns } = await setup();
    const { model, prompts } = scriptedModel(toolTurn);
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: memory }),
      tools: { weather },
      stopWhen: stepCountIs(3),
      prompt: "What is the weather where I live?",
    });
    expect(result.text).toBe("It is sunny in Lisbon today.");
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) expect(systemText(prompt)).toContain("I live in Lisbon near the river.");
    expect(counted.retrieves).toBe(1);
    await memory.flush();
    expect(await turns()).toEqual([
      ["user", "What is the weather where I live?"],
      ["assistant", "Let me check the forecast.\nIt is sunny in Lisbon today."],
    ]);
  });

  it("summarises tool calls into the remembered answer with toolResults: 'summarize'", async () => {
    const { memory, turns } = await setup({ toolResults: "summarize" });
    const { model } = scriptedModel(toolTurn);
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: memory }),
      tools: { weather },
      stopWhen: stepCountIs(3),
      prompt: "What is the weather where I live?",
    });
    await result.consumeStream();
    await memory.flush();
    expect(await turns()).toEqual([
      ["user", "What is the weather where I live?"],
      [
        "assistant",
        'Let me check the forecast.\n[tool weather({"city":"Lisbon"}) -> {"city":"Lisbon","forecast":"sunny, 24 C"}]\nIt is sunny in Lisbon today.',
      ],
    ]);
  });

  it("works inside a ToolLoopAgent", async () => {
    const { memory, turns } = await setup();
    const { model, prompts } = scriptedModel(toolTurn);
    const agent = new ToolLoopAgent({
      model: wrapLanguageModel({ model, middleware: memory }),
      instructions: "You are a weather assistant.",
      tools: { weather },
    });
    const result = await agent.generate({ prompt: "What is the weather where I live?" });
    expect(result.text).toBe("It is sunny in Lisbon today.");
    expect(prompts[1]?.[0]).toEqual({ role: "system", content: "You are a weather assistant." });
    expect(systemText(prompts[1])).toContain("I live in Lisbon near the river.");
    await memory.flush();
    expect((await turns()).map(([role]) => role)).toEqual(["user", "assistant"]);
  });

  it("writes nothing for a run that stops while calling tools", async () => {
    const { memory, turns } = await setup();
    const { model } = scriptedModel(toolTurn);
    await generateText({
      model: wrapLanguageModel({ model, middleware: memory }),
      tools: { weather },
      stopWhen: stepCountIs(1),
      prompt: "What is the weather where I live?",
    });
    await memory.flush();
    expect(await turns()).toEqual([]);
  });
});

describe("engramMiddleware with structured output", () => {
  const schema = z.object({ city: z.string(), country: z.string() });
  // generateObject and streamObject are deprecated in ai 7 but still shipped; keep the test output quiet.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

  it("works with generateText and Output.object", async () => {
    const { memory, turns } = await setup();
    const { model, prompts } = scriptedModel(['{"city":"Lisbon","country":"Portugal"}']);
    const { output } = await generateText({
      model: wrapLanguageModel({ model, middleware: memory }),
      output: Output.object({ schema }),
      prompt: "Which city and country do I live in?",
    });
    expect(output).toEqual({ city: "Lisbon", country: "Portugal" });
    expect(systemText(prompts[0])).toContain("I live in Lisbon near the river.");
    await memory.flush();
    expect((await turns())[1]).toEqual(["assistant", '{"city":"Lisbon","country":"Portugal"}']);
  });

  it("works with generateObject: memory in the prompt, the JSON answer remembered", async () => {
    const { memory, turns } = await setup();
    const { model, prompts } = scriptedModel(['{"city":"Lisbon","country":"Portugal"}']);
    const { object } = await generateObject({
      model: wrapLanguageModel({ model, middleware: memory }),
      schema,
      prompt: "Which city and country do I live in?",
    });
    expect(object).toEqual({ city: "Lisbon", country: "Portugal" });
    expect(systemText(prompts[0])).toContain("I live in Lisbon near the river.");
    await memory.flush();
    expect(await turns()).toEqual([
      ["user", "Which city and country do I live in?"],
      ["assistant", '{"city":"Lisbon","country":"Portugal"}'],
    ]);
  });

  it("works with streamObject", async () => {
    const { memory, turns } = await setup();
    const { model, prompts } = scriptedModel(['{"city": "Lisbon", "country": "Portugal"}']);
    const result = streamObject({
      model: wrapLanguageModel({ model, middleware: memory }),
      schema,
      prompt: "Which city and country do I live in?",
    });
    for await (const _partial of result.partialObjectStream) {
      // drain: the object resolves once the stream has been read
    }
    expect(await result.object).toEqual({ city: "Lisbon", country: "Portugal" });
    expect(systemText(prompts[0])).toContain("I live in Lisbon near the river.");
    await memory.flush();
    expect((await turns())[1]).toEqual(["assistant", '{"city": "Lisbon", "country": "Portugal"}']);
  });
});
