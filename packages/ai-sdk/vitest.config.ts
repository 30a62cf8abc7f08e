import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: {
    name: "ai-sdk",
    include: ["src/**/*.test.ts"],
    testTimeout: 60_000,
    // No file depends on module state another leaves behind (each makes its own engines and stores), so the
    // loaded modules are reused across files: the run takes half as long.
    isolate: false,
  },
});
