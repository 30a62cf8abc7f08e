import { describe, expect, it } from "vitest";
import { applyUpdatePrior, type StatedHit } from "./update-prior.js";

type Hit = { id: string; score: number; stated: StatedHit };
const hit = (id: string, score: number, text: string, at: string, role = "user"): Hit => ({
  id,
  score,
  stated: { role, text, at },
});
const order = (hits: readonly Hit[]) => applyUpdatePrior(hits, (h) => h.stated, true).map((h) => h.id);

describe("applyUpdatePrior", () => {
  const older = hit("old", 3, "I run the 5k in 27 minutes on Saturday mornings", "2023-01-05");
  const newer = hit("new", 1, "I now run the 5k in 24 minutes on Saturday mornings", "2023-06-05");

  it("moves the newer of two statements about the same thing just above the older", () => {
    const other = hit("x", 2, "My sister bakes bread with rye flour every weekend", "2023-03-01");
    const moved = applyUpdatePrior([older, other, newer], (h) => h.stated, true);
    expect(moved.map((h) => h.id)).toEqual(["new", "old", "x"]);
    expect(moved[0]?.score).toBeGreaterThan(3);
  });

  it("leaves statements that share fewer than half of their content words, and an older one ranked lower", () => {
    const unrelated = hit(
      "new",
      1,
      "I now cycle to the office on Saturday and Sunday mornings",
      "2023-06-05",
    );
    expect(order([older, unrelated])).toEqual(["old", "new"]);
    expect(order([newer, older])).toEqual(["new", "old"]);
  });

  it("compares only the user's own statements, and only when switched on", () => {
    const said = hit("new", 1, newer.stated.text, "2023-06-05", "assistant");
    expect(order([older, said])).toEqual(["old", "new"]);
    expect(applyUpdatePrior([older, newer], (h) => h.stated, false).map((h) => h.id)).toEqual(["old", "new"]);
  });

  it("gives the same answer when asked again (stems are remembered, not recomputed)", () => {
    for (let i = 0; i < 3; i++) expect(order([older, newer])).toEqual(["new", "old"]);
  });
});
