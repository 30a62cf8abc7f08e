import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = dirname(fileURLToPath(import.meta.url));

/** Which capability folders each folder may import (engine -> skills -> updating -> runtime, retrieval, generation, scheduler -> storage, ai -> model, errors). */
const ALLOWED: Record<string, readonly string[]> = {
  engine: [
    "engine",
    "updating",
    "retrieval",
    "generation",
    "scheduler",
    "skills",
    "runtime",
    "storage",
    "ai",
    "model",
    "errors",
  ],
  skills: [
    "skills",
    "updating",
    "retrieval",
    "generation",
    "scheduler",
    "runtime",
    "storage",
    "ai",
    "model",
    "errors",
  ],
  updating: [
    "updating",
    "retrieval",
    "generation",
    "scheduler",
    "runtime",
    "storage",
    "ai",
    "model",
    "errors",
  ],
  // The engine's context, embedding of records, conditional-write retry: what every feature runs on.
  runtime: ["runtime", "retrieval", "scheduler", "storage", "ai", "model", "errors"],
  retrieval: ["retrieval", "storage", "ai", "model", "errors"],
  generation: ["generation", "model", "errors"],
  scheduler: ["scheduler", "storage", "model", "errors"],
  storage: ["storage", "model", "errors"],
  ai: ["ai", "model", "errors"],
  model: ["model", "errors"],
  errors: ["errors"],
  testing: ["testing", "model", "errors"],
};

/** The library's source files: tests and test-support/ (test-only, not built) are not layered. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "test-support" ? [] : sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

function folderOf(path: string): string {
  return relative(SRC, path).split("/")[0] as string;
}

describe("module dependencies", () => {
  const files = sources(SRC).filter((f) => relative(SRC, f).includes("/"));
  const edges = files.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map((m) => ({
      file: relative(SRC, file),
      from: folderOf(file),
      to: folderOf(resolve(dirname(file), m[1] as string)),
      target: relative(SRC, resolve(dirname(file), m[1] as string)),
    }));
  });

  it("reads every capability folder", () => {
    expect(new Set(edges.map((e) => e.from))).toEqual(new Set(Object.keys(ALLOWED)));
  });

  it("points one way: no folder imports a folder above it, so there are no cycles", () => {
    const wrong = edges.filter((e) => !(ALLOWED[e.from] ?? []).includes(e.to));
    expect(wrong).toEqual([]);
  });

  it("crosses folders only through a folder's index.ts (a backend's, for storage/sqlite, qdrant, memory)", () => {
    const deep = edges.filter(
      (e) =>
        e.from !== e.to &&
        !/^[a-z-]+\/index\.js$|^storage\/(sqlite|qdrant|memory)\/index\.js$/.test(e.target),
    );
    expect(deep.map((e) => `${e.file} -> ${e.target}`)).toEqual([]);
  });

  it("keeps the storage port free of backends: no port file imports sqlite/, qdrant/ or memory/", () => {
    const port = files.filter((f) => /^storage\/[^/]+\.ts$/.test(relative(SRC, f)));
    expect(port.map((f) => relative(SRC, f))).toContain("storage/storage-port.ts");
    const wrong = port.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "(\.{1,2}\/[^"]+)"/g)]
        .map((m) => relative(SRC, resolve(dirname(file), m[1] as string)))
        .filter((target) => /^storage\/(sqlite|qdrant|memory)\//.test(target))
        .map((target) => `${relative(SRC, file)} -> ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it("binds the English rules in one place: createEngram's default extractor, typed as the port", () => {
    const users = sources(SRC).filter((f) => /from "@engram\/english"/.test(readFileSync(f, "utf8")));
    // The engine's default, and the root entry that passes it on to users.
    expect(users.map((f) => relative(SRC, f)).sort()).toEqual(["engine/create-engram.ts", "index.ts"]);
    expect(readFileSync(join(SRC, "engine", "create-engram.ts"), "utf8")).toMatch(
      /const ENGLISH: Extractor = offlineExtractor;/,
    );
    const rules = /\b(?:extractFacts|factsFromText|parseCorrection)\b/;
    const engine = sources(SRC).filter((f) => rules.test(readFileSync(f, "utf8")));
    expect(engine.map((f) => relative(SRC, f))).toEqual([]);
  });

  it("keeps the English rules apart: @engram/english imports no Engram package and nothing outside itself", () => {
    const english = resolve(SRC, "..", "..", "english", "src");
    const outside = sources(english).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "([^"]+)"/g)]
        .map((m) => m[1] as string)
        .filter((target) =>
          target.startsWith(".")
            ? !resolve(dirname(file), target).startsWith(english)
            : target !== "compromise",
        )
        .map((target) => `${relative(english, file)} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it("keeps storage adapters off the engine and the AI models", () => {
    const adapters = edges.filter((e) => /^storage\/(sqlite|qdrant|memory)\//.test(e.file));
    expect(adapters.length).toBeGreaterThan(0);
    expect(adapters.filter((e) => !["storage", "model", "errors"].includes(e.to))).toEqual([]);
  });
});

describe("other packages use core's public entry points only", () => {
  const ROOT = resolve(SRC, "..", "..", "..");
  const CORE = resolve(SRC, "..");
  const STORAGE = join(SRC, "storage");
  const exported = Object.keys(
    (JSON.parse(readFileSync(join(CORE, "package.json"), "utf8")) as { exports: Record<string, unknown> })
      .exports,
  ).map((key) => key.replace(/^\./, "@engram/core"));
  const tree = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      if (name === "node_modules" || name === "dist" || name.startsWith(".")) return [];
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return tree(path);
      return /\.(ts|tsx|mts|mjs|js)$/.test(name) ? [path] : [];
    });
  const files = ["packages", "examples", "bench", "test"]
    .flatMap((top) => tree(join(ROOT, top)))
    .filter((file) => !file.startsWith(`${CORE}/`));
  const imports = files.flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/(?:from|import\(|require\()\s*["']([^"']+)["']/g)].map((m) => ({
      file: relative(ROOT, file),
      spec: m[1] as string,
    })),
  );

  it("reads the packages, examples, benchmarks and tests", () => {
    expect(imports.filter((i) => i.spec.startsWith("@engram/core")).length).toBeGreaterThan(100);
  });

  it("imports no core folder by path: storage, or any other", () => {
    const wrong = imports.filter(({ file, spec }) => {
      if (!spec.startsWith(".")) return false;
      const target = resolve(ROOT, dirname(file), spec);
      return target === CORE || target.startsWith(`${CORE}/`) || target.startsWith(STORAGE);
    });
    expect(wrong).toEqual([]);
  });

  it("imports @engram/core only through its exports (no @engram/core/src/storage/...)", () => {
    const wrong = imports.filter(({ spec }) => spec.startsWith("@engram/core") && !exported.includes(spec));
    expect(wrong).toEqual([]);
  });

  it("keeps the conformance suite a test tool of its own: core never imports @engram/storage-conformance", () => {
    const suite = imports.filter(({ file }) => file.startsWith("packages/storage-conformance/src/"));
    expect(suite.filter(({ spec }) => spec.startsWith("@engram/core")).length).toBeGreaterThan(10);
    const coreFiles = tree(CORE).filter((f) => !f.endsWith(".test.ts"));
    const wrong = coreFiles.filter((f) =>
      /["']@engram\/storage-conformance["']/.test(readFileSync(f, "utf8")),
    );
    expect(wrong.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it("wrappers and the CLI reach storage only through the engine, never storageOf(engram)", () => {
    const wrappers = files.filter(
      (f) => /\/packages\/[^/]+\/src\//.test(f) && !/\.test\.ts$|\/test-support\//.test(f),
    );
    const wrong = wrappers.filter((f) =>
      /\bstorageOf\(|\b(?:engram|this)\.storage\b/.test(readFileSync(f, "utf8")),
    );
    expect(wrong.map((f) => relative(ROOT, f))).toEqual([]);
  });
});

describe("no process-global caches", () => {
  const ROOT = resolve(SRC, "..", "..", "..");
  const PACKAGES = join(ROOT, "packages");
  /**
   * Module state that is not a cache of anyone's data, each with why it is one per process. Everything else
   * an engine remembers lives in its own CacheSet, which `forget` and close clear.
   */
  const ALLOWED_STATE: Record<string, string> = {
    "core/src/generation/tokenizer.ts countTokens": "the BPE module, loaded on first count",
    "core/src/retrieval/load-chrono.ts loaded": "the date parser module, loaded on first use",
    "core/src/storage/sqlite/driver.ts driver": "the native SQLite module, loaded when a store opens",
    "core/src/storage/sqlite/index-files.ts native": "the native vector index module, loaded on first use",
    "core/src/ai/offline-embedding-model.ts shared": "the offline model's weights, loaded once",
    "core/src/ai/use-lite-thread.ts queue": "the order of calls into the one model thread",
    "core/src/model/parse-input.ts strictTwins": "each schema's strict twin, keyed weakly by the schema",
    "core/src/engine/engine-backends.ts backends": "each engine's backend, keyed weakly by the engine",
    "core/src/scheduler/write-behind.ts groups":
      "each owner's write-behind queues, keyed weakly by the owner",
    "core/src/engine/stamp-turn.ts lastStamp": "a clock: two turns stamped in one process never share a time",
    "cli/src/ui/ui-server.ts assetCache": "the inspector page's own static files",
    "english/src/parse/match.ts COMPILED": "each slot pattern compiled once: constants of the readers",
    "english/src/parse/match.ts TERMS": "each clause's terms, keyed weakly by the clause",
    "english/src/parse/match.ts VERBS": "each clause's verbs, keyed weakly by the clause",
    "english/src/parse/spelling.ts VOCABULARY":
      "the words typos are mended to, built once per parser, keyed weakly by it",
  };
  const files = readdirSync(PACKAGES).flatMap((pkg) => {
    const src = join(PACKAGES, pkg, "src");
    return statSync(src, { throwIfNoEntry: false })?.isDirectory() ? sources(src) : [];
  });
  const state = files.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    const lets = [...text.matchAll(/^(?:export )?let (\w+)/gm)].map((m) => m[1] as string);
    const collections = [
      ...text.matchAll(/^(?:export )?const (\w+)(?::[^=\n]+)? = new (?:Map|Set|WeakMap|WeakSet)\b/gm),
    ].map((m) => m[1] as string);
    const mutated = collections.filter((name) =>
      new RegExp(`\\b${name}\\.(set|add|delete|clear)\\(`).test(text),
    );
    return [...lets, ...mutated].map((name) => `${relative(PACKAGES, file)} ${name}`);
  });

  it("reads every package's modules", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(state.length).toBeGreaterThan(0);
  });

  it("keeps no mutable module state but what is listed, with why", () => {
    expect(state.filter((s) => !(s in ALLOWED_STATE))).toEqual([]);
    // A listed exception that is gone is dropped from the list too.
    expect(Object.keys(ALLOWED_STATE).filter((s) => !state.includes(s))).toEqual([]);
  });
});
