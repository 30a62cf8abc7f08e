import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: { name: "example-langchain-memory", include: ["src/**/*.test.ts"], testTimeout: 60_000 },
});
