import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: { name: "example-langgraph-agent", include: ["test/**/*.test.ts"], testTimeout: 60_000 },
});
