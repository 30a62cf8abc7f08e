#!/usr/bin/env node
// Installs everything Engram needs on a machine that has only Node.js 20 and npm:
// pnpm (pinned), then the workspace with a native build of better-sqlite3 against this Node's headers.
import { execFileSync, spawnSync } from "node:child_process";
import { dirname } from "node:path";

const PNPM_VERSION = "12.21.0";

function pnpmVersion() {
  const r = spawnSync("pnpm", ["--version"], { encoding: "utf8", shell: process.platform === "win32" });
  return r.status === 0 ? r.stdout.trim() : null;
}

const found = pnpmVersion();
if (found !== PNPM_VERSION) {
  console.log(`setup: installing pnpm ${PNPM_VERSION} with npm (found ${found ?? "none"})`);
  execFileSync("npm", ["install", "--global", `pnpm@${PNPM_VERSION}`], { stdio: "inherit" });
}

// better-sqlite3 falls back to a source build when its prebuilt binary cannot be downloaded; point
// node-gyp at the running Node's own headers so that build needs no network either.
const nodedir = dirname(dirname(process.execPath));
const env = { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? nodedir };
const args = ["install", ...(process.env.CI ? ["--frozen-lockfile"] : [])];
console.log(`setup: pnpm ${args.join(" ")}`);
const r = spawnSync("pnpm", args, { stdio: "inherit", env });
process.exit(r.status ?? 1);
