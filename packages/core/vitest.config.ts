import { defineProject } from "vitest/config";

/**
 * Files that time real intervals and leases: each runs in a process of its own (the `core-timing`
 * project of the root config), since an engine another file left running in a shared process could hold
 * their timers up.
 */
export const TIMING_FILES = [
  "src/scheduler/*.test.ts",
  "src/updating/run-tiers.test.ts",
  "src/engine/visit-log.test.ts",
  "src/engine/engine-events.test.ts",
  "src/ai/use-lite-thread.test.ts",
  "src/ai/offline-embedding-model.test.ts",
];

export default defineProject({
  ssr: { resolve: { conditions: ["@engram/source"] } },
  test: {
    name: "core",
    include: ["src/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...TIMING_FILES],
    testTimeout: 60_000,
    // No other file depends on module state another leaves behind (each makes its own engines and
    // stores), so the loaded modules are reused across files: the run takes half as long.
    isolate: false,
  },
});
