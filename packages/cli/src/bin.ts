#!/usr/bin/env node
import { processIo } from "./cli-io.js";
import { SIGNAL_EXIT_CODES } from "./interrupt.js";
import { runCli } from "./run-cli.js";

const code = await runCli(process.argv.slice(2), processIo(), { handleSignals: true });
// Interrupted: the store is closed; exit now rather than wait for anything still scheduled (a model load).
if (Object.values(SIGNAL_EXIT_CODES).includes(code as 130 | 143)) process.exit(code);
process.exitCode = code;
