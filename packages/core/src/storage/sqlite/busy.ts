import type Database from "better-sqlite3";
import { StorageBusyError } from "../../errors/index.js";

/**
 * How long SQLite itself waits for another connection's lock before reporting SQLITE_BUSY (its busy
 * handler, the better-sqlite3 `timeout` option). Engram then backs off and tries again, up to
 * `BUSY_DEADLINE_MS` in all, so ordinary contention between processes never reaches the caller.
 */
export const BUSY_TIMEOUT_MS = 5000;
export const BUSY_DEADLINE_MS = 60_000;

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY, BUSY_TIMEOUT). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** Full jitter over an exponential cap (10 ms doubling to 1 s), so waiting processes do not retry in step. */
export function busyBackoffMs(attempt: number): number {
  return Math.random() * Math.min(1000, 10 * 2 ** attempt);
}

function gaveUp(what: string, waitedMs: number, cause: unknown): StorageBusyError {
  return new StorageBusyError(
    `${what}: the database stayed locked by other writers for ${Math.round(waitedMs / 1000)} s; nothing was applied, try again`,
    { cause, details: { waitedMs } },
  );
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `fn`, retrying it while SQLite reports the file busy. Synchronous (blocks the thread while it
 * backs off), for opening a store where there is no caller to yield to. `fn` must be safe to repeat:
 * a busy statement or transaction has applied nothing.
 */
export function retryBusySync<T>(what: string, fn: () => T, deadlineMs = BUSY_DEADLINE_MS): T {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (error) {
      const waited = performance.now() - started;
      if (!isBusy(error)) throw error;
      if (waited > deadlineMs) throw gaveUp(what, waited, error);
      Atomics.wait(sleeper, 0, 0, busyBackoffMs(attempt));
    }
  }
}

/** As `retryBusySync`, but backs off with a timer, so the process keeps serving other work meanwhile. */
export async function retryBusy<T>(what: string, fn: () => T, deadlineMs = BUSY_DEADLINE_MS): Promise<T> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (error) {
      const waited = performance.now() - started;
      if (!isBusy(error)) throw error;
      if (waited > deadlineMs) throw gaveUp(what, waited, error);
      await new Promise((resolve) => setTimeout(resolve, busyBackoffMs(attempt)));
    }
  }
}

/** `PRAGMA optimize` may want the write lock for ANALYZE; it is only a hint, so a busy file skips it. */
export function optimize(db: Database.Database, pragma: "optimize" | "optimize = 0x10002"): void {
  try {
    db.pragma(pragma);
  } catch (error) {
    if (!isBusy(error)) throw error;
  }
}
