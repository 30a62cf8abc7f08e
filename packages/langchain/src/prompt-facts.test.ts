import { afterEach, describe, expect, it } from "vitest";
import { EngramMemory } from "./index.js";
import { tempEngram } from "./test-support/temp-engram.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe("a fact stated through EngramMemory", () => {
  it("is current once the memory and the engine are flushed, and the next recall shows it", async () => {
    const env = await tempEngram();
    cleanup.push(env.dispose);
    const memory = new EngramMemory({ engram: env.engram, userId: "cy", sessionId: "s1" });
    cleanup.push(() => memory.close());
    await memory.saveContext({ input: "I moved to Porto last month." }, { output: "Porto is lovely!" });
    await memory.flush();
    await env.engram.flush();
    expect(await env.engram.profile({ userId: "cy" })).toContainEqual(
      expect.objectContaining({ key: "lives_in", value: "Porto" }),
    );
    const loaded = await memory.loadMemoryVariables({ input: "Where do I live now?" });
    expect(String(loaded.memory)).toContain("Porto");
    const { profile } = await env.engram.retrieve({ userId: "cy", query: "Where do I live now?" });
    expect(profile).toContainEqual(expect.objectContaining({ key: "lives_in", value: "Porto" }));
  });
});
