// The TypeScript snippets of docs/mcp.md, compiled and run. Keep the two in step.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, expect, it } from "vitest";
import { createEngramMcpServer, generateToken, startHttpServer } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "engram-mcp-docs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("docs: serve over HTTP from your own program, and call it with the SDK client", async () => {
  const path = join(dir, "http.db");
  // --- snippet: http ---
  const engram = await createEngram({ path, embedder: hashEmbeddingModel() });
  const token = generateToken(); // 256 random bits; or your own, from: openssl rand -base64 32
  const server = await startHttpServer({ engram, port: 0, token });

  const client = new Client({ name: "my-agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  await client.callTool({
    name: "add_memory",
    arguments: { user_id: "maya", user_input: "I'm vegetarian", agent_response: "Noted!" },
  });
  const memory = await client.callTool({
    name: "retrieve_memory",
    arguments: { user_id: "maya", query: "dinner ideas?" },
  });
  // --- end ---
  expect(JSON.stringify(memory.content)).toContain("vegetarian");
  await client.close();
  await server.close();
  await engram.close();
});

it("docs: scoped tokens and allowed hosts given in code", async () => {
  const engram = await createEngram({ path: join(dir, "scoped.db"), embedder: hashEmbeddingModel() });
  // --- snippet: scoped ---
  const server = await startHttpServer({
    engram,
    port: 0,
    tokens: [
      { name: "alice-laptop", token: "p0bcHqtmJ4vB0W3nY1Jk2Rr8G6mXc9sQyZ5dLwE7uT", users: ["alice"] },
      { name: "ops", token: "Vd8sKq2LmN5xRf0wTj7yBc3hGz9aPe4uXk6iQo1nWr", admin: true },
    ],
    allowedHosts: ["mcp.example.com"],
  });
  // --- end ---
  expect(server.hostNames).toContain("mcp.example.com");
  const client = new Client({ name: "t", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: "Bearer p0bcHqtmJ4vB0W3nY1Jk2Rr8G6mXc9sQyZ5dLwE7uT" } },
    }),
  );
  const added = await client.callTool({ name: "add_memory", arguments: { user_input: "I'm vegetarian" } });
  expect(added.structuredContent).toMatchObject({ user_id: "alice" });
  await expect(
    client.callTool({ name: "get_user_profile", arguments: { user_id: "bob" } }),
  ).rejects.toMatchObject({ code: 403, message: expect.stringContaining("may not use user") });
  await client.close();
  await server.close();
  await engram.close();
});

it("docs: the server on any transport, here in-memory", async () => {
  const path = join(dir, "mem.db");
  // --- snippet: transport ---
  const engram = await createEngram({ path, embedder: hashEmbeddingModel() });
  const server = createEngramMcpServer({ engram, defaultUserId: "maya" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  // --- end ---
  const client = new Client({ name: "t", version: "0" });
  await client.connect(clientSide);
  expect((await client.listTools()).tools.length).toBe(11);
  await client.close();
  await engram.close();
});
