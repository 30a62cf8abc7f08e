import { generateText, wrapLanguageModel } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { engramMiddleware } from "./index.js";
import { scriptedModel, tempEngram } from "./test-support/scripted-model.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe("a fact stated through the middleware", () => {
  it("is current once the middleware and the engine are flushed, and the next recall shows it", async () => {
    const env = await tempEngram();
    cleanup.push(env.dispose);
    const memory = engramMiddleware({ engram: env.engram, userId: "ada" });
    cleanup.push(() => memory.close());
    const { model, prompts } = scriptedModel(["Congratulations on the move!", "You live in Lisbon."]);
    const wrapped = wrapLanguageModel({ model, middleware: memory });
    await generateText({ model: wrapped, prompt: "I moved to Lisbon last month." });
    await memory.flush();
    await env.engram.flush();
    const profile = await env.engram.profile({ userId: "ada" });
    expect(profile).toContainEqual(expect.objectContaining({ key: "lives_in", value: "Lisbon" }));
    await generateText({ model: wrapped, prompt: "Where do I live?" });
    const recalled = (prompts[1] ?? []).filter((m) => m.role === "system").map((m) => String(m.content));
    expect(recalled.join("\n")).toMatch(/lives_in: Lisbon|lives in Lisbon|moved to Lisbon/i);
    const { profile: shown } = await env.engram.retrieve({ userId: "ada", query: "Where do I live?" });
    expect(shown).toContainEqual(expect.objectContaining({ key: "lives_in", value: "Lisbon" }));
  });
});
