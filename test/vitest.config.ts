import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: {
    name: "cross",
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    testTimeout: 120_000,
    // The suites share no global state; reusing the loaded core across files cuts the run from ~60 s to ~7 s.
    isolate: false,
  },
});
