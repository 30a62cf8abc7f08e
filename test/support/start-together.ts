/**
 * Preloaded (`--import`) into CLI processes a test starts together: loads the CLI's modules first, says
 * "waiting" on stderr, then waits until the file named by ENGRAM_START_FILE exists, so the processes
 * reach the database within a few milliseconds of each other instead of spread over their module loading.
 */
import { existsSync } from "node:fs";

await import("@engram/cli");
const start = process.env.ENGRAM_START_FILE;
if (start) {
  process.stderr.write("waiting\n");
  while (!existsSync(start)) await new Promise((resolve) => setTimeout(resolve, 2));
}
