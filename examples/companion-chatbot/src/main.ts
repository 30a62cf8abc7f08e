#!/usr/bin/env node
import { companionMain } from "./companion-main.js";

try {
  process.exitCode = await companionMain(process.argv.slice(2), process.env);
} catch (error) {
  process.stderr.write(`companion: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
