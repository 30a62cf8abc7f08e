import { describe, expect, it } from "vitest";
import { applySpeakerPrior, namedSpeakers } from "./speaker-prior.js";

const hits = [
  { id: "mel-says-name", score: 3, name: "Melanie" },
  { id: "caroline", score: 2, name: "Caroline" },
  { id: "jon", score: 1, name: "Jon" },
];
const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
const speaker = (h: (typeof hits)[number]) => h.name;

describe("namedSpeakers", () => {
  it("finds whole names among the speakers, case-insensitively", () => {
    expect(namedSpeakers("What did caroline research?", ["Caroline", "Melanie", null])).toEqual(
      new Set(["caroline"]),
    );
    expect(namedSpeakers("What did Carol research?", ["Caroline"])).toEqual(new Set());
  });
});

describe("applySpeakerPrior", () => {
  it("lifts the turns of the speaker a query names above a turn that only says the name", () => {
    expect(ids(applySpeakerPrior(hits, "What did Caroline research?", speaker, 5))).toEqual([
      "caroline",
      "mel-says-name",
      "jon",
    ]);
  });
  it("is off at strength 0 or when no speaker is named", () => {
    expect(ids(applySpeakerPrior(hits, "What did Caroline research?", speaker, 0))).toEqual(ids(hits));
    expect(ids(applySpeakerPrior(hits, "What was researched?", speaker, 5))).toEqual(ids(hits));
  });
});
