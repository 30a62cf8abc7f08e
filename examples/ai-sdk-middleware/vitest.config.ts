import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: { name: "example-ai-sdk-middleware", include: ["src/**/*.test.ts"], testTimeout: 60_000 },
});
