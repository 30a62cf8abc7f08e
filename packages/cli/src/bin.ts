#!/usr/bin/env node
import module from "node:module";

// Node keeps the compiled code of our modules between runs (a cache in the temp folder), so a command
// starts in a fraction of the time; the rest of the CLI loads after it is on.
module.enableCompileCache?.();
const [{ processIo }, { SIGNAL_EXIT_CODES }, { runCli }] = await Promise.all([
  import("./cli-io.js"),
  import("./interrupt.js"),
  import("./run-cli.js"),
]);

const code = await runCli(process.argv.slice(2), processIo(), { handleSignals: true });
// Interrupted: the store is closed; exit now rather than wait for anything still scheduled (a model load).
if (Object.values(SIGNAL_EXIT_CODES).includes(code as 130 | 143)) process.exit(code);
process.exitCode = code;
