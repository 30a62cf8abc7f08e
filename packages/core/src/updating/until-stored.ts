import { ConflictError } from "../errors/index.js";

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
  throw new ConflictError(
    `${what}: its records changed under it ${CONFLICT_TRIES} times in a row; the job is retried later`,
  );
}
