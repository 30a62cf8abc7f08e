import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkedEmbedder, type Embedder } from "../ai/index.js";
import { ModelError } from "../errors/index.js";
import { type EngramEvent, sequentialIds } from "../model/index.js";
import { storageOf } from "../testing.js";
import { createEngram } from "./create-engram.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A unit vector of `n` dimensions from a text: a well-behaved answer. */
const good = (text: string, n = 8) => {
  const v = new Float32Array(n);
  for (const [i, ch] of [...text].entries()) {
    const at = (ch.charCodeAt(0) + i) % n;
    v[at] = (v[at] ?? 0) + 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
};

/** An embedder that answers well, then (from its `from`-th call) with what `bad` makes. */
function faulty(bad: (texts: readonly string[]) => unknown, from = 1): Embedder {
  let calls = 0;
  return {
    id: "test/faulty",
    async embed(texts) {
      calls++;
      return (calls >= from ? bad(texts) : texts.map((t) => good(t))) as Float32Array[];
    },
  };
}

const FAULTS: [string, (texts: readonly string[]) => unknown, RegExp][] = [
  [
    "NaN values",
    (t) => t.map(() => new Float32Array(8).fill(Number.NaN)),
    /not a finite number \(NaN\) at 0/,
  ],
  [
    "infinite values",
    (t) => t.map(() => Float32Array.from({ length: 8 }, (_, i) => (i ? 0 : Infinity))),
    /not a finite number \(Infinity\)/,
  ],
  ["empty vectors", (t) => t.map(() => new Float32Array(0)), /an empty vector/],
  ["plain arrays", (t) => t.map((x) => Array.from(good(x))), /not a Float32Array \(\[object Array\]\)/],
  ["too few vectors", (t) => t.slice(1).map((x) => good(x)), /returned \d+ vectors for \d+ texts/],
];

async function engine(embedder: Embedder) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-embedder-faults-"));
  const events: EngramEvent[] = [];
  const engram = await createEngram({
    path: path.join(dir, "engram.db"),
    embedder,
    background: false,
    tiers: false,
    logger: false,
    ids: sequentialIds(),
    onEvent: (e) => events.push(e),
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { engram, events };
}

const u1 = { userId: "u1" };
const turn = (content: string) => ({ ...u1, messages: [{ role: "user" as const, content }] });

describe("an embedder that answers badly never corrupts the store", () => {
  it.each(FAULTS)(
    "%s: the write is stored without vectors, reported, retried; queries fall back to full text",
    async (_, bad, why) => {
      const { engram, events } = await engine(faulty(bad));
      const added = await engram.add(turn("The plumber comes on Thursday"));
      expect(added.status).toBe("pending");
      expect((await engram.stats(u1)).vectors).toBe(0);
      const reported = events.filter((e) => e.type === "embedder.unavailable");
      expect(reported[0]).toMatchObject({ fallback: "pending", error: expect.stringMatching(why) });
      // Found by full text, the query's bad vector reported and not used.
      const found = await engram.search({ ...u1, query: "plumber Thursday" });
      expect(found.map((r) => r.id)).toEqual(added.ids);
      expect(events.filter((e) => e.type === "embedder.unavailable").map((e) => e.fallback)).toEqual([
        "pending",
        "fulltext",
      ]);
      // The embed job fails the same way and is retried, with the reason on the job.
      const report = await engram.flush();
      expect(report.retried).toBe(1);
      expect(report.errors[0]?.error).toMatch(why);
      expect((await storageOf(engram).getVectors(u1, added.ids)).size).toBe(0);
    },
  );

  it("a change of dimensions within one engine is refused, and the vectors already stored stay", async () => {
    const { engram } = await engine(faulty((t) => t.map((x) => good(x, 16)), 2));
    const first = await engram.add(turn("The ferry leaves at nine"));
    expect(first.status).toBe("ready");
    const second = await engram.add(turn("The harbour closes on Sundays"));
    expect(second.status).toBe("pending");
    expect([...(await storageOf(engram).getVectors(u1, [...first.ids, ...second.ids])).keys()]).toEqual(
      first.ids,
    );
    expect((await engram.memories.list(u1)).map((m) => m.text).sort()).toEqual([
      "The ferry leaves at nine",
      "The harbour closes on Sundays",
    ]);
  });

  it("a zero vector (what a blank text gets) is allowed: it matches nothing and harms nothing", async () => {
    const { engram } = await engine(faulty((t) => t.map(() => new Float32Array(8))));
    const added = await engram.add(turn("The plumber comes on Thursday"));
    expect(added.status).toBe("ready");
    expect((await engram.search({ ...u1, query: "plumber" })).map((r) => r.id)).toEqual(added.ids);
  });

  it("checkedEmbedder passes good answers through unchanged", async () => {
    const inner = faulty(() => null, 99);
    const vectors = await checkedEmbedder(inner).embed(["a", "b"]);
    expect(vectors).toEqual([good("a"), good("b")]);
    await expect(checkedEmbedder(faulty(() => "nope")).embed(["a"])).rejects.toThrow(ModelError);
    await expect(checkedEmbedder(faulty(() => "nope")).embed(["a"])).rejects.toThrow(
      /returned no list of vectors for 1 texts/,
    );
  });
});
