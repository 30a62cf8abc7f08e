import { describe, expect, it } from "vitest";
import { applyTimePrior, asksWhen, overlaps, queryTimeRange } from "./time-prior.js";

const now = new Date("2024-02-10T12:00:00Z");

describe("asksWhen", () => {
  it("recognises questions about a time", () => {
    for (const q of [
      "When did Caroline go to the support group?",
      "What year did she move?",
      "how long ago was it",
    ])
      expect(asksWhen(q)).toBe(true);
    for (const q of ["What did Caroline research?", "Where has Melanie camped?"])
      expect(asksWhen(q)).toBe(false);
  });
});

describe("queryTimeRange", () => {
  it("reads the span a query names, end exclusive", () => {
    expect(queryTimeRange("What did Melanie do in May 2023?", now)).toEqual({
      from: "2023-05-01",
      to: "2023-06-01",
    });
    expect(queryTimeRange("What happened in 2022?", now)).toEqual({ from: "2022-01-01", to: "2023-01-01" });
    expect(queryTimeRange("What did I do last month?", now)).toEqual({
      from: "2024-01-01",
      to: "2024-02-01",
    });
    expect(queryTimeRange("Where was I on 7 May 2023?", now)).toEqual({
      from: "2023-05-07",
      to: "2023-05-08",
    });
  });

  it("is null when the query names no time", () => {
    expect(queryTimeRange("Where has Melanie camped?", now)).toBeNull();
    expect(queryTimeRange("When did she paint a sunrise?", now)).toBeNull();
  });
});

describe("overlaps", () => {
  const may = { from: "2023-05-01", to: "2023-06-01" };
  it("compares dates of any precision with a span", () => {
    expect(overlaps("2023-05-07", may)).toBe(true);
    expect(overlaps("2023-05-31T23:00:00.000Z", may)).toBe(true);
    expect(overlaps("2023-06-01", may)).toBe(false);
    expect(overlaps("2023-05", may)).toBe(true);
    expect(overlaps("2023", may)).toBe(true);
    expect(overlaps("2022", may)).toBe(false);
    expect(overlaps("2023-04", may)).toBe(false);
  });
});

describe("applyTimePrior", () => {
  const hits = [
    { id: "paraphrase", score: 3, at: "2023-08-01T10:00:00Z", times: [] },
    {
      id: "dated",
      score: 2.5,
      at: "2023-05-08T10:00:00Z",
      times: [{ text: "yesterday", date: "2023-05-07" }],
    },
    { id: "may", score: 2, at: "2023-05-20T10:00:00Z", times: [] },
  ];
  const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
  const timed = (h: (typeof hits)[number]) => h;

  it("lifts a dated turn for a when-question, and nothing otherwise", () => {
    expect(ids(applyTimePrior(hits, "When did she go?", now, timed, { when: 1, range: 0 }))).toEqual([
      "dated",
      "paraphrase",
      "may",
    ]);
    expect(ids(applyTimePrior(hits, "Where did she go?", now, timed, { when: 1, range: 1 }))).toEqual(
      ids(hits),
    );
  });

  it("lifts turns said in, or mentioning, the span a query names", () => {
    const ranked = applyTimePrior(hits, "What did she do in May 2023?", now, timed, { when: 0, range: 2 });
    expect(ids(ranked)).toEqual(["dated", "may", "paraphrase"]);
    expect(ranked[0]?.score).toBe(4.5);
  });

  it("is off at strength 0", () => {
    expect(ids(applyTimePrior(hits, "When in May 2023?", now, timed, { when: 0, range: 0 }))).toEqual(
      ids(hits),
    );
  });
});
