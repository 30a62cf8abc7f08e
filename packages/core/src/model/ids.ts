import { randomUUID } from "node:crypto";

/** Makes ids; the engine takes one as a seam so tests can use deterministic ids. */
export type IdGenerator = () => string;

export const randomIds: IdGenerator = () => `mem_${randomUUID().replaceAll("-", "")}`;

/** Deterministic ids `prefix1`, `prefix2`, ... for tests. */
export function sequentialIds(prefix = "mem_"): IdGenerator {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/** The clock seam: returns the current time. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
