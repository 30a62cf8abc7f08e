import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { sequentialIds } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { storageOf } from "../testing.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

let engram: Engram | undefined;
afterEach(async () => {
  await engram?.close();
  engram = undefined;
});

const u1 = { userId: "u1" };

/** Turns about one trip, tagged by project and priority; one long enough to be stored with passages. */
async function tagged(): Promise<Engram> {
  engram = await createEngram({
    path: ":memory:",
    tiers: false,
    background: false,
    embedder: hashEmbeddingModel(),
    ids: sequentialIds(),
    clock: () => new Date("2026-05-01T12:00:00.000Z"),
  });
  const long = `The Lisbon trip budget: ${"flights, hotel near the river, tram passes and museum tickets; ".repeat(12)}`;
  await engram.add({
    ...u1,
    messages: [
      {
        role: "user",
        content: "The Lisbon trip is booked for June",
        metadata: { project: "travel", priority: 1 },
      },
      {
        role: "user",
        content: "The Lisbon office move is in July",
        metadata: { project: "work", priority: 3 },
      },
      { role: "user", content: "Lisbon dinner with Ana on Friday", metadata: { priority: 2 } },
      { role: "assistant", content: long, metadata: { project: "travel", priority: 5 } },
    ],
  });
  return engram;
}

const texts = (results: { memory: { text: string } }[]) =>
  results.map((r) => r.memory.text.slice(0, 30)).sort();

describe("search and retrieve take a metadata filter", () => {
  it("search returns only memories whose metadata passes, on every channel", async () => {
    const e = await tagged();
    for (const channels of [["fulltext"], ["vector"], ["fulltext", "vector"]] as const) {
      const travel = await e.search({
        ...u1,
        query: "Lisbon trip",
        filter: { project: "travel" },
        channels: [...channels],
      });
      expect(travel.every((r) => r.memory.metadata.project === "travel")).toBe(true);
      expect(travel.length).toBeGreaterThan(0);
    }
    expect(
      texts(await e.search({ ...u1, query: "Lisbon", filter: { priority: { $gte: 2, $lt: 5 } } })),
    ).toEqual(["Lisbon dinner with Ana on Frid", "The Lisbon office move is in J"]);
    expect(texts(await e.search({ ...u1, query: "Lisbon", filter: { project: { $ne: "travel" } } }))).toEqual(
      ["Lisbon dinner with Ana on Frid", "The Lisbon office move is in J"],
    );
    expect(await e.search({ ...u1, query: "Lisbon", filter: { project: { $in: ["home"] } } })).toEqual([]);
  });

  it("a long turn is found through its passages under a filter, and its passages follow a metadata edit", async () => {
    const e = await tagged();
    const found = await e.search({
      ...u1,
      query: "tram passes museum tickets",
      filter: { project: "travel" },
    });
    expect(found[0]?.memory.text).toMatch(/^The Lisbon trip budget/);
    const storage = storageOf(e);
    const passages = await storage.scan(u1, {
      filter: { kinds: ["passage"], metadata: { project: "travel" } },
    });
    expect(passages.length).toBeGreaterThan(1);

    const turn = found[0]?.memory;
    if (!turn) throw new Error("no turn");
    await e.memories.update({ ...u1, id: turn.id, metadata: { project: "archive" } });
    expect(await storage.count(u1, { kinds: ["passage"], metadata: { project: "travel" } })).toBe(0);
    expect(await storage.count(u1, { kinds: ["passage"], metadata: { project: "archive" } })).toBe(
      passages.length,
    );
    const moved = await e.search({
      ...u1,
      query: "tram passes museum tickets",
      filter: { project: "archive" },
    });
    expect(moved[0]?.id).toBe(turn.id);
  });

  it("retrieve shows only the turns that pass, found and recent", async () => {
    const e = await tagged();
    const context = await e.retrieve({
      ...u1,
      query: "When is the Lisbon trip?",
      filter: { project: "work" },
    });
    const shown = [...context.pages, ...context.recent].map((m) => ("memory" in m ? m.memory : m));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((m) => m.metadata.project === "work")).toBe(true);
    expect(context.text).toContain("office move");
    expect(context.text).not.toContain("booked for June");
  });

  it("a filter no backend would understand is refused by name", async () => {
    const e = await tagged();
    const bad = e.search({ ...u1, query: "Lisbon", filter: { priority: { $gt: "2" } } } as never);
    await expect(bad).rejects.toBeInstanceOf(ValidationError);
    await expect(bad).rejects.toThrow(
      "search: filter.priority.$gt: must be a finite number (ranges compare numbers); got string",
    );
    await expect(e.retrieve({ ...u1, query: "Lisbon", filter: { $or: [] } } as never)).rejects.toThrow(
      /retrieve: filter\.\$or: is not a field name/,
    );
  });
});
