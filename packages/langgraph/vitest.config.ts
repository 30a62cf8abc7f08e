import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  // globals: LangGraph's checkpoint validation suite calls describe/it/expect without importing them.
  test: { name: "langgraph", include: ["test/**/*.test.ts"], globals: true, testTimeout: 60_000 },
});
