import { describe, expect, it } from "vitest";
import { StorageBusyError, StorageError } from "../../errors/index.js";
import { isBusy, retryBusy, retryBusySync } from "./busy.js";

/** An error shaped like better-sqlite3's SqliteError. */
function sqliteError(code: string): Error {
  return Object.assign(new Error(code === "SQLITE_BUSY" ? "database is locked" : code), { code });
}

/** Fails `times` times with `code`, then returns "done". */
function flaky(times: number, code = "SQLITE_BUSY") {
  let calls = 0;
  const fn = () => {
    calls++;
    if (calls <= times) throw sqliteError(code);
    return "done";
  };
  return { fn, calls: () => calls };
}

describe("busy handling", () => {
  it("knows SQLITE_BUSY and its extended codes, and nothing else", () => {
    expect(isBusy(sqliteError("SQLITE_BUSY"))).toBe(true);
    expect(isBusy(sqliteError("SQLITE_BUSY_SNAPSHOT"))).toBe(true);
    expect(isBusy(sqliteError("SQLITE_CONSTRAINT_UNIQUE"))).toBe(false);
    expect(isBusy(new Error("database is locked"))).toBe(false);
    expect(isBusy(null)).toBe(false);
  });

  it("retries a busy operation until it goes through", async () => {
    const a = flaky(3, "SQLITE_BUSY_SNAPSHOT");
    expect(await retryBusy("write", a.fn)).toBe("done");
    expect(a.calls()).toBe(4);
    const b = flaky(2);
    expect(retryBusySync("open", b.fn)).toBe("done");
    expect(b.calls()).toBe(3);
  });

  it("passes any other error through at once", async () => {
    const a = flaky(1, "SQLITE_CONSTRAINT_UNIQUE");
    await expect(retryBusy("write", a.fn)).rejects.toThrow("SQLITE_CONSTRAINT_UNIQUE");
    expect(a.calls()).toBe(1);
  });

  it("gives up after its deadline with a StorageBusyError that says nothing was applied", async () => {
    const error = await retryBusy("sqlite.write on a.db", flaky(1_000_000).fn, 30).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageBusyError);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageBusyError).code).toBe("STORAGE");
    expect((error as Error).message).toMatch(
      /^sqlite\.write on a\.db: the database stayed locked by other writers for \d+ s; nothing was applied, try again$/,
    );
    expect(() => retryBusySync("open a.db", flaky(1_000_000).fn, 30)).toThrow(StorageBusyError);
  });
});
