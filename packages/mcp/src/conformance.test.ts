import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "./http-server.js";

// The official MCP conformance suite's server scenarios against the HTTP server on a fresh store.
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const BASELINE = join(PACKAGE_DIR, "conformance-baseline.yml");
const BEARER_PRELOAD = join(PACKAGE_DIR, "src/test-support/conformance-bearer.mjs");
const SUITE_DIR = dirname(
  createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json"),
);
const SUITE_BIN = join(
  SUITE_DIR,
  (JSON.parse(readFileSync(join(SUITE_DIR, "package.json"), "utf8")) as { bin: { conformance: string } }).bin
    .conformance,
);

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
  readonly details?: { readonly statusCode?: number };
}

/** The baseline's scenarios with their reasons; an entry without a reason is an error in the file. */
function readBaseline(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of readFileSync(BASELINE, "utf8").split("\n")) {
    const m = /^\s+-\s+([a-z0-9-]+)\s*(?:#\s*(.*))?$/.exec(line);
    if (!m?.[1]) continue;
    if (!m[2]?.trim()) throw new Error(`conformance-baseline.yml: ${m[1]} has no reason after #`);
    if (entries.has(m[1])) throw new Error(`conformance-baseline.yml: ${m[1]} is listed twice`);
    entries.set(m[1], m[2].trim());
  }
  return entries;
}

let dir: string;
let engram: Engram;
let server: HttpServerHandle;
let run: { code: number; output: string; checks: Map<string, Check[]> };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-mcp-conformance-"));
  engram = await createEngram({ path: join(dir, "conformance.db"), embedder: hashEmbeddingModel() });
  // A loopback server with its generated admin token, as `engram serve mcp --http` starts by default.
  server = await startHttpServer({ engram, port: 0, defaultUserId: "conformance" });
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [
        "--import",
        BEARER_PRELOAD,
        SUITE_BIN,
        "server",
        "--url",
        server.url,
        "--expected-failures",
        BASELINE,
        "-o",
        join(dir, "results"),
      ],
      { env: { ...process.env, ENGRAM_CONFORMANCE_TOKEN: server.token }, cwd: dir, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
  const checks = new Map<string, Check[]>();
  for (const entry of readdirSync(join(dir, "results"))) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry)?.[1];
    if (scenario)
      checks.set(scenario, JSON.parse(readFileSync(join(dir, "results", entry, "checks.json"), "utf8")));
  }
  run = { code, output, checks };
}, 150_000);

afterAll(async () => {
  await server?.close();
  await engram?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("MCP conformance suite, server scenarios", () => {
  it("fails only the scenarios of the baseline, and every one of them", () => {
    const baseline = readBaseline();
    const failed = [...run.checks]
      // As the suite counts them: a warning means the scenario could not show conformance.
      .filter(([, checks]) => checks.some((c) => c.status === "FAILURE" || c.status === "WARNING"))
      .map(([scenario]) => scenario)
      .sort();
    expect(run.checks.size, run.output).toBeGreaterThanOrEqual(25);
    expect(failed).toEqual([...baseline.keys()].sort());
    // The suite's own verdict with --expected-failures: nonzero on a new failure or a stale entry.
    expect(run.code, run.output).toBe(0);
  });

  it("passes the protocol scenarios that apply to a memory server", () => {
    for (const scenario of [
      "server-initialize",
      "ping",
      "tools-list",
      "tools-call-error",
      "resources-list",
      "prompts-list",
    ]) {
      const checks = run.checks.get(scenario) ?? [];
      expect(checks.length, scenario).toBeGreaterThan(0);
      expect(
        checks.filter((c) => c.status !== "SUCCESS"),
        scenario,
      ).toEqual([]);
    }
  });

  it("passes dns-rebinding-protection: a foreign Host/Origin gets 403 even with the token, loopback 2xx", () => {
    expect(readBaseline().has("dns-rebinding-protection")).toBe(false);
    const checks = run.checks.get("dns-rebinding-protection") ?? [];
    const byId = new Map(checks.map((c) => [c.id, c]));
    expect(byId.get("localhost-host-rebinding-rejected")).toMatchObject({
      status: "SUCCESS",
      details: { statusCode: 403 },
    });
    expect(byId.get("localhost-host-valid-accepted")).toMatchObject({
      status: "SUCCESS",
      details: { statusCode: 200 },
    });
  });
});
