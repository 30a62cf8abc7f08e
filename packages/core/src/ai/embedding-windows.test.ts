import { describe, expect, it } from "vitest";
import { hashEmbeddingModel } from "../testing/index.js";
import { embedderFromModel } from "./embedder.js";
import { combineWindows, embeddingWindows } from "./embedding-windows.js";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

describe("embeddingWindows", () => {
  it("keeps a text within the window size whole", () => {
    expect(embeddingWindows("a short text", { windowChars: 100, maxWindows: 4 })).toEqual(["a short text"]);
  });

  it("cuts at white space, covers the whole text in order, and never exceeds the window", () => {
    const text = words(500);
    const windows = embeddingWindows(text, { windowChars: 200, maxWindows: 1000 });
    expect(windows.join("")).toBe(text);
    for (const w of windows) expect(w.length).toBeLessThanOrEqual(200);
    // Cut at a space: no window but the first starts inside a word.
    for (const w of windows.slice(1)) expect(w.startsWith(" ")).toBe(true);
  });

  it("keeps at most maxWindows, spread from the first to the last", () => {
    const text = words(5000);
    const all = embeddingWindows(text, { windowChars: 100, maxWindows: 10_000 });
    const kept = embeddingWindows(text, { windowChars: 100, maxWindows: 5 });
    expect(kept).toHaveLength(5);
    expect(kept[0]).toBe(all[0]);
    expect(kept.at(-1)).toBe(all.at(-1));
  });

  it("does not split a surrogate pair when a window has no white space", () => {
    const text = "😀".repeat(300);
    const windows = embeddingWindows(text, { windowChars: 101, maxWindows: 100 });
    expect(windows.join("")).toBe(text);
    for (const w of windows) expect(w.isWellFormed()).toBe(true);
  });
});

describe("combineWindows", () => {
  it("averages by length and returns a unit vector", () => {
    const v = combineWindows([Float32Array.of(1, 0), Float32Array.of(0, 1)], [3, 1]);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(v[0]).toBeCloseTo(3 / Math.hypot(3, 1), 6);
  });
});

describe("embedderFromModel with long texts", () => {
  it("gives the model bounded windows and returns one unit vector per text", async () => {
    const calls: string[][] = [];
    const embedder = embedderFromModel(hashEmbeddingModel({ onCall: (v) => void calls.push([...v]) }), {
      windowChars: 1000,
      maxWindows: 4,
    });
    const vectors = await embedder.embed(["short", words(20_000), "also short"]);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    const values = calls.flat();
    expect(values).toHaveLength(1 + 4 + 1);
    expect(Math.max(...values.map((v) => v.length))).toBeLessThanOrEqual(1000);
    expect(values[0]).toBe("short");
    expect(values.at(-1)).toBe("also short");
  });
});
