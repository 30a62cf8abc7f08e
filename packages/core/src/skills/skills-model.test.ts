import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, expect, it } from "vitest";
import { createEngram, type Engram } from "../engine/index.js";
import { hashEmbeddingModel } from "../testing/index.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

function answer(value: unknown): LanguageModelV4GenerateResult {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  };
}

async function withModel(...answers: unknown[]): Promise<{ engram: Engram; model: MockLanguageModelV4 }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-skills-model-"));
  const model = new MockLanguageModelV4({ doGenerate: answers.map(answer) });
  const engram = await createEngram({
    tiers: false,
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    llm: model,
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { engram, model };
}

const skill = {
  name: "Book a restaurant table",
  trigger: "The user asks to reserve a table at a restaurant",
  steps: [
    { tool: "check_availability", args: { restaurant: "{restaurant}" }, note: "confirm a slot first" },
    { tool: "book_table", args: { restaurant: "{restaurant}" }, note: null },
  ],
  pitfalls: [],
};

const trace = (i: number) => ({
  userId: "ada",
  task: `Book a table at restaurant number ${i} tonight`,
  steps: [
    { tool: "check_availability", args: { restaurant: `R${i}` }, result: { free: true } },
    { tool: "book_table", args: { restaurant: `R${i}` }, result: "ok" },
  ],
});

it("distils with one structured call through the durable queue, retried once on unusable JSON", async () => {
  // The first answer is not JSON; the retry inside the call fixes it.
  const { engram, model } = await withModel("Sure! Here is the skill:", skill);
  for (let i = 0; i < 3; i++) await engram.traces.add(trace(i));
  expect((await engram.jobs({ userId: "ada", status: "queued" })).map((j) => j.type)).toEqual(["skills"]);
  await engram.flush();
  expect(model.doGenerateCalls).toHaveLength(2);
  expect(JSON.stringify(model.doGenerateCalls[0]?.prompt)).toContain("Trace 3 (success)");
  const [stored] = await engram.skills.list({ userId: "ada" });
  expect(stored).toMatchObject({ name: skill.name, trigger: skill.trigger, source: "model", version: 1 });
  expect(stored?.evidence).toHaveLength(3);
  // One more run with the same steps changes the counts, not the draft: no new model call.
  await engram.traces.add(trace(3));
  await engram.flush();
  expect(model.doGenerateCalls).toHaveLength(2);
  expect(await engram.skills.get({ userId: "ada", id: stored?.id as string })).toMatchObject({
    version: 2,
    successes: 4,
    name: skill.name,
  });
});

it("refuses a model skill that names a tool no trace used, and leaves the job to retry", async () => {
  const invented = { ...skill, steps: [{ tool: "teleport", args: {}, note: null }] };
  const { engram } = await withModel(invented, invented);
  for (let i = 0; i < 3; i++) await engram.traces.add(trace(i));
  await engram.flush();
  expect(await engram.skills.list({ userId: "ada" })).toEqual([]);
  const [job] = await engram.jobs({ userId: "ada" });
  expect(job?.lastError).toContain('unknown tool "teleport"');
});

it("revises a skill from feedback with one model call", async () => {
  const revised = { ...skill, pitfalls: ["Check availability before booking"] };
  const { engram, model } = await withModel(skill, revised);
  for (let i = 0; i < 3; i++) await engram.traces.add(trace(i));
  await engram.flush();
  const [stored] = await engram.skills.list({ userId: "ada" });
  const after = await engram.skills.feedback({
    userId: "ada",
    id: stored?.id as string,
    text: "check first",
  });
  expect(model.doGenerateCalls).toHaveLength(2);
  expect(after).toMatchObject({
    version: 2,
    source: "user",
    pitfalls: ["Check availability before booking"],
  });
});
