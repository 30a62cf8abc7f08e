import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "english",
    include: ["src/**/*.test.ts"],
    testTimeout: 60_000,
    // The files share only the parser, loaded once and read-only: reusing the loaded modules across files
    // loads it once.
    isolate: false,
  },
});
