import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-serve-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
const TOKEN = "serve-X2Qan0CM7U_Edf_w7X1sQRPEQM1rFx1Q";
const ALICE = "alice-Fw3uCwZrxES8-KY5wLMJxqOirM_ZxggP";
const BAD_FILE = join(dir, "bad-tokens.json");
writeFileSync(BAD_FILE, JSON.stringify({ tokens: [{ token: ALICE, users: ["alice"], admin: true }] }));
const TOKEN_FILE = join(dir, "tokens.json");
writeFileSync(TOKEN_FILE, JSON.stringify({ tokens: [{ name: "alice", token: ALICE, users: ["alice"] }] }));

/** Starts `engram serve mcp --http` on a free port and resolves with its URL once it listens. */
async function startServe(args: readonly string[]) {
  const child = spawn(
    process.execPath,
    ["--conditions=@engram/source", "--import", "tsx", "src/bin.ts", "serve", "mcp", "--http"].concat([
      "--port",
      "0",
      "--no-embed",
      ...args,
    ]),
    { cwd: PACKAGE_DIR, stdio: ["ignore", "pipe", "pipe"] },
  );
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => (out.stdout += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (d) => {
      out.stderr += d;
      const m = /on (http:\/\/\S+\/mcp)/.exec(out.stderr);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out.stderr}`)));
  });
  const stop = async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    return exited;
  };
  return { url, out, stop };
}

/** An add_memory call, for `user_id` when given, with the bearer token given. */
function addMemory(url: string, token: string | undefined, userId?: string) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "add_memory",
        arguments: { user_input: "I grow chilli peppers", ...(userId ? { user_id: userId } : {}) },
      },
    }),
  });
}

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
    [["serve", "mcp", "--http", "--token", "abc"], /bearer token is too easy to guess/],
    [
      ["serve", "mcp", "--http", "--host", "0.0.0.0", "--token", "password12345678"],
      /^engram serve: the bearer token is too easy to guess: about 10 bits/m,
    ],
    [["serve", "mcp", "--http", "--token", `${TOKEN} x`], /bearer token contains a space/],
    [
      ["serve", "mcp", "--allowed-hosts", "mcp.example.com"],
      /--allowed-hosts applies to the HTTP transport only/,
    ],
    [["serve", "mcp", "--token-file", TOKEN_FILE], /--token-file applies to the HTTP transport only/],
    [
      ["serve", "mcp", "--http", "--token-file", BAD_FILE],
      /^engram serve: token file .*bad-tokens\.json: tokens\[0\]\.admin: give admin: true or users, not both/m,
    ],
    [["serve", "mcp", "--http", "--token", TOKEN, "--token-file", TOKEN_FILE], /--token and --token-file/],
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
    const server = await startServe(["--token", TOKEN, "--db", join(dir, "s.db"), "--user", "ada"]);
    expect((await addMemory(server.url, undefined)).status).toBe(401);
    const ok = await addMemory(server.url, TOKEN);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { result: { structuredContent: { user_id: string } } };
    expect(body.result.structuredContent.user_id).toBe("ada");
    expect(await server.stop()).toBe(0);
    expect(server.out.stdout).toBe("");
    expect(server.out.stderr).not.toContain(TOKEN);
  });

  it("serve mcp --http --token-file scopes each token to its users and never prints a token", async () => {
    const server = await startServe(["--token-file", TOKEN_FILE, "--db", join(dir, "f.db")]);
    expect((await addMemory(server.url, ALICE, "bob")).status).toBe(403);
    const own = await addMemory(server.url, ALICE);
    expect(own.status).toBe(200);
    const body = (await own.json()) as { result: { structuredContent: { user_id: string } } };
    expect(body.result.structuredContent.user_id).toBe("alice");
    expect(await server.stop()).toBe(0);
    expect(server.out.stderr).toContain(`1 bearer token(s) from ${TOKEN_FILE}: 0 admin, 1 scoped`);
    expect(server.out.stderr).not.toContain(ALICE);
  });
});
