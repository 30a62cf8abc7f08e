import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { operations, runDifferential } from "../support/differential.js";
import { makeTempDir } from "../support/temp-dir.js";

const RUNS = 600;
const dir = makeTempDir("engram-differential-slow-");
afterAll(() => dir.remove());

it(`two cached connections answer as a cold one and as written: ${RUNS} interleavings of up to 60 operations`, async () => {
  let round = 0;
  let operationsRun = 0;
  await fc.assert(
    fc.asyncProperty(operations, async (ops) => {
      const path = join(dir.path, `d${round++}.db`);
      operationsRun += ops.length;
      try {
        await runDifferential(path, ops);
      } finally {
        for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
      }
    }),
    { numRuns: RUNS },
  );
  console.log(`differential: ${RUNS} sequences, ${operationsRun} operations`);
  expect(round).toBeGreaterThanOrEqual(RUNS);
});
