import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { describe, expect, it } from "vitest";
import { openAIModel, scriptedModel } from "./chat-model.js";
import { FIRST_SESSION, SECOND_SESSION, twoSessions } from "./two-sessions.js";

describe("the ai-sdk-middleware example", () => {
  it("recalls the first session in the second and stores both turns, the streamed answer complete", async () => {
    const dir = mkdtempSync(join(tmpdir(), "engram-example-"));
    const engram = await createEngram({ path: join(dir, "engram.db"), embedder: hashEmbeddingModel() });
    try {
      const replies = ["Nice to meet you, Ada!", "Your beagle is called Biscuit; avoid peanuts."];
      const { model, prompts } = scriptedModel(replies);
      const result = await twoSessions({ engram, model, userId: "ada" });
      expect(result).toEqual({ first: replies[0], second: replies[1] });
      const memory = prompts[1]?.find((m) => m.role === "system" && m.content.startsWith("<memory>"));
      expect(memory?.content).toContain(FIRST_SESSION);
      expect(prompts[1]?.[0]).toEqual({
        role: "system",
        content: "You are a friendly assistant. Answer in one or two sentences.",
      });
      const stored = await engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" });
      expect(stored.map((m) => [m.sessionId, m.role, m.text])).toEqual([
        ["monday", "user", FIRST_SESSION],
        ["monday", "assistant", replies[0]],
        ["friday", "user", SECOND_SESSION],
        ["friday", "assistant", replies[1]],
      ]);
    } finally {
      await engram.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("uses a real model only when the environment names one", () => {
    expect(openAIModel({})).toBeNull();
    expect(openAIModel({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })?.modelId).toBe("gpt-4o-mini");
  });
});
