/**
 * Steering for interleaving tests: one engine's job is held between its reads and its write while
 * another engine runs the other job to the end.
 */
import type { StoragePort, WriteBatch } from "@engram/core";

/** Which writes a hold stops: by default the next one that stores records. */
export type WriteMatch = (batch: WriteBatch) => boolean;
const storesRecords: WriteMatch = (batch) => Boolean(batch.upsert?.length);

/**
 * A port that claims only `types`, and can hold its next write until released. `cleanups` gets a release
 * for every hold, so a failed test still lets the held job finish and its engine close.
 */
export function steered(port: StoragePort, types: string[], cleanups: (() => Promise<void> | void)[]) {
  let hold: { reached: () => void; release: Promise<void>; matches: WriteMatch } | null = null;
  const wrapped = new Proxy(port, {
    get(target, prop) {
      if (prop === "claimJobs")
        return (options: Parameters<StoragePort["claimJobs"]>[0]) => target.claimJobs({ ...options, types });
      if (prop === "write")
        return async (scope: { userId: string }, batch: WriteBatch) => {
          const held = hold;
          if (held?.matches(batch)) {
            hold = null;
            held.reached();
            await held.release;
          }
          return target.write(scope, batch);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    port: wrapped,
    /** Holds the next write `matches` picks; resolves `atWrite` when a job gets there. */
    holdNextWrite(matches: WriteMatch = storesRecords) {
      let release = () => {};
      let reached = () => {};
      const atWrite = new Promise<void>((resolve) => {
        reached = resolve;
      });
      hold = { reached, matches, release: new Promise<void>((resolve) => (release = resolve)) };
      cleanups.push(() => release());
      return { atWrite, release: () => release() };
    },
  };
}
