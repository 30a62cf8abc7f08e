// Scoped bearer tokens over real HTTP on 127.0.0.1, and the same scope enforced inside the handlers.
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
import { type HttpServerHandle, startHttpServer } from "./http-server.js";

const ALICE = "alice-mXHvNLQiT4faw1hWDsXoVtiwv3Kg8CH0";
const ADMIN = "admin-BKKY_gl-Bdvmq0nXldhuMpaK1DfE9JqF";
let dir: string;
let engram: Engram;
let server: HttpServerHandle;
let bobsMemory: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-mcp-scope-"));
  engram = await createEngram({ path: join(dir, "s.db"), embedder: hashEmbeddingModel(), background: false });
  await engram.add({ userId: "alice", messages: [{ role: "user", content: "My cat is called Miso" }] });
  const bob = await engram.add({ userId: "bob", messages: [{ role: "user", content: "My dog is Rex" }] });
  bobsMemory = bob.ids[0] as string;
  server = await startHttpServer({
    engram,
    port: 0,
    tokens: [
      { name: "alice", token: ALICE, users: ["alice"] },
      { name: "ops", token: ADMIN, admin: true },
    ],
  });
});
afterEach(async () => {
  await server.close();
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Reply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON-RPC reply is inspected freely
  readonly body: any;
}

async function rpc(token: string, message: unknown): Promise<Reply> {
  const res = await fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(message),
  });
  return { status: res.status, body: await res.json() };
}

const tool = (token: string, name: string, args: Record<string, unknown>) =>
  rpc(token, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
const resource = (token: string, uri: string) =>
  rpc(token, { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } });

/** Everything stored for bob, to show a refused call changed nothing. */
const bobsState = async () => ({
  stats: await engram.stats({ userId: "bob" }),
  memories: (await engram.memories.list({ userId: "bob" })).map((m) => [m.id, m.text, m.version]),
});

describe("a token scoped to alice", () => {
  it.each([
    ["add_memory", { user_input: "I now own a parrot" }],
    ["retrieve_memory", { query: "pets" }],
    ["search_memory", { query: "dog" }],
    ["get_user_profile", {}],
    ["update_memory", { memory_id: "BOBS", text: "My dog is Max" }],
    ["delete_memory", { memory_id: "BOBS" }],
    ["give_feedback", { text: "Actually my dog is called Max" }],
    ["forget_user", { confirm: true }],
    ["record_trace", { task: "Book a table", steps: [{ tool: "book_table" }] }],
    ["list_skills", {}],
    ["get_skill", { skill_id: "s1" }],
  ])("gets 403 for %s naming bob, and bob's memory is untouched", async (name, args) => {
    const before = await bobsState();
    const withId = Object.fromEntries(
      Object.entries({ user_id: "bob", ...args }).map(([k, v]) => [k, v === "BOBS" ? bobsMemory : v]),
    );
    const r = await tool(ALICE, name, withId);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    expect(r.body.error.message).toBe(
      'Forbidden: this caller may not use user "bob"; it may use "alice" only',
    );
    expect(JSON.stringify(r.body)).not.toContain("Rex");
    expect(await bobsState()).toEqual(before);
  });

  it.each([
    "engram://users/bob/profile",
    "engram://users/bob/stats",
    "engram://users/b%6Fb/stats",
    "engram://users/alice/../bob/stats",
  ])("gets 403 reading %s", async (uri) => {
    const r = await resource(ALICE, uri);
    expect(r.status).toBe(403);
    expect(r.body.error.message).toContain('may not use user "bob"');
  });

  it("gets 403 for the memory_context prompt naming bob, and completes user ids with alice only", async () => {
    const prompt = (userId: string) =>
      rpc(ALICE, {
        jsonrpc: "2.0",
        id: 1,
        method: "prompts/get",
        params: { name: "memory_context", arguments: { message: "my pets?", user_id: userId } },
      });
    const denied = await prompt(" bob ");
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).not.toContain("Rex");
    const mine = await prompt("alice");
    expect(mine.body.result.messages[0].content.text).toContain("Miso");
    // Completion offers the caller's own users only: it does not reveal that bob has memory.
    for (const ref of [
      { type: "ref/prompt", name: "memory_context" },
      { type: "ref/resource", uri: "engram://users/{user_id}/stats" },
    ]) {
      for (const value of ["", "b", "a"]) {
        const r = await rpc(ALICE, {
          jsonrpc: "2.0",
          id: 1,
          method: "completion/complete",
          params: { ref, argument: { name: "user_id", value } },
        });
        expect(r.body.result.completion.values).toEqual(value === "b" ? [] : ["alice"]);
      }
    }
  });

  it("gets 403 for a batch with one message for bob, and the message for alice is not run either", async () => {
    const add = (id: number, userId: string) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "add_memory", arguments: { user_id: userId, user_input: "batch turn" } },
    });
    const r = await rpc(ALICE, [add(1, "alice"), add(2, "bob")]);
    expect(r.status).toBe(403);
    expect((await engram.stats({ userId: "alice" })).memories).toBe(1);
  });

  it("cannot reach bob's memory by id under its own user either: the engine scopes ids to users", async () => {
    const r = await tool(ALICE, "update_memory", { memory_id: bobsMemory, text: "hijacked" });
    expect(r.status).toBe(200);
    expect(r.body.result.isError).toBe(true);
    expect(r.body.result.content[0].text).toMatch(/^NOT_FOUND: /);
    expect((await engram.memories.list({ userId: "bob" }))[0]?.text).toBe("My dog is Rex");
  });

  it("works on alice, who is its default user, and lists only alice's resources", async () => {
    const added = await tool(ALICE, "add_memory", { user_input: "I also have a hamster" });
    expect(added.status).toBe(200);
    expect(added.body.result.structuredContent.user_id).toBe("alice");
    const found = await tool(ALICE, "search_memory", { user_id: "alice", query: "cat" });
    expect(JSON.stringify(found.body.result.structuredContent)).toContain("Miso");
    const stats = await resource(ALICE, "engram://users/alice/stats");
    expect(stats.status).toBe(200);
    expect(JSON.parse(stats.body.result.contents[0].text)).toMatchObject({ user_id: "alice", memories: 2 });
    const list = await rpc(ALICE, { jsonrpc: "2.0", id: 1, method: "resources/list", params: {} });
    expect(list.body.result.resources.map((r: { uri: string }) => r.uri).sort()).toEqual([
      "engram://users/alice/profile",
      "engram://users/alice/stats",
    ]);
  });

  it("may forget alice, its own user, and bob stays", async () => {
    const r = await tool(ALICE, "forget_user", { user_id: "alice", confirm: true });
    expect(r.status).toBe(200);
    expect(r.body.result.structuredContent).toMatchObject({ user_id: "alice", removed: { memories: 1 } });
    expect(await engram.users()).toEqual(["bob"]);
  });
});

describe("an admin token and unknown tokens", () => {
  it("the admin token reads and forgets any user; a token not in the list gets 401", async () => {
    expect((await tool("not-a-listed-token-0123456789", "get_user_profile", { user_id: "bob" })).status).toBe(
      401,
    );
    const found = await tool(ADMIN, "search_memory", { user_id: "bob", query: "dog" });
    expect(JSON.stringify(found.body.result.structuredContent)).toContain("Rex");
    expect((await resource(ADMIN, "engram://users/bob/profile")).status).toBe(200);
    const forgot = await tool(ADMIN, "forget_user", { user_id: "bob", confirm: true });
    expect(forgot.body.result.isError).toBeFalsy();
    expect(await engram.users()).toEqual(["alice"]);
  });

  it("a body that is not JSON gets 400 (-32700) after the token is checked, and runs nothing", async () => {
    const res = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${ALICE}`,
      },
      body: '{"jsonrpc": "2.0", "id": 1, "method": "tools/call",',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32700 } });
  });

  it.each([
    "APPLICATION/JSON",
    "Application/Json",
    "application/json; charset=utf-8",
    'application/JSON ; charset="UTF-8"',
    "application/json;",
  ])("checks the user of a body sent as %j like any JSON body: 403, and bob untouched", async (type) => {
    const before = await bobsState();
    const res = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": type,
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${ALICE}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "forget_user", arguments: { user_id: "bob", confirm: true } },
      }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^Forbidden: this caller may not use user "bob"/,
    );
    expect(await bobsState()).toEqual(before);
  });

  it.each(["text/plain", "text/plain; a=application/json", "application/jsonx", ""])(
    "refuses a body sent as %j with 415 before anything runs",
    async (type) => {
      const before = await bobsState();
      const res = await fetch(server.url, {
        method: "POST",
        headers: {
          ...(type ? { "content-type": type } : {}),
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${ADMIN}`,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "forget_user", arguments: { user_id: "bob", confirm: true } },
        }),
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({
        error: { code: -32000, message: expect.stringMatching(/^Unsupported Media Type/) },
      });
      expect(await bobsState()).toEqual(before);
    },
  );

  it("token and tokens together are refused at start", async () => {
    await expect(
      startHttpServer({ engram, port: 0, token: ADMIN, tokens: [{ token: ALICE, users: ["alice"] }] }),
    ).rejects.toThrow(/pass token or tokens, not both/);
  });
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
      await expect(
        client.getPrompt({ name: "memory_context", arguments: { message: "pets", user_id: "bob" } }),
      ).rejects.toThrow(/may not use user "bob"/);
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
