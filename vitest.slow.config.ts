import { defineConfig } from "vitest/config";

// `pnpm test:slow`: the suites kept out of the default run (`*.slow.test.ts`), e.g. whole-split evaluations.
export default defineConfig({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: {
    name: "slow",
    include: ["test/**/*.slow.test.ts"],
    exclude: ["**/node_modules/**"],
    testTimeout: 3_600_000,
  },
});
