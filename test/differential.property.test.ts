import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, it } from "vitest";
import { operations, runDifferential } from "./support/differential.js";
import { makeTempDir } from "./support/temp-dir.js";

const RUNS = Number(process.env.ENGRAM_DIFFERENTIAL_RUNS ?? 40);
const dir = makeTempDir("engram-differential-");
afterAll(() => dir.remove());

it(`two cached connections on one file answer as a cold one and as written, over ${RUNS} random interleavings`, async () => {
  let round = 0;
  await fc.assert(
    fc.asyncProperty(operations, async (ops) => {
      const path = join(dir.path, `d${round++}.db`);
      try {
        await runDifferential(path, ops);
      } finally {
        for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
      }
    }),
    { numRuns: RUNS },
  );
});
