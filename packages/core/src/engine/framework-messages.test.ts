import type { ModelMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";
import { partsText } from "./framework-messages.js";

let engram: Engram | undefined;
afterEach(async () => {
  await engram?.close();
  engram = undefined;
});

async function open(): Promise<Engram> {
  engram = await createEngram({ path: ":memory:", embedder: null, tiers: false, background: false });
  return engram;
}

describe("add takes AI SDK messages", () => {
  it("stores the text of ModelMessage parts, a line per tool call and result", async () => {
    const e = await open();
    const messages: ModelMessage[] = [
      { role: "system", content: "You are a travel assistant." },
      {
        role: "user",
        content: [
          { type: "text", text: "Book me a room in Porto " },
          { type: "text", text: "for the marathon." },
          { type: "image", image: new URL("https://example.com/map.png") },
        ],
        providerOptions: { openai: { user: "u1" } },
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "I should search hotels." },
          { type: "text", text: "Searching hotels near the start line." },
          { type: "tool-call", toolCallId: "c1", toolName: "searchHotels", input: { city: "Porto" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "searchHotels",
            output: { type: "json", value: { hotel: "Casa do Rio" } },
          },
        ],
      },
      { role: "assistant", content: "Casa do Rio has a room on the 3rd." },
    ];
    const { ids } = await e.add({ userId: "u1", messages });
    const stored = await Promise.all(ids.map((id) => e.memories.get({ userId: "u1", id })));
    expect(stored.map((m) => [m.role, m.text])).toEqual([
      ["system", "You are a travel assistant."],
      ["user", "Book me a room in Porto for the marathon."],
      ["assistant", "Searching hotels near the start line.\n[calls searchHotels]"],
      ["tool", '{"hotel":"Casa do Rio"}'],
      ["assistant", "Casa do Rio has a room on the 3rd."],
    ]);
    expect((await e.search({ userId: "u1", query: "Porto marathon room" }))[0]?.text).toBe(
      "Book me a room in Porto for the marathon.",
    );
  });

  it("refuses a message whose parts hold no text, naming it", async () => {
    const e = await open();
    const onlyImage: ModelMessage = {
      role: "user",
      content: [{ type: "image", image: new URL("https://x.y/z.png") }],
    };
    const added = e.add({ userId: "u1", messages: [onlyImage] });
    await expect(added).rejects.toBeInstanceOf(ValidationError);
    await expect(added).rejects.toThrow("add: messages.0.content: content must not be empty");
  });

  it("partsText keeps text parts together and tool lines apart", () => {
    expect(
      partsText([
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ]),
    ).toBe("ab");
    expect(partsText([{ type: "tool-result", output: { type: "text", value: "sunny" } }])).toBe("sunny");
    expect(
      partsText([{ type: "tool-result", output: { type: "content", value: [{ type: "text", text: "x" }] } }]),
    ).toBe("x");
    expect(partsText([{ type: "file", data: "..." }, null, 3])).toBe("");
  });
});
