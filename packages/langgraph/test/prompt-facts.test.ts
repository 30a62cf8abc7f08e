import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { EngramGraphMemory } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "engram-langgraph-facts-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const config = { configurable: { thread_id: "t1", user_id: "bea" } };

describe("a fact stated through EngramGraphMemory", () => {
  it("is current once the engine is flushed, and the next recall shows it", async () => {
    // The tiers on (the default), as an application runs them: they turn stated facts into memory.
    const engram = await createEngram({
      path: join(dir, "engram.db"),
      embedder: hashEmbeddingModel(),
      background: false,
    });
    try {
      const memory = new EngramGraphMemory(engram);
      await memory.remember(
        [new HumanMessage("I moved to Porto last month."), new AIMessage("Porto is a lovely city!")],
        config,
      );
      await engram.flush();
      expect(await engram.profile({ userId: "bea" })).toContainEqual(
        expect.objectContaining({ key: "lives_in", value: "Porto" }),
      );
      const recalled = await memory.recall([new HumanMessage("Where do I live now?")], config);
      expect(recalled).toContain("Porto");
      const { profile } = await engram.retrieve({ userId: "bea", query: "Where do I live now?" });
      expect(profile).toContainEqual(expect.objectContaining({ key: "lives_in", value: "Porto" }));
    } finally {
      await engram.close();
    }
  });
});
