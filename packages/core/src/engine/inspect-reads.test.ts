import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NotFoundError, ValidationError } from "../errors/index.js";
import { sequentialIds } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

// The reads an inspector needs: a memory's edges, segments with their heat, a user's jobs.
let dir: string;
let engram: Engram;
let t: number;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-inspect-"));
  t = Date.parse("2026-04-01T00:00:00.000Z");
  engram = await createEngram({
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    policy: { shortTermCapacity: 1, evictionBatch: 1 },
    clock: () => {
      t += 60_000;
      return new Date(t);
    },
    ids: sequentialIds(),
  });
  for (const [i, text] of [
    "I live in Lisbon",
    "I love sailing on weekends",
    "I work at Freightly",
  ].entries()) {
    await engram.add({
      userId: "u1",
      sessionId: `s${i}`,
      messages: [
        { role: "user", content: text },
        { role: "assistant", content: "Noted." },
      ],
    });
  }
});
afterEach(async () => {
  await engram.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("inspector reads", () => {
  it("lists queued jobs, then none queued once flushed", async () => {
    const queued = await engram.jobs({ userId: "u1", status: "queued" });
    expect(queued.map((j) => j.type)).toContain("tiers");
    expect(queued[0]).toMatchObject({ userId: "u1", attempts: 0, lastError: null });
    await engram.flush();
    expect(await engram.jobs({ userId: "u1", status: "queued" })).toEqual([]);
    expect(await engram.jobs({ userId: "nobody" })).toEqual([]);
    await expect(engram.jobs({ userId: "u1", status: "lost" as never })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it("gives segments hottest first with heat as the sum of its parts, and a memory's edges both ways", async () => {
    await engram.flush();
    const segments = await engram.memories.segments({ userId: "u1" });
    expect(segments.length).toBeGreaterThan(0);
    for (const s of segments) {
      expect(s.memory.kind).toBe("segment");
      expect(s.heat).toBeCloseTo(s.parts.visits + s.parts.pages + s.parts.recency);
      expect(s.recency).toBeGreaterThan(0);
      expect(s.recency).toBeLessThanOrEqual(1);
    }
    const heats = segments.map((s) => s.heat);
    expect(heats).toEqual([...heats].sort((a, b) => b - a));
    const segment = segments[0]?.memory.id as string;
    const edges = await engram.memories.edges({ userId: "u1", id: segment });
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.every((e) => e.to === segment && e.type === "part_of")).toBe(true);
    const member = edges[0]?.from as string;
    const out = await engram.memories.edges({ userId: "u1", id: member });
    expect(out).toContainEqual(expect.objectContaining({ from: member, to: segment, type: "part_of" }));
    await expect(engram.memories.edges({ userId: "u2", id: segment })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("retrieves without counting visits when asked to only look", async () => {
    await engram.flush();
    const look = await engram.retrieve({ userId: "u1", query: "sailing on weekends", recordVisits: false });
    expect(look.context.tokens).toBeGreaterThan(0);
    await engram.flush();
    const before = (await engram.memories.segments({ userId: "u1" })).map((s) => s.state.visits);
    await engram.retrieve({ userId: "u1", query: "sailing on weekends", recordVisits: false });
    await engram.flush();
    expect((await engram.memories.segments({ userId: "u1" })).map((s) => s.state.visits)).toEqual(before);
    await engram.retrieve({ userId: "u1", query: "sailing on weekends" });
    await engram.flush();
    const after = (await engram.memories.segments({ userId: "u1" })).map((s) => s.state.visits);
    expect(after.reduce((a, b) => a + b, 0)).toBeGreaterThan(before.reduce((a, b) => a + b, 0));
  });
});
