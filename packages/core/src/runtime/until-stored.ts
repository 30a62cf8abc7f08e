import { ConflictError } from "../errors/index.js";
import type { JobControl } from "../scheduler/index.js";

/** Reads and writes a job redoes when another writer changed its records meanwhile, before it gives way. */
export const CONFLICT_TRIES = 5;

/**
 * Runs a job step that reads records, works on them and writes them back conditionally (`expect`: the
 * records as read). `step` returns null when that write found a record changed since it read it (another
 * process's job stored it meanwhile) and stored nothing; the step then reads again and redoes its work.
 * After CONFLICT_TRIES lost writes it throws a ConflictError: a job fails this attempt and is retried
 * later like any failed attempt (the queue's back-off, up to its attempt limit); an API call fails.
 */
export async function untilStored<T>(what: string, step: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < CONFLICT_TRIES; i++) {
    const done = await step();
    if (done !== null) return done;
  }
  throw tooManyConflicts(what);
}

/** What a step that lost CONFLICT_TRIES writes in a row throws. */
export function tooManyConflicts(what: string): ConflictError {
  return new ConflictError(
    `${what}: its records changed under it ${CONFLICT_TRIES} times in a row; the job is retried later`,
  );
}

/**
 * Works through a list in steps of at most `size` items, each step one conditional write: bounded work
 * between checkpoints, however much is queued (an import of 200,000 turns), so the job can be stopped
 * between steps and its lease renewed. `read` lists what is left; `step` returns false when its write lost
 * to another writer, and the list is then read again (up to CONFLICT_TRIES losses in a row). A step's
 * items are taken off the list read before, so the list is read once unless a write loses.
 */
export async function inSteps<T>(
  what: string,
  size: number,
  read: () => Promise<readonly T[]>,
  step: (items: readonly T[]) => Promise<boolean>,
  control: JobControl,
): Promise<number> {
  let left: readonly T[] | null = null;
  let done = 0;
  for (let lost = 0; ; ) {
    left ??= await read();
    if (left.length === 0) return done;
    const items = left.slice(0, size);
    if (!(await step(items))) {
      if (++lost >= CONFLICT_TRIES) throw tooManyConflicts(what);
      left = null;
      continue;
    }
    lost = 0;
    done += items.length;
    left = left.slice(items.length);
    control.progress(what, done, done + left.length);
    if (left.length > 0) await control.checkpoint();
  }
}
