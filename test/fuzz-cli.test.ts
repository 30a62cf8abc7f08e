import { afterAll, expect, it } from "vitest";
import { fuzzCli } from "./support/fuzz/cli-fuzz.js";
import { makeTempDir } from "./support/temp-dir.js";

const RUNS = Number(process.env.ENGRAM_FUZZ_RUNS ?? 200);
const dir = makeTempDir("engram-fuzz-cli-");
afterAll(() => dir.remove());

it(`the engram command takes ${RUNS} hostile command lines and files: exit 0/1/2, a failure changes nothing`, async () => {
  const tally = await fuzzCli(dir.path, RUNS);
  expect(tally.runs).toBe(RUNS);
  // Most generated lines are wrong somewhere, and some are right.
  expect(tally.failed).toBeGreaterThan(RUNS / 3);
  expect(tally.byCode[0] ?? 0).toBeGreaterThan(0);
});
