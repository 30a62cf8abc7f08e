// The user scope enforced inside the tool and resource handlers, whatever the transport.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngramMcpServer } from "./create-mcp-server.js";

let dir: string;
let engram: Engram;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-mcp-scope-"));
  engram = await createEngram({ path: join(dir, "s.db"), embedder: hashEmbeddingModel(), background: false });
  await engram.add({ userId: "alice", messages: [{ role: "user", content: "My cat is called Miso" }] });
  await engram.add({ userId: "bob", messages: [{ role: "user", content: "My dog is Rex" }] });
});
afterEach(async () => {
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the handlers enforce the scope themselves (any transport)", () => {
  it("a server with allowedUsers answers another user's tool call and resource with FORBIDDEN", async () => {
    const mcp = createEngramMcpServer({ engram, allowedUsers: ["alice"] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "t", version: "0" });
    await Promise.all([mcp.connect(serverSide), client.connect(clientSide)]);
    try {
      const denied = (await client.callTool({
        name: "search_memory",
        arguments: { user_id: "bob", query: "dog" },
      })) as CallToolResult;
      expect(denied.isError).toBe(true);
      expect(denied.content[0]).toMatchObject({ text: expect.stringMatching(/^FORBIDDEN: .*"bob"/) });
      await expect(client.readResource({ uri: "engram://users/bob/stats" })).rejects.toThrow(/"bob"/);
      const mine = (await client.callTool({
        name: "search_memory",
        arguments: { user_id: "alice", query: "cat" },
      })) as CallToolResult;
      expect(mine.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
