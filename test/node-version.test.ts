import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { atLeast, NODE_VERSION, parseLowerBound, ROOT } from "../scripts/node-runtime.mjs";
import { PUBLISHED } from "../scripts/pack.mjs";

const manifests = [
  "package.json",
  ...["packages", "examples"].flatMap((dir) =>
    readdirSync(join(ROOT, dir)).map((name) => join(dir, name, "package.json")),
  ),
  "test/package.json",
  "bench/package.json",
].map((file) => ({ file, json: JSON.parse(readFileSync(join(ROOT, file), "utf8")) }));

describe("the Node.js this suite runs on", () => {
  it("satisfies engines.node of the root and of every workspace package", () => {
    for (const { file, json } of manifests) {
      const range: string = json.engines?.node;
      expect(range, `${file} declares engines.node`).toMatch(/^>=\d+\.\d+\.\d+$/);
      expect(
        atLeast(process.versions.node, parseLowerBound(range)),
        `${process.version} vs ${file}: ${range}`,
      ).toBe(true);
    }
  });

  it("published packages all declare the same lowest Node.js, and the root no lower", () => {
    const published = manifests.filter(({ json }) => !json.private);
    // Every package that is not private is one `pnpm pack:all` publishes, and the other way round.
    expect(published.map(({ json }) => json.name).sort()).toEqual(
      PUBLISHED.map((n) => `@engram/${n}`).sort(),
    );
    const ranges = new Set(published.map(({ json }) => json.engines.node));
    expect([...ranges]).toEqual([">=22.0.0"]);
    const root = manifests[0]?.json.engines.node;
    expect(atLeast(root.slice(2), parseLowerBound(">=22.0.0"))).toBe(true);
    // The Node.js setup installs satisfies the root.
    expect(atLeast(NODE_VERSION, parseLowerBound(root))).toBe(true);
  });

  it("loads the native modules built for it", () => {
    const require = createRequire(join(ROOT, "packages", "core", "package.json"));
    const Database = require("better-sqlite3");
    const db = new Database(":memory:");
    expect(db.prepare("select 1 as one").get()).toEqual({ one: 1 });
    db.close();
    // The vector index is prebuilt, never compiled: its binary loads without an install script.
    const { Index } = require(require.resolve("usearch", { paths: [join(ROOT, "packages", "core")] }));
    const index = new Index({ dimensions: 2, metric: "ip" });
    index.add(1n, Float32Array.from([1, 0]));
    expect(index.size()).toBe(1);
  });
});
