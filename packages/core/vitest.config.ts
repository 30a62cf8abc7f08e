import { defineProject } from "vitest/config";

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: {
    name: "core",
    include: ["src/**/*.test.ts"],
    testTimeout: 60_000,
    // Each file in a process of its own: the scheduler's lease tests time real intervals, which an engine
    // another file left running in the same process could hold up.
    isolate: true,
  },
});
