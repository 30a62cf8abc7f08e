// DNS-rebinding protection over real HTTP: node:http requests, because fetch does not let a test choose Host.
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Engram, ValidationError } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type HttpServerHandle, type HttpServerOptions, startHttpServer } from "./http-server.js";

const TOKEN = "guard-Zvp-jwro6s9-QAT6ZahJfaDPXnFAYjRX";
let dir: string;
let engram: Engram;
const servers: HttpServerHandle[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-mcp-guard-"));
  engram = await createEngram({ path: join(dir, "g.db"), embedder: hashEmbeddingModel() });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(options: Partial<HttpServerOptions> = {}): Promise<{ port: number }> {
  const server = await startHttpServer({ engram, port: 0, token: TOKEN, ...options });
  servers.push(server);
  return { port: Number(new URL(server.url).port) };
}

interface Reply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON-RPC reply is inspected freely
  readonly body: any;
}

/** An add_memory call to 127.0.0.1:port with the headers given (Host included), token unless overridden. */
function addMemory(port: number, headers: Record<string, string>): Promise<Reply> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "add_memory", arguments: { user_id: "ada", user_input: "I keep bees" } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${TOKEN}`,
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("Host header", () => {
  it("refuses a foreign Host with 403 and a JSON-RPC error, before the token or any tool is looked at", async () => {
    const { port } = await serve();
    for (const host of [
      "evil.example.com",
      `evil.example.com:${port}`,
      `127.0.0.1.evil.example.com:${port}`,
    ]) {
      const r = await addMemory(port, { host });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
      expect(r.body.error.message).toMatch(
        /^Invalid Host header "evil|^Invalid Host header "127\.0\.0\.1\.evil/,
      );
    }
    // Without a token too: a rebinding page cannot even learn whether a token is needed.
    expect((await addMemory(port, { host: "evil.example.com", authorization: "" })).status).toBe(403);
    expect((await engram.stats()).memories).toBe(0);
  });

  it("answers loopback names with the listening port or none, and refuses other ports and userinfo tricks", async () => {
    const { port } = await serve();
    for (const host of [
      `127.0.0.1:${port}`,
      "127.0.0.1",
      `localhost:${port}`,
      "localhost",
      `[::1]:${port}`,
    ]) {
      expect((await addMemory(port, { host })).status, host).toBe(200);
    }
    for (const host of [
      `localhost:${port + 1}`,
      `evil.example.com@127.0.0.1:${port}`,
      `localhost:${port}/x`,
    ]) {
      expect((await addMemory(port, { host })).status, host).toBe(403);
    }
    expect((await engram.stats({ userId: "ada" })).memories).toBe(5);
  });

  it("answers an allow-listed host, by name (listening port or none) or name:port, and still refuses others", async () => {
    const { port } = await serve({ allowedHosts: ["MCP.example.com", "proxy.example.net:8443"] });
    for (const host of [`mcp.example.com:${port}`, "mcp.example.com", "proxy.example.net:8443"]) {
      expect((await addMemory(port, { host })).status, host).toBe(200);
    }
    for (const host of ["evil.example.com", "proxy.example.net", "mcp.example.com:9999"]) {
      expect((await addMemory(port, { host })).status, host).toBe(403);
    }
  });
});

describe("Origin header", () => {
  it("refuses a foreign Origin (and the opaque origin null) with 403 even with a loopback Host", async () => {
    const { port } = await serve();
    for (const origin of ["http://evil.example.com", `http://evil.example.com:${port}`, "null"]) {
      const r = await addMemory(port, { origin });
      expect(r.status, origin).toBe(403);
      expect(r.body.error.message).toMatch(/^Invalid Origin header/);
    }
    expect((await engram.stats()).memories).toBe(0);
  });

  it("answers loopback origins on any port, and no Origin at all, but not a foreign one", async () => {
    const { port } = await serve();
    for (const origin of [`http://127.0.0.1:${port}`, "http://localhost:3000", "https://[::1]:5173"]) {
      expect((await addMemory(port, { origin })).status, origin).toBe(200);
    }
    expect((await addMemory(port, {})).status).toBe(200);
    expect((await addMemory(port, { origin: "http://localhost.evil.example.com" })).status).toBe(403);
  });

  it("answers an allow-listed origin, exactly: scheme, host and port", async () => {
    const { port } = await serve({ allowedOrigins: ["https://app.example.com"] });
    expect((await addMemory(port, { origin: "https://app.example.com" })).status).toBe(200);
    for (const origin of ["http://app.example.com", "https://app.example.com:8443", "https://example.com"]) {
      expect((await addMemory(port, { origin })).status, origin).toBe(403);
    }
  });
});

describe("allow-list options", () => {
  it.each([
    [{ allowedHosts: ["https://mcp.example.com"] }, "allowedHosts[0]"],
    [{ allowedHosts: ["ok.example.com", "*.example.com"] }, "allowedHosts[1]"],
    [{ allowedHosts: ["mcp.example.com/mcp"] }, "allowedHosts[0]"],
    [{ allowedOrigins: ["app.example.com"] }, "allowedOrigins[0]"],
    [{ allowedOrigins: ["https://app.example.com/path"] }, "allowedOrigins[0]"],
    [{ allowedOrigins: ["*"] }, "allowedOrigins[0]"],
  ])("%j is refused at start with a ValidationError naming %s", async (options, path) => {
    const error = await serve(options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details.path).toBe(path);
    expect((error as Error).message).toContain(path);
  });
});
