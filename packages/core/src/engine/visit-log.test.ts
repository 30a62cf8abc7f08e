import { describe, expect, it } from "vitest";
import { VisitLog } from "./visit-log.js";

describe("VisitLog", () => {
  it("writes the visits of a second as one job per user, after the caller returns", async () => {
    const writes: [string, string[]][] = [];
    const log = new VisitLog(async (userId, ids) => {
      writes.push([userId, ids]);
    });
    log.record("u1", ["s1", "s2"]);
    log.record("u1", ["s1"]);
    log.record("u2", ["t1"]);
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(writes).toEqual([
      ["u1", ["s1", "s2", "s1"]],
      ["u2", ["t1"]],
    ]);
    await log.close();
  });

  it("keeps visits a failed write could not store, reports the error, and writes them later", async () => {
    let fail = true;
    const writes: string[][] = [];
    const log = new VisitLog(async (_userId, ids) => {
      if (fail) throw new Error("disk full");
      writes.push(ids);
    });
    log.record("u", ["a"]);
    await log.flush();
    expect((log.error as Error).message).toBe("disk full");
    log.record("u", ["b"]);
    fail = false;
    await log.flush();
    expect(writes).toEqual([["a", "b"]]);
    expect(log.error).toBeNull();
    await log.close();
  });

  it("drops a forgotten user's visits and flushes the rest on close", async () => {
    const writes: string[] = [];
    const log = new VisitLog(async (userId) => {
      writes.push(userId);
    });
    log.record("gone", ["a"]);
    log.record("kept", ["b"]);
    log.drop("gone");
    await log.close();
    expect(writes).toEqual(["kept"]);
  });
});
