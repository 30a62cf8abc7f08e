import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { tempEngram } from "./test-support/temp-engram.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe("engram.add takes LangChain messages as they are", () => {
  it("reads each message's type as its role and its text as the content", async () => {
    const env = await tempEngram();
    cleanup.push(env.dispose);
    const { ids } = await env.engram.add({
      userId: "u1",
      messages: [
        new SystemMessage("You plan trips."),
        new HumanMessage({ content: "I want to run the Porto marathon", name: "Ana" }),
        new AIMessage({ content: [{ type: "text", text: "Porto is flat and fast." }] }),
        new ToolMessage({ content: "race day: 2 November", tool_call_id: "c1" }),
      ],
    });
    const stored = await Promise.all(ids.map((id) => env.engram.memories.get({ userId: "u1", id })));
    expect(stored.map((m) => [m.role, m.name, m.text])).toEqual([
      ["system", null, "You plan trips."],
      ["user", "Ana", "I want to run the Porto marathon"],
      ["assistant", null, "Porto is flat and fast."],
      ["tool", null, "race day: 2 November"],
    ]);
  });
});
