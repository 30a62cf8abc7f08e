import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: {
    name: "cross",
    include: ["**/*.test.ts"],
    // Slow suites (`*.slow.test.ts`) run with `pnpm test:slow` (vitest.slow.config.ts).
    exclude: ["**/node_modules/**", "**/*.slow.test.ts"],
    testTimeout: 120_000,
    // The suites share no global state; reusing the loaded core across files cuts the run from ~60 s to ~7 s.
    isolate: false,
  },
});
