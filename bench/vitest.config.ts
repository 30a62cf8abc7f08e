import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: { name: "bench", include: ["*.test.ts"], testTimeout: 60_000 },
});
