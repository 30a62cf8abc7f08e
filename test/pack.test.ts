import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../scripts/node-runtime.mjs";
import { PUBLISHED } from "../scripts/pack.mjs";

// What `pnpm pack` puts in each published package's tarball, and the manifest a user's npm reads.
// Every package `pnpm pack:all` publishes (scripts/pack.mjs).
const PACKAGES = PUBLISHED;
const REPO = "https://github.com/engram-memory/engram";

/** The files of a .tgz, path (without the leading `package/`) to content. */
function readTarball(file: string): Map<string, Buffer> {
  const tar = gunzipSync(readFileSync(file));
  const files = new Map<string, Buffer>();
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, length: number) =>
      header.toString("utf8", start, start + length).replace(/\0.*$/s, "");
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = Number.parseInt(field(124, 12).trim() || "0", 8);
    const type = field(156, 1);
    if (type === "0" || type === "")
      files.set(name.replace(/^package\//, ""), tar.subarray(offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

const packed = new Map<string, Map<string, Buffer>>();
let destination = "";

beforeAll(() => {
  // The tarballs hold dist/, so build it first (up to date after `pnpm typecheck`: seconds).
  execFileSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-b"], { cwd: ROOT, stdio: "pipe" });
  destination = mkdtempSync(join(tmpdir(), "engram-pack-"));
  for (const name of PACKAGES) {
    execFileSync("pnpm", ["pack", "--pack-destination", destination], {
      cwd: join(ROOT, "packages", name),
      stdio: "pipe",
      shell: process.platform === "win32",
    });
    const tarball = readdirSync(destination).find((f) => f.startsWith(`engram-${name}-`));
    if (!tarball) throw new Error(`pnpm pack wrote no tarball for ${name}`);
    packed.set(name, readTarball(join(destination, tarball)));
  }
}, 600_000);

afterAll(() => {
  if (destination) rmSync(destination, { recursive: true, force: true });
});

describe.each(PACKAGES)("the @engram/%s tarball", (name) => {
  const files = () => packed.get(name) ?? new Map<string, Buffer>();
  const manifest = () => JSON.parse(files().get("package.json")?.toString("utf8") ?? "{}");

  it("holds dist, the sources its maps name, README, LICENSE and package.json, and nothing else", () => {
    const unexpected = [...files().keys()].filter(
      (path) =>
        !["package.json", "README.md", "LICENSE"].includes(path) &&
        !/^dist\/.+\.(js|d\.ts|js\.map|d\.ts\.map)$/.test(path) &&
        !(/^src\/.+\.ts$/.test(path) && !/\.test\.ts$/.test(path) && !path.includes("test-support/")) &&
        !(name === "cli" && /^data\/[^/]+\.(json|jsonl)$/.test(path)) &&
        // The inspector's page: `engram ui` serves it with its stylesheet and modules inlined.
        !(name === "cli" && /^ui\/[^/]+\.(html|css|js)$/.test(path)),
    );
    expect(unexpected).toEqual([]);
    expect(files().has("LICENSE")).toBe(true);
    expect(files().get("LICENSE")?.toString("utf8")).toContain("Apache License");
    expect([...files().keys()].filter((path) => path.includes(".tsbuildinfo"))).toEqual([]);
  });

  it("has a map for every compiled file, each naming only sources that are in the tarball", () => {
    const paths = new Set(files().keys());
    const problems: string[] = [];
    for (const [path, content] of files()) {
      if (/^dist\/.+\.(js|d\.ts)$/.test(path)) {
        const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(content.toString("utf8"))?.[1];
        const map = url ? posix.join(posix.dirname(path), url) : undefined;
        if (!map || !paths.has(map)) problems.push(`${path}: map ${map ?? "(none)"} missing`);
        const source = path.replace(/^dist\//, "src/").replace(/\.(js|d\.ts)$/, ".ts");
        if (!paths.has(source))
          problems.push(`${path}: compiled from ${source}, which is not shipped (stale?)`);
      }
      if (path.endsWith(".map")) {
        const map = JSON.parse(content.toString("utf8")) as { sources: string[]; sourceRoot?: string };
        for (const source of map.sources) {
          const resolved = posix.join(posix.dirname(path), map.sourceRoot ?? "", source);
          if (!paths.has(resolved)) problems.push(`${path}: source ${resolved} not in the tarball`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("publishes a manifest without the development-only condition, with its links and files", () => {
    const json = manifest();
    const text = JSON.stringify(json);
    expect(text).not.toContain("@engram/source");
    expect(text).not.toContain("workspace:");
    expect(json.publishConfig).toBeUndefined();
    expect(json.name).toBe(`@engram/${name}`);
    expect(json.license).toBe("Apache-2.0");
    expect(json.engines).toEqual({ node: ">=22.0.0" });
    expect(json.repository).toEqual({ type: "git", url: `git+${REPO}.git`, directory: `packages/${name}` });
    expect(json.homepage).toBe(`${REPO}/tree/main/packages/${name}#readme`);
    expect(json.bugs).toEqual({ url: `${REPO}/issues` });
    const targets = (value: unknown): string[] =>
      typeof value === "string" ? [value] : Object.values(value as object).flatMap(targets);
    for (const target of targets(json.exports))
      expect(files().has(target.replace(/^\.\//, "")), target).toBe(true);
    for (const target of Object.values<string>(json.bin ?? {})) {
      const bin = files().get(target.replace(/^\.\//, ""))?.toString("utf8") ?? "";
      expect(bin.startsWith("#!/usr/bin/env node\n"), target).toBe(true);
    }
  });

  it("has a README whose links work on a registry page (absolute)", () => {
    const readme = files().get("README.md")?.toString("utf8") ?? "";
    expect(readme).toContain(`# @engram/${name}`);
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? "");
    expect(links.filter((link) => !/^https:\/\//.test(link))).toEqual([]);
    expect(readme).toMatch(/Node\.js 22 or later/);
  });
});
