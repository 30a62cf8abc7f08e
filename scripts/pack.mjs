#!/usr/bin/env node
// `pnpm pack:all [DIR]`: builds the published packages and packs each into a tarball (default: .packs/ in
// this clone), the files a project installs until the packages are on the npm registry
// (docs/install.md). Prints each tarball's path.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "./node-runtime.mjs";

/** The packages published under @engram/, by folder name. */
export const PUBLISHED = [
  "english",
  "core",
  "storage-conformance",
  "ai-sdk",
  "langgraph",
  "langchain",
  "mcp",
  "cli",
];

/** Builds (tsc -b) and packs every published package into `dest`; returns `{ "@engram/x": path }`. */
export function packPackages(dest) {
  execFileSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-b"], { cwd: ROOT, stdio: "inherit" });
  mkdirSync(dest, { recursive: true });
  const out = {};
  for (const name of PUBLISHED) {
    for (const old of readdirSync(dest).filter((f) => f.startsWith(`engram-${name}-`)))
      rmSync(join(dest, old));
    execFileSync("pnpm", ["pack", "--pack-destination", dest], {
      cwd: join(ROOT, "packages", name),
      stdio: ["ignore", "ignore", "inherit"],
    });
    const file = readdirSync(dest).find((f) => f.startsWith(`engram-${name}-`) && f.endsWith(".tgz"));
    if (!file) throw new Error(`pnpm pack wrote no tarball for @engram/${name} in ${dest}`);
    out[`@engram/${name}`] = join(dest, file);
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dest = resolve(process.argv[2] ?? join(ROOT, ".packs"));
  for (const path of Object.values(packPackages(dest))) console.log(path);
}
