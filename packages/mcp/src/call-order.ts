import type { Engram } from "@engram/core";

/** The engine's nested APIs whose calls are ordered too (`engram.memories.update(...)`). */
const NESTED = new Set(["memories", "skills", "traces", "items", "kv"]);

/**
 * The engine as the MCP tools see it: the calls for one user run one after another, in the order they
 * arrived. A client that pipelines `add_memory` and then `retrieve_memory` (both sent before either is
 * answered; the SDK starts handlers concurrently) so gets an answer that holds the write. Calls that name
 * no user run as they come.
 */
export function inCallOrder(engram: Engram): Engram {
  const tails = new Map<string, Promise<void>>();
  const ordered =
    (call: (...args: unknown[]) => unknown) =>
    (...args: unknown[]): unknown => {
      const userId = (args[0] as { userId?: unknown } | null | undefined)?.userId;
      if (typeof userId !== "string") return call(...args);
      const run = (tails.get(userId) ?? Promise.resolve()).then(() => call(...args));
      const tail = run.then(
        () => {},
        () => {},
      );
      tails.set(userId, tail);
      // The last call of a user done: nothing to wait for, and no entry kept.
      void tail.then(() => {
        if (tails.get(userId) === tail) tails.delete(userId);
      });
      return run;
    };
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key) {
        const value = Reflect.get(t, key, t) as unknown;
        if (typeof value === "function") return ordered(value.bind(t));
        if (typeof key === "string" && NESTED.has(key) && typeof value === "object" && value !== null) {
          return wrap(value);
        }
        return value;
      },
    });
  return wrap(engram);
}
