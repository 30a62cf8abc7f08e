import { describe, expect, it } from "vitest";
import { decideFact, type FactDecision, type IncomingFact, type StoredFactView } from "./decide-fact.js";

const MAY = "2026-05-01T00:00:00.000Z";
const JUNE = "2026-06-01T00:00:00.000Z";
const JULY = "2026-07-01T00:00:00.000Z";

const current = (value: string, validFrom: string | null = JUNE, evidence = ["t1"]): StoredFactView => ({
  value,
  validFrom,
  evidence,
});
const said = (value: string, evidence = "t9", negated = false): IncomingFact => ({
  value,
  evidence,
  negated,
});

// current fact, every stored fact of the key, the incoming fact, when it was said -> the decision
const CASES: [string, StoredFactView | null, StoredFactView[], IncomingFact, string, FactDecision][] = [
  ["a first value is inserted", null, [], said("Berlin"), JULY, { action: "insert" }],
  [
    "a first value said before anything is still inserted",
    null,
    [],
    said("Berlin"),
    MAY,
    { action: "insert" },
  ],
  [
    "another value said later supersedes",
    current("Leeds"),
    [current("Leeds")],
    said("Berlin"),
    JULY,
    { action: "supersede" },
  ],
  [
    "another value said at the same instant supersedes",
    current("Leeds"),
    [current("Leeds")],
    said("Berlin"),
    JUNE,
    { action: "supersede" },
  ],
  [
    "another value said earlier is history",
    current("Leeds"),
    [current("Leeds")],
    said("Berlin"),
    MAY,
    { action: "skip", reason: "stale" },
  ],
  [
    "the same value again merges, whatever its case and spaces",
    current("Berlin"),
    [current("Berlin")],
    said("  berlin "),
    JULY,
    { action: "merge" },
  ],
  [
    "the same value said earlier still merges its evidence",
    current("Berlin"),
    [current("Berlin")],
    said("Berlin"),
    MAY,
    { action: "merge" },
  ],
  [
    "a value taken from the same turn before is a re-extraction",
    current("Berlin", JUNE, ["t9"]),
    [current("Berlin", JUNE, ["t9"])],
    said("Berlin", "t9"),
    JULY,
    { action: "skip", reason: "restated" },
  ],
  [
    "a re-extraction of a value superseded since does not come back",
    current("Hamburg"),
    [current("Hamburg"), current("Berlin", MAY, ["t9"])],
    said("Berlin", "t9"),
    JULY,
    { action: "skip", reason: "restated" },
  ],
  [
    "the negation of the current value retracts it",
    current("Berlin"),
    [current("Berlin")],
    said("Berlin", "t9", true),
    JULY,
    { action: "retract" },
  ],
  [
    "the negation of the current value said before it is history",
    current("Berlin"),
    [current("Berlin")],
    said("Berlin", "t9", true),
    MAY,
    { action: "skip", reason: "stale" },
  ],
  [
    "the negation of another value changes nothing",
    current("Berlin"),
    [current("Berlin")],
    said("Leeds", "t9", true),
    JULY,
    { action: "skip", reason: "no-match" },
  ],
  [
    "a negation with nothing current changes nothing",
    null,
    [],
    said("Berlin", "t9", true),
    JULY,
    { action: "skip", reason: "no-match" },
  ],
  [
    "a current fact without a time is never later than what is said",
    current("Leeds", null),
    [current("Leeds", null)],
    said("Berlin"),
    MAY,
    { action: "supersede" },
  ],
];

describe("decideFact", () => {
  it.each(CASES)("%s", (_name, now, stored, fact, when, expected) => {
    expect(decideFact(now, stored, fact, when)).toEqual(expected);
  });
});
