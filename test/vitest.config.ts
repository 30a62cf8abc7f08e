import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: { name: "cross", include: ["**/*.test.ts"], exclude: ["**/node_modules/**"], testTimeout: 120_000 },
});
