import type { Engram } from "@engram/core";
import { createEngramMcpServer } from "@engram/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { expect } from "vitest";
import { StoreDigest } from "../store-digest.js";
import { field, hostileString, hostileValue, input, words } from "./hostile.js";

/** ana and bo may be touched; carl is outside the server's users (403). */
const user = field(fc.constantFrom("ana", "bo", "carl"));
const text = field(words);
const memoryId = field(hostileString);

const TOOLS: Record<string, fc.Arbitrary<unknown>> = {
  add_memory: input({
    user_id: user,
    user_input: text,
    agent_response: text,
    timestamp: field(fc.constantFrom("2026-01-05T10:00:00Z")),
    session_id: field(hostileString),
  }),
  retrieve_memory: input({
    user_id: user,
    query: text,
    max_tokens: field(fc.integer({ min: 0, max: 200_000 })),
  }),
  search_memory: input({
    user_id: user,
    query: text,
    k: field(fc.integer({ min: -1, max: 200 })),
    tier: field(fc.constantFrom("short", "mid", "long")),
  }),
  get_user_profile: input({ user_id: user, include_knowledge: field(fc.boolean()) }),
  update_memory: input({ user_id: user, memory_id: memoryId, text }),
  delete_memory: input({ user_id: user, memory_id: memoryId }),
  give_feedback: input({ user_id: user, text }),
  // Never a plausible user with confirm: true, so the fuzz does not erase its own data at every turn.
  forget_user: input({ user_id: field(fc.constantFrom("carl", "nobody")), confirm: hostileValue }),
};

/** A tool error an agent can act on: the engine's or the scope's code, or the SDK's input validation. */
const TYPED = /^(MCP error -32602|[A-Z_]+: )/;

export interface McpTally {
  runs: number;
  errors: number;
}

/**
 * Calls the server's tools over an in-memory transport, `runs` times, with generated arguments: every
 * result is a success or a typed tool error (never "unexpected error" or a protocol failure), and a call
 * that fails leaves the store's content unchanged.
 */
export async function fuzzMcpTools(
  engram: Engram,
  dbPath: string,
  runs: number,
  seed?: number,
): Promise<McpTally> {
  const server = createEngramMcpServer({ engram, allowedUsers: ["ana", "bo"] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "fuzz", version: "0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  await engram.add({
    userId: "ana",
    messages: [{ role: "user", content: "my sister keeps a lantern by the harbour" }],
  });
  const digest = new StoreDigest(dbPath);
  const tally: McpTally = { runs: 0, errors: 0 };
  const call = fc.oneof(...Object.entries(TOOLS).map(([name, args]) => args.map((a) => [name, a] as const)));
  try {
    await fc.assert(
      fc.asyncProperty(call, async ([name, args]) => {
        tally.runs++;
        const before = digest.digest();
        // As a wire carries them: JSON (a Date becomes a string, undefined goes), and an object or nothing.
        const wire: unknown = JSON.parse(JSON.stringify(args) ?? "null");
        const sent =
          wire !== null && typeof wire === "object" && !Array.isArray(wire)
            ? (wire as Record<string, unknown>)
            : {};
        const result = (await client.callTool({ name, arguments: sent })) as CallToolResult;
        const textOut = result.content.map((p) => (p.type === "text" ? p.text : "")).join("");
        if (!result.isError) return;
        tally.errors++;
        expect(textOut, `${name} answered an untyped error`).toMatch(TYPED);
        expect(digest.digest(), `${name} failed (${textOut.slice(0, 200)}) but changed the store`).toBe(
          before,
        );
      }),
      { numRuns: runs, ...(seed !== undefined ? { seed } : {}) },
    );
  } finally {
    digest.close();
    await client.close();
  }
  return tally;
}
