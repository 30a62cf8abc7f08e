import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: { name: "langchain", include: ["src/**/*.test.ts"], testTimeout: 60_000 },
});
