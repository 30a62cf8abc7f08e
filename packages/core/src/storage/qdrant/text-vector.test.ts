import { describe, expect, it } from "vitest";
import { term } from "../text-terms.js";
import { documentVector, queryVector, termIndex } from "./text-vector.js";

function dot(a: { indices: number[]; values: number[] }, b: { indices: number[]; values: number[] }): number {
  const weights = new Map(b.indices.map((i, n) => [i, b.values[n] as number]));
  return a.indices.reduce((sum, i, n) => sum + (a.values[n] as number) * (weights.get(i) ?? 0), 0);
}

describe("term", () => {
  it("folds case-lowered diacritics and stems like FTS5's porter unicode61 tokenizer", () => {
    expect(term("zürich")).toBe("zurich");
    expect(term("kayaking")).toBe("kayak");
    expect(term("painted")).toBe("paint");
  });
});

describe("termIndex", () => {
  it("is a stable unsigned 32-bit FNV-1a hash", () => {
    expect(termIndex("")).toBe(0x811c9dc5);
    expect(termIndex("a")).toBe(0xe40c292c);
    expect(termIndex("kayak")).toBe(termIndex("kayak"));
    expect(termIndex("kayak")).toBeLessThan(2 ** 32);
  });
});

describe("documentVector", () => {
  it("has unique sorted indices, one per distinct term", () => {
    const v = documentVector("Harbour harbours HARBOUR boats", 10);
    expect(v.indices).toHaveLength(2);
    expect([...v.indices].sort((a, b) => a - b)).toEqual(v.indices);
  });

  it("weights a term by BM25's saturated frequency with length normalisation", () => {
    // tf = 1, dl = avgdl: (1 * 2.2) / (1 + 1.2) = 1.
    expect(documentVector("walrus tusk", 2).values).toEqual([1, 1]);
    const twice = documentVector("walrus walrus", 2);
    expect(twice.values[0]).toBeCloseTo((2 * 2.2) / (2 + 1.2), 10);
    // A longer document gives the same term less weight.
    const long = documentVector("walrus and a very long tail of other words", 2);
    const short = documentVector("walrus", 2);
    expect(dot(long, queryVector("walrus") ?? { indices: [], values: [] })).toBeLessThan(
      dot(short, queryVector("walrus") ?? { indices: [], values: [] }),
    );
  });
});

describe("queryVector", () => {
  it("drops stopwords, stems and deduplicates the query's words", () => {
    const q = queryVector("The kayaking and KAYAKS of the harbour?");
    expect(q?.indices).toHaveLength(2);
    expect(q?.values).toEqual([1, 1]);
  });

  it("matches a document through stemming and case", () => {
    const q = queryVector("Painting") ?? { indices: [], values: [] };
    expect(dot(documentVector("she painted the door", 4), q)).toBeGreaterThan(0);
  });

  it("is null when nothing searchable is left", () => {
    expect(queryVector("?! the ...")).toBeNull();
  });
});
