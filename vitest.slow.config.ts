import { defineConfig } from "vitest/config";

// `pnpm test:slow`: the suites kept out of the default run (`*.slow.test.ts`), e.g. whole-split evaluations.
export default defineConfig({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: {
    name: "slow",
    include: ["test/**/*.slow.test.ts"],
    exclude: ["**/node_modules/**"],
    testTimeout: 3_600_000,
    // Two files at once, also on a 2-core machine (where Vitest's default, one worker fewer than the cores,
    // would run them one after another): the SIGKILL trials spend most of their time waiting on child
    // processes, so the other files run beside them, and the suite takes about as long as that one file.
    // Largest file first on a fresh clone, so the SIGKILL trials start at once. One at a time: --maxWorkers=1.
    maxWorkers: 2,
  },
});
