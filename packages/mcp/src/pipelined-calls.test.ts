import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createEngramMcpServer } from "./create-mcp-server.js";

let dir: string;
let engram: Engram;
let client: Client;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-mcp-pipeline-"));
  engram = await createEngram({ path: join(dir, "m.db"), embedder: hashEmbeddingModel(), background: false });
  const server = createEngramMcpServer({ engram, defaultUserId: "maya" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: "test", version: "0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
});

afterEach(async () => {
  await client.close();
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
});

const text = (r: unknown) =>
  (r as CallToolResult).content.map((p) => (p.type === "text" ? p.text : "")).join("");

it("a read sent right behind a write, before its answer, sees the write (calls of one user in order)", async () => {
  for (let round = 0; round < 5; round++) {
    const fact = `My telescope number ${round} is named Copernicus${round}`;
    // Both requests are on the wire before either is answered, as a pipelining client sends them.
    const [added, retrieved, searched] = await Promise.all([
      client.callTool({ name: "add_memory", arguments: { user_input: fact } }),
      client.callTool({ name: "retrieve_memory", arguments: { query: `telescope ${round} name` } }),
      client.callTool({ name: "search_memory", arguments: { query: `Copernicus${round}` } }),
    ]);
    expect((added as CallToolResult).isError ?? false).toBe(false);
    expect(text(retrieved)).toContain(`Copernicus${round}`);
    expect(text(searched)).toContain(`Copernicus${round}`);
  }
});
