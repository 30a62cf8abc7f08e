#!/usr/bin/env node
// Installs everything Engram needs on a machine that has Node.js (any release from 18 on) and npm:
//  1. a Node.js that satisfies the root package.json's `engines.node`: the running one if it does, else
//     the pinned release from the npm registry (scripts/node-runtime.mjs), linked as node_modules/.bin/node
//     so that every `pnpm <script>` runs on it;
//  2. pnpm (pinned) with npm, if that version is missing;
//  3. the workspace with `pnpm install`, run on that Node.js, with better-sqlite3 built against its own
//     headers when no prebuilt binary fits, so the build needs no download (the vector index, usearch,
//     is only ever prebuilt: its install script is not run);
//  4. a check that `pnpm exec node` is that Node.js, loads better-sqlite3, and whether usearch loads.
import { execFileSync, spawnSync } from "node:child_process";
import { delimiter, dirname, join } from "node:path";
import {
  atLeast,
  installNode,
  linkShim,
  NODE_VERSION,
  nodePackage,
  PNPM_VERSION,
  ROOT,
  requiredNode,
} from "./node-runtime.mjs";

const WINDOWS = process.platform === "win32";

function fail(message) {
  console.error(`setup: ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { stdio: "inherit", shell: WINDOWS, cwd: ROOT, ...options });
  if (r.status !== 0) fail(`${command} ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
}

// 1. Node.js
const { range, lowest } = requiredNode();
let nodeExe = process.execPath;
let nodeDir = dirname(dirname(process.execPath));
if (atLeast(process.versions.node, lowest)) {
  console.log(`setup: Node.js ${process.version} satisfies engines.node ${range}`);
} else {
  const pkg = nodePackage();
  if (!pkg) {
    fail(
      `Node.js ${process.version} is older than the ${range} Engram needs, and the npm registry has no ` +
        `Node.js ${NODE_VERSION} package for ${process.platform}-${process.arch}: install Node.js 22.12 or ` +
        "later (https://nodejs.org, or nvm/fnm/volta) and run setup again with it.",
    );
  }
  try {
    ({ binary: nodeExe, home: nodeDir } = installNode(NODE_VERSION, (line) =>
      console.log(`setup: Node.js ${process.version} is older than engines.node ${range}; ${line}`),
    ));
  } catch (error) {
    fail(error.message);
  }
  console.log(`setup: using Node.js ${NODE_VERSION} at ${nodeExe}`);
}

// 2. pnpm
function pnpmVersion() {
  const r = spawnSync("pnpm", ["--version"], { encoding: "utf8", shell: WINDOWS });
  return r.status === 0 ? r.stdout.trim() : null;
}
const found = pnpmVersion();
if (found !== PNPM_VERSION) {
  console.log(`setup: installing pnpm ${PNPM_VERSION} with npm (found ${found ?? "none"})`);
  execFileSync("npm", ["install", "--global", `pnpm@${PNPM_VERSION}`], { stdio: "inherit", shell: WINDOWS });
}

// 3. The workspace, on the chosen Node.js: it comes first on PATH, so pnpm, node-gyp and prebuild-install
// run on it, and node-gyp builds against its headers (overriding any nodedir in a global npmrc).
const env = {
  ...process.env,
  PATH: `${dirname(nodeExe)}${delimiter}${process.env.PATH ?? ""}`,
  npm_config_nodedir: nodeDir,
};
const args = ["install", ...(process.env.CI ? ["--frozen-lockfile"] : [])];
console.log(`setup: pnpm ${args.join(" ")}`);
run("pnpm", args, { env });
// The root postinstall links the shim after every install that changes node_modules; link it here too,
// for an install that found everything up to date.
if (nodeExe !== process.execPath) linkShim();

// 4. Check: scripts run on the chosen Node.js, and the native modules load in it. A module built for
// another Node.js (an older node_modules) is rebuilt once.
const check = `
  const { createRequire } = require("node:module");
  const req = createRequire(${JSON.stringify(join(ROOT, "packages", "core", "package.json"))});
  new (req("better-sqlite3"))(":memory:").close();
  let index = "exact search only (usearch did not load: " ;
  try {
    new (req("usearch").Index)({ dimensions: 4, metric: "ip" }).size();
    index = "prebuilt usearch";
  } catch (error) {
    index += String(error.message).split(String.fromCharCode(10))[0] + ")";
  }
  console.log(process.version);
  console.log(index);
`;
function scriptNode() {
  const r = spawnSync("pnpm", ["exec", "node", "-e", check], { encoding: "utf8", cwd: ROOT, shell: WINDOWS });
  const [version, index] = r.stdout.trim().split("\n");
  return { ok: r.status === 0, version, index, stderr: r.stderr };
}
let seen = scriptNode();
if (!seen.ok && /NODE_MODULE_VERSION|was compiled against a different Node\.js/.test(seen.stderr)) {
  console.log("setup: rebuilding the native modules for this Node.js");
  run("pnpm", ["rebuild", "better-sqlite3"], { env });
  // pnpm rebuild writes node_modules/.bin again without the root postinstall: link the Node.js again.
  if (nodeExe !== process.execPath) linkShim();
  seen = scriptNode();
}
if (!seen.ok) fail(`the native modules do not load in pnpm's Node.js:\n${seen.stderr}`);
if (!atLeast(seen.version, lowest)) {
  fail(`pnpm scripts run on Node.js ${seen.version}, older than engines.node ${range}`);
}
// The vector index is optional: without its prebuilt binary, large sets are searched exactly.
console.log(`setup: done; pnpm scripts run on Node.js ${seen.version}; vector index: ${seen.index}`);
