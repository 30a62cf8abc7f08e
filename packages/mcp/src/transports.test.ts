import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BearerTokenError, estimateTokenBits, generateToken, MIN_TOKEN_BITS } from "./bearer-token.js";
import { type HttpServerHandle, startHttpServer } from "./http-server.js";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const TOKEN = "http-Dq2mWvyck-RLrGBLVgJhtp_YA0NC8fFq";
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "engram-mcp-t-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const textOf = (r: CallToolResult) => r.content.map((p) => (p.type === "text" ? p.text : "")).join("");

describe("stdio", () => {
  it("a spawned server lists its tools, stores a turn and retrieves it", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--conditions=@engram/source", "--import", "tsx", "src/bin.ts"],
      cwd: PACKAGE_DIR,
      env: { ...process.env, ENGRAM_DB: join(dir, "stdio.db"), ENGRAM_USER: "ada", ENGRAM_EMBEDDER: "none" },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(11);
      const added = (await client.callTool({
        name: "add_memory",
        arguments: { user_input: "My telescope is named Copernicus", agent_response: "Lovely name." },
      })) as CallToolResult;
      expect(added.isError).toBeFalsy();
      const got = (await client.callTool({
        name: "retrieve_memory",
        arguments: { query: "What is my telescope called?" },
      })) as CallToolResult;
      expect(textOf(got)).toContain("Copernicus");
    } finally {
      await client.close();
    }
  });
});

describe("Streamable HTTP", () => {
  let engram: Engram;
  let server: HttpServerHandle;

  beforeEach(async () => {
    engram = await createEngram({ path: join(dir, "http.db"), embedder: hashEmbeddingModel() });
    server = await startHttpServer({ engram, port: 0, token: TOKEN });
  });
  afterEach(async () => {
    await server.close();
    await engram.close();
  });

  const listToolsRequest = (headers: Record<string, string>) =>
    fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });

  it("binds to 127.0.0.1 and rejects a request without the token, or with a wrong one, with 401", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const none = await listToolsRequest({});
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect(
      (await listToolsRequest({ authorization: "Bearer wrong-88TUMSKdpWH-yMc0Hs4JoI0HxWoG1qzy" })).status,
    ).toBe(401);
    expect((await listToolsRequest({ authorization: TOKEN })).status).toBe(401);
  });

  it("serves an MCP client that sends the token", async () => {
    const client = new Client({ name: "http-test", version: "0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      expect((await client.listTools()).tools).toHaveLength(11);
      await client.callTool({
        name: "add_memory",
        arguments: { user_id: "bob", user_input: "I play the bassoon on Sundays" },
      });
      const got = (await client.callTool({
        name: "retrieve_memory",
        arguments: { user_id: "bob", query: "Which instrument do I play?" },
      })) as CallToolResult;
      expect(textOf(got)).toContain("bassoon");
    } finally {
      await client.close();
    }
  });

  it("refuses a non-loopback address without a token, and a short token anywhere", async () => {
    await expect(startHttpServer({ engram, host: "0.0.0.0", port: 0 })).rejects.toThrow(
      /refusing to serve MCP on 0\.0\.0\.0 without a bearer token/,
    );
    await expect(startHttpServer({ engram, port: 0, token: "short" })).rejects.toThrow(/too easy to guess/);
  });

  it.each([
    ["aaaaaaaaaaaaaaaa", 4],
    ["password12345678", 10],
    ["P4ssw0rd-12345678-P4ssw0rd-12345678", 30],
    ["qwertyuiopasdfghjklzxcvbnm", 18],
    ["correcthorsebatterystaple", 117],
  ])("refuses the weak token %j on 0.0.0.0 (about %d bits) with a BearerTokenError", async (token, bits) => {
    const error = await startHttpServer({ engram, host: "0.0.0.0", port: 0, token }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BearerTokenError);
    expect((error as BearerTokenError).details).toEqual({ path: "token", problem: "weak", bits });
    expect((error as Error).message).toMatch(/^the bearer token is too easy to guess: about \d+ bits/);
    expect((error as Error).message).toContain("at least 128 needed");
    expect((error as Error).message).toContain("openssl rand -base64 32");
    expect((error as Error).message).not.toContain(token);
  });

  it.each([
    ["a space", `${TOKEN} ${TOKEN}`, /contains a space or other whitespace \(character 38\)/],
    ["a trailing newline", `${TOKEN}\n`, /ends with whitespace/],
    ["a quote", `${TOKEN}"x`, /contains "\\"" \(character 38\)/],
    ["= inside", `${TOKEN}=${TOKEN}`, /contains "=" other than at the end/],
    ["a non-ASCII letter", `${TOKEN}é`, /contains a non-ASCII character/],
  ])("refuses a token with %s at start, naming the problem", async (_, token, message) => {
    const error = await startHttpServer({ engram, host: "0.0.0.0", port: 0, token }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BearerTokenError);
    expect((error as BearerTokenError).problem).toBe("syntax");
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain("cannot be sent in an Authorization: Bearer header");
  });

  it("serves on tokens from the usual generators, base64 padding included", async () => {
    for (const token of [
      generateToken(),
      randomBytes(32).toString("base64"),
      randomBytes(32).toString("hex"),
      randomBytes(24).toString("base64url"),
    ]) {
      expect(estimateTokenBits(token)).toBeGreaterThanOrEqual(MIN_TOKEN_BITS);
      const s = await startHttpServer({ engram, port: 0, token });
      const ok = await fetch(s.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      expect(ok.status, token).toBe(200);
      await s.close();
    }
  });

  it("generates a token on loopback when none is given", async () => {
    const generated = await startHttpServer({ engram, port: 0 });
    try {
      expect(generated.generatedToken).toBe(true);
      expect(generated.token?.length).toBeGreaterThanOrEqual(32);
      const ok = await fetch(generated.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${generated.token}`,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "raw", version: "0" },
          },
        }),
      });
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { result: { serverInfo: { name: string } } };
      expect(body.result.serverInfo.name).toBe("engram");
    } finally {
      await generated.close();
    }
  });
});
