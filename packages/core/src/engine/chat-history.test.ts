import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PASSAGE_CHARS } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

// Small chat histories of the kind assistants keep: long answers with lists, many sessions on unrelated
// tasks, preferences said in passing, values that change; each test knows where its answer is.

const open: { engram: Engram; dir: string }[] = [];
afterEach(async () => {
  for (const { engram, dir } of open.splice(0)) {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** An engine whose "now" the test moves, as a session's or a question's date. */
async function chatEngram(): Promise<{ engram: Engram; at: (iso: string) => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-chat-"));
  let now = "2026-01-01T00:00:00Z";
  const engram = await createEngram({
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    background: false,
    clock: () => new Date(now),
  });
  open.push({ engram, dir });
  const at = (iso: string) => {
    now = iso;
  };
  return { engram, at };
}

/** A long assistant answer: a numbered list of generic advice with `middle` as one of its items. */
function longAnswer(topic: string, middle: string): string {
  const items = Array.from(
    { length: 12 },
    (_, i) =>
      `${i + 1}. **${topic} point ${i + 1}**: consider the general advice about ${topic} that applies to most people, ` +
      "planning ahead, keeping notes, and asking a friend for a second opinion before deciding anything.",
  );
  items.splice(6, 0, `7. **The key detail**: ${middle}`);
  return `Here is a detailed answer about ${topic}:\n\n${items.join("\n\n")}\n\nI hope this helps!`;
}

/** Sessions of filler on unrelated tasks, each a user question and a long assistant answer. */
async function filler(engram: Engram, at: (iso: string) => void, userId: string, from: number, days: number) {
  const topics = ["tax forms", "router setup", "sourdough", "spreadsheet formulas", "marathon training"];
  for (let d = 0; d < days; d++) {
    const date = new Date(Date.UTC(2026, 0, from + d, 10)).toISOString();
    at(date);
    const topic = topics[d % topics.length] as string;
    await engram.add({
      userId,
      sessionId: `filler-${from + d}`,
      messages: [
        { role: "user", content: `Can you help me with ${topic}?`, at: date },
        { role: "assistant", content: longAnswer(topic, `nothing special about ${topic}.`), at: date },
      ],
    });
  }
}

describe("long turns are searched and shown by their passages", () => {
  it("finds a long answer by the passage in its middle, and shows that passage with its cut, role and date", async () => {
    const { engram, at } = await chatEngram();
    await filler(engram, at, "u", 1, 6);
    at("2026-01-10T10:00:00Z");
    const answer = longAnswer(
      "the dungeon adventure",
      "the party will face four mummies in the sunken temple, guarding the obsidian idol.",
    );
    expect(answer.length).toBeGreaterThan(5 * PASSAGE_CHARS);
    await engram.add({
      userId: "u",
      sessionId: "quest",
      messages: [
        {
          role: "user",
          content: "Write the next part of our dungeon adventure.",
          at: "2026-01-10T10:00:00Z",
        },
        { role: "assistant", content: answer, at: "2026-01-10T10:00:05Z" },
      ],
    });
    at("2026-02-01T10:00:00Z");
    const query = "Remind me how many mummies the party will face in the temple?";
    const [best] = await engram.search({ userId: "u", query, kinds: ["message"] });
    expect(best?.text).toBe(answer);
    expect(best?.passage?.text).toContain("four mummies");
    expect(best?.passage?.text.length).toBeLessThanOrEqual(PASSAGE_CHARS);

    const { text, context } = await engram.retrieve({ userId: "u", query, budgetTokens: 400 });
    expect(text).toContain("four mummies in the sunken temple");
    // The passage, cut visibly on both sides (an ellipsis, "..." once sanitised), under its day with its
    // speaker; never the whole answer.
    expect(text).toMatch(/\[2026-01-10\]\n(- .*\n)*- assistant: \.\.\.[^\n]*four mummies[^\n]*\.\.\./);
    expect(text).not.toContain("the dungeon adventure point 12");
    expect(context.tokens).toBeLessThanOrEqual(400);
  });

  it("rebuilds a turn's passages when its text is edited, and deletes them with it", async () => {
    const { engram, at } = await chatEngram();
    at("2026-01-05T10:00:00Z");
    const { ids } = await engram.add({
      userId: "u",
      messages: [{ role: "assistant", content: longAnswer("gardening", "plant the zucchini in March.") }],
    });
    const id = ids[0] as string;
    const passages = (await engram.stats({ userId: "u" })).byKind.passage ?? 0;
    expect(passages).toBeGreaterThan(3);
    await engram.memories.update({
      userId: "u",
      id,
      text: longAnswer("gardening", "plant the pumpkins in April."),
    });
    const [hit] = await engram.search({ userId: "u", query: "when to plant pumpkins", kinds: ["message"] });
    expect(hit?.passage?.text).toContain("pumpkins in April");
    expect(
      await engram.search({ userId: "u", query: "zucchini", kinds: ["message"], channels: ["fulltext"] }),
    ).toEqual([]);
    // Its dates follow the new text too.
    expect((await engram.memories.get({ userId: "u", id })).metadata.times).toEqual([
      { text: "April", date: "2026-04" },
    ]);
    // Passages are parts of their turn: listed only when asked for, edited and deleted through it.
    expect((await engram.memories.list({ userId: "u" })).map((m) => m.kind)).toEqual(["message"]);
    const [passage] = await engram.memories.list({ userId: "u", kinds: ["passage"] });
    await expect(engram.memories.delete({ userId: "u", id: passage?.id as string })).rejects.toThrow(
      /is a passage of/,
    );
    await engram.memories.delete({ userId: "u", id });
    expect((await engram.stats({ userId: "u" })).byKind).toEqual({});
  });
});

describe("a context that spends its budget by value", () => {
  it("gives the recent conversation at most a share of the budget, and leaves out the turns the caller sends", async () => {
    const { engram, at } = await chatEngram();
    at("2026-01-03T09:00:00Z");
    await engram.add({
      userId: "u",
      sessionId: "old",
      messages: [{ role: "user", content: "My bike is a blue Trek Emonda that I bought in Lyon." }],
    });
    at("2026-03-01T12:00:00Z");
    const today = Array.from({ length: 6 }, (_, i) => ({
      role: (i % 2 ? "assistant" : "user") as "assistant" | "user",
      content: `Talking about spreadsheet formulas, part ${i}: ${"VLOOKUP and INDEX MATCH details. ".repeat(12)}`,
    }));
    await engram.add({ userId: "u", sessionId: "today", messages: today });
    at("2026-03-01T12:05:00Z");
    const query = "What bike do I have?";
    const shared = await engram.retrieve({ userId: "u", query, budgetTokens: 600 });
    expect(shared.text).toContain("blue Trek Emonda");
    const recent = shared.text.slice(shared.text.indexOf("## Recent conversation"));
    expect(shared.text).toContain("## Recent conversation");
    // A quarter of 600 tokens at most: about 600 characters of recent turns.
    expect(recent.length).toBeLessThan(900);
    const conversation = today.map((t) => t.content);
    const sent = await engram.retrieve({ userId: "u", query, budgetTokens: 600, conversation });
    expect(sent.text).not.toContain("## Recent conversation");
    expect(sent.context.recent).toEqual([]);
    expect(sent.text).toContain("blue Trek Emonda");
  });

  it("takes the best-ranked turns first, a long one cut to its passage rather than skipped", async () => {
    const { engram, at } = await chatEngram();
    at("2026-01-02T10:00:00Z");
    await engram.add({
      userId: "u",
      sessionId: "s1",
      messages: [
        {
          role: "assistant",
          content: longAnswer("the wedding toast", "mention the canoe trip on Lake Bled where they met."),
        },
      ],
    });
    at("2026-01-03T10:00:00Z");
    await engram.add({
      userId: "u",
      sessionId: "s2",
      messages: [{ role: "user", content: "The wedding is in June, by a lake." }],
    });
    at("2026-01-20T10:00:00Z");
    const { text } = await engram.retrieve({
      userId: "u",
      query: "Remind me what you said about the canoe trip on Lake Bled for the wedding toast?",
      budgetTokens: 250,
    });
    expect(text).toContain("canoe trip on Lake Bled");
  });
});

describe("preferences said in passing", () => {
  it("brings forward what the user said they like or avoid when they ask for suggestions", async () => {
    const { engram, at } = await chatEngram();
    const dinnerAdvice = (day: number) => [
      { role: "user" as const, content: "What is a good weeknight dinner?" },
      {
        role: "assistant" as const,
        content: longAnswer(
          "cooking dinner",
          `cook a one-pan dinner tonight, recipe ${day}, and cook extra for lunch.`,
        ),
      },
    ];
    for (const day of [1, 2, 3]) {
      at(`2026-01-0${day}T19:00:00Z`);
      await engram.add({ userId: "u", sessionId: `dinner-${day}`, messages: dinnerAdvice(day) });
    }
    at("2026-01-06T19:00:00Z");
    await engram.add({
      userId: "u",
      sessionId: "movies",
      messages: [
        {
          role: "user",
          content: "When I cook I stay away from shellfish, I'm allergic, but I love spicy Thai curries.",
        },
        { role: "assistant", content: longAnswer("movie night", "a comedy is a good pick for a Friday.") },
      ],
    });
    for (const day of [7, 8]) {
      at(`2026-01-0${day}T19:00:00Z`);
      await engram.add({ userId: "u", sessionId: `dinner-${day}`, messages: dinnerAdvice(day) });
    }
    at("2026-02-01T18:00:00Z");
    const { text } = await engram.retrieve({
      userId: "u",
      query: "Any suggestions for what I should cook tonight?",
      budgetTokens: 250,
    });
    expect(text).toContain("allergic");
  });
});

describe("time", () => {
  it("reads a month said as a plan as the one to come, and a weekday said of the past as the one gone by", async () => {
    const { engram, at } = await chatEngram();
    at("2026-02-11T14:00:00Z");
    const { memories } = await engram.add({
      userId: "u",
      messages: [
        { role: "user", content: "We're moving the trip to September." },
        { role: "user", content: "I went hiking on Saturday." },
      ],
    });
    expect(memories.map((m) => m.metadata.times)).toEqual([
      [{ text: "September", date: "2026-09" }],
      [{ text: "on Saturday", date: "2026-02-07" }],
    ]);
  });

  it("shows the date of every retrieved turn, and resolves the question's own dates against now", async () => {
    const { engram, at } = await chatEngram();
    for (const [day, what] of [
      ["2026-01-04", "I watched the Super Bowl with my cousins."],
      ["2026-01-18", "I watched the Super Bowl highlights again today."],
    ] as const) {
      at(`${day}T20:00:00Z`);
      await engram.add({ userId: "u", sessionId: day, messages: [{ role: "user", content: what }] });
    }
    await filler(engram, at, "u", 20, 3);
    at("2026-02-01T09:00:00Z");
    const { text } = await engram.retrieve({
      userId: "u",
      query: "How many days ago did I watch the Super Bowl?",
    });
    expect(text).toMatch(/\[2026-01-04\]\n- user: I watched the Super Bowl with my cousins/);
    expect(text).toMatch(/\[2026-01-18\]\n- user: I watched the Super Bowl highlights/);
    // "two weeks ago" from 1 February is mid-January: the turn said then is found first.
    const [first] = await engram.search({
      userId: "u",
      query: "What did I watch two weeks ago?",
      kinds: ["message"],
    });
    expect(first?.text).toContain("highlights again today");
  });
});

describe("knowledge updates", () => {
  it("ranks the later statement of a changed value first, and shows both with their dates", async () => {
    const { engram, at } = await chatEngram();
    at("2026-01-10T08:00:00Z");
    await engram.add({
      userId: "u",
      sessionId: "jan",
      messages: [{ role: "user", content: "I run my 5k in 27 minutes at the park most mornings." }],
    });
    await filler(engram, at, "u", 11, 3);
    at("2026-03-02T08:00:00Z");
    await engram.add({
      userId: "u",
      sessionId: "mar",
      messages: [{ role: "user", content: "Good news: I now run my 5k in 24 minutes at the park." }],
    });
    at("2026-03-20T08:00:00Z");
    const query = "What is my 5k time at the park?";
    const hits = await engram.search({ userId: "u", query, kinds: ["message"] });
    expect(hits.slice(0, 2).map((h) => h.text)).toEqual([
      "Good news: I now run my 5k in 24 minutes at the park.",
      "I run my 5k in 27 minutes at the park most mornings.",
    ]);
    const { text } = await engram.retrieve({ userId: "u", query });
    expect(text).toMatch(/\[2026-01-10\]\n- user: I run my 5k in 27 minutes/);
    expect(text).toMatch(/\[2026-03-02\]\n- user: Good news: I now run my 5k in 24 minutes/);
  });
});
