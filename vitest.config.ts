import { defineConfig } from "vitest/config";
import { TIMING_FILES as CORE_TIMING_FILES } from "./packages/core/vitest.config.js";
import { atLeast, requiredNode } from "./scripts/node-runtime.mjs";

// The suite runs on the Node.js the packages declare, never an older one: `pnpm test` after
// `node scripts/setup.mjs` runs on node_modules/.bin/node when the machine's own Node.js is older.
const { range, lowest } = requiredNode();
if (!atLeast(process.versions.node, lowest)) {
  throw new Error(
    `Node.js ${process.version} runs this test suite, but engines.node is ${range}: ` +
      "run `node scripts/setup.mjs` (it installs that Node.js for pnpm's scripts) and then `pnpm test`.",
  );
}

export default defineConfig({
  test: {
    // Two files at once, also on a 2-core machine (Vitest's default is one worker fewer than the cores):
    // many suites wait on child processes, a browser or the disk, so the run takes about a fifth less.
    maxWorkers: 2,
    projects: [
      "packages/*",
      "examples/*",
      "test",
      "bench",
      // Core's timing tests, each file in a process of its own (see packages/core/vitest.config.ts).
      {
        root: "packages/core",
        ssr: { resolve: { conditions: ["@engram/source"] } },
        test: { name: "core-timing", include: CORE_TIMING_FILES, testTimeout: 60_000, isolate: true },
      },
    ],
  },
});
