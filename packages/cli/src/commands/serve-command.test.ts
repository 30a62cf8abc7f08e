import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-serve-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
const TOKEN = "serve-test-token-0123456789";

describe("engram serve", () => {
  it.each([
    [["serve"], /missing TARGET/],
    [["serve", "rest"], /unknown server "rest"; expected: engram serve mcp/],
    [["serve", "mcp", "--port", "9000"], /--port applies to the HTTP transport only; add --http/],
    [["serve", "mcp", "--http", "--port", "99999"], /bad --port "99999"/],
    [
      ["serve", "mcp", "--http", "--host", "0.0.0.0"],
      /refusing to serve MCP on 0\.0\.0\.0 without a bearer token/,
    ],
    [["serve", "mcp", "--http", "--token", "abc"], /bearer token is too short/],
    [
      ["serve", "mcp", "--allowed-hosts", "mcp.example.com"],
      /--allowed-hosts applies to the HTTP transport only/,
    ],
    [["serve", "mcp", "--http", "--allowed-hosts", "https://x.example.com"], /allowedHosts\[0\]/],
  ])("%j is a usage error and opens no store", async (argv, message) => {
    const db = join(dir, "u.db");
    const r = await runCliCaptured([...argv, "--db", db], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
    expect(existsSync(db)).toBe(false);
  });

  it("serve mcp --http answers with the token, 401 without, and stops cleanly on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["--conditions=@engram/source", "--import", "tsx", "src/bin.ts", "serve", "mcp", "--http"].concat([
        "--port",
        "0",
        "--token",
        TOKEN,
        "--db",
        join(dir, "s.db"),
        "--no-embed",
        "--user",
        "ada",
      ]),
      { cwd: PACKAGE_DIR, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (d) => {
        stderr += d;
        const m = /on (http:\/\/\S+\/mcp)/.exec(stderr);
        if (m?.[1]) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "add_memory", arguments: { user_input: "I grow chilli peppers" } },
        }),
      });
    expect((await post({})).status).toBe(401);
    const ok = await post({ authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { result: { structuredContent: { user_id: string } } };
    expect(body.result.structuredContent.user_id).toBe("ada");
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).not.toContain(TOKEN);
  });
});
