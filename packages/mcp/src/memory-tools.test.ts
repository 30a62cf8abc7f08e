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
let client: Client;

async function connect(defaultUserId?: string): Promise<Client> {
  const server = createEngramMcpServer({ engram, defaultUserId });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const c = new Client({ name: "test", version: "0" });
  await Promise.all([server.connect(serverSide), c.connect(clientSide)]);
  return c;
}

async function call(name: string, args: Record<string, unknown>, c = client) {
  const result = (await c.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((p) => (p.type === "text" ? p.text : "")).join("");
  // biome-ignore lint/suspicious/noExplicitAny: structured content is JSON the test inspects freely
  return { result, text, data: (result.structuredContent ?? {}) as any };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-mcp-"));
  engram = await createEngram({ path: join(dir, "m.db"), embedder: hashEmbeddingModel(), background: false });
  client = await connect();
});

afterEach(async () => {
  await client.close();
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the memory_context prompt", () => {
  it("puts the memory context for the message before it, for the default or a named user", async () => {
    await engram.add({
      userId: "maya",
      messages: [{ role: "user", content: "My telescope is named Copernicus" }],
    });
    const c = await connect("maya");
    try {
      const { prompts } = await c.listPrompts();
      expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required ?? false])])).toEqual([
        [
          "memory_context",
          [
            ["message", true],
            ["user_id", false],
          ],
        ],
      ]);
      const got = await c.getPrompt({
        name: "memory_context",
        arguments: { message: "What is my telescope called?" },
      });
      const text = got.messages[0]?.content.type === "text" ? got.messages[0].content.text : "";
      expect(text).toContain("Copernicus");
      expect(text.endsWith("\n\nWhat is my telescope called?")).toBe(true);
      const other = await c.getPrompt({
        name: "memory_context",
        arguments: { message: "hi", user_id: "nobody" },
      });
      expect(other.messages[0]?.content).toMatchObject({
        text: expect.stringContaining("nothing is remembered"),
      });
      await expect(c.getPrompt({ name: "memory_context", arguments: { message: " " } })).rejects.toThrow(
        /message must not be empty/,
      );
      // Completion offers the default user only: a shared server does not list who else has memory.
      const done = await c.complete({
        ref: { type: "ref/prompt", name: "memory_context" },
        argument: { name: "user_id", value: "m" },
      });
      expect(done.completion.values).toEqual(["maya"]);
    } finally {
      await c.close();
    }
  });

  it("without a default user, asks for user_id", async () => {
    await expect(client.getPrompt({ name: "memory_context", arguments: { message: "hi" } })).rejects.toThrow(
      /user_id: required/,
    );
  });
});

describe("every tool over the in-memory transport", () => {
  it("lists the eleven tools with input schemas an agent can follow", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "add_memory",
      "delete_memory",
      "forget_user",
      "get_skill",
      "get_user_profile",
      "give_feedback",
      "list_skills",
      "record_trace",
      "retrieve_memory",
      "search_memory",
      "update_memory",
    ]);
    const add = tools.find((t) => t.name === "add_memory");
    expect(add?.inputSchema.required).toEqual(["user_input"]);
    expect(tools.every((t) => (t.description ?? "").length > 60)).toBe(true);
  });

  it("add_memory, retrieve_memory and search_memory round trip", async () => {
    const added = await call("add_memory", {
      user_id: "ada",
      user_input: "My sister Ingrid lives in Trondheim",
      agent_response: "Noted, Ingrid in Trondheim.",
      timestamp: "2026-03-01T09:00:00Z",
      session_id: "s1",
    });
    expect(added.result.isError).toBeFalsy();
    expect(added.data).toMatchObject({ user_id: "ada", status: expect.any(String) });
    expect(added.data.ids).toHaveLength(2);

    const retrieved = await call("retrieve_memory", { user_id: "ada", query: "Where does Ingrid live?" });
    expect(retrieved.text).toContain("Trondheim");
    const pages = retrieved.data.pages as { id: string; at: string }[];
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.every((p) => added.data.ids.includes(p.id) && p.at === "2026-03-01T09:00:00.000Z")).toBe(
      true,
    );

    const found = await call("search_memory", { user_id: "ada", query: "Ingrid Trondheim", k: 5 });
    expect(found.data.results[0]).toMatchObject({ kind: "message", text: expect.stringContaining("Ingrid") });
    // Both words of the query are in the best result: relevance 1, which min_score 0.9 keeps.
    expect(found.data.results[0].relevance).toBe(1);
    const strict = await call("search_memory", { user_id: "ada", query: "Ingrid Trondheim", min_score: 0.9 });
    const relevances = strict.data.results.map((r: { relevance: number }) => r.relevance);
    expect(relevances.length).toBeGreaterThan(0);
    expect(relevances.every((r: number) => r >= 0.9)).toBe(true);
    const bad = await call("search_memory", { user_id: "ada", query: "Ingrid", min_score: 2 });
    expect(bad.result.isError).toBe(true);
    expect(bad.text).toContain("min_score must be at most 1");
  });

  it("add_memory stores metadata, and search_memory and retrieve_memory select on it with filter", async () => {
    await call("add_memory", {
      user_id: "ada",
      user_input: "The kayak trip is in June",
      metadata: { project: "trip" },
    });
    await call("add_memory", {
      user_id: "ada",
      user_input: "The kayak club meets on Tuesday",
      metadata: { project: "club", priority: 3 },
    });
    const trip = await call("search_memory", { user_id: "ada", query: "kayak", filter: { project: "trip" } });
    expect(trip.data.results.map((r: { text: string }) => r.text)).toEqual(["The kayak trip is in June"]);
    const ranged = await call("search_memory", {
      user_id: "ada",
      query: "kayak",
      filter: { priority: { $gt: 2 } },
    });
    expect(ranged.data.results.map((r: { text: string }) => r.text)).toEqual([
      "The kayak club meets on Tuesday",
    ]);
    const context = await call("retrieve_memory", {
      user_id: "ada",
      query: "kayak",
      filter: { project: "club" },
    });
    expect(context.data.context).toContain("club meets");
    expect(context.data.context).not.toContain("trip is in June");
    const bad = await call("search_memory", {
      user_id: "ada",
      query: "kayak",
      filter: { priority: { $after: 1 } },
    });
    expect(bad.result.isError).toBe(true);
    expect(bad.text).toContain("filter.priority.$after");
  });

  it("update_memory and delete_memory change exactly the memory named", async () => {
    const { data } = await call("add_memory", { user_id: "ada", user_input: "I drive a red Volvo" });
    const id = data.ids[0] as string;
    const updated = await call("update_memory", {
      user_id: "ada",
      memory_id: id,
      text: "I drive a blue Saab",
    });
    expect(updated.data.memory).toMatchObject({ id, text: "I drive a blue Saab", version: 2 });
    expect((await call("search_memory", { user_id: "ada", query: "Saab" })).data.results).toHaveLength(1);

    const deleted = await call("delete_memory", { user_id: "ada", memory_id: id });
    expect(deleted.data).toEqual({ user_id: "ada", deleted: id });
    expect((await call("search_memory", { user_id: "ada", query: "Saab" })).data.results).toEqual([]);
    const again = await call("delete_memory", { user_id: "ada", memory_id: id });
    expect(again.result.isError).toBe(true);
    expect(again.text).toMatch(/^NOT_FOUND: .*no memory/);
  });

  it("give_feedback and get_user_profile: a correction supersedes the old fact", async () => {
    await call("add_memory", { user_id: "ada", user_input: "I live in Paris" });
    await engram.flush();
    const fb = await call("give_feedback", { user_id: "ada", text: "Actually I live in Berlin now" });
    expect(fb.result.isError).toBeFalsy();
    expect(fb.data.feedback_id).toEqual(expect.any(String));
    const profile = await call("get_user_profile", { user_id: "ada" });
    expect(profile.data.user_id).toBe("ada");
    expect(JSON.stringify(profile.data.profile)).toContain("Berlin");
    expect(JSON.stringify(profile.data.knowledge)).not.toContain("Paris");
    const bare = await call("get_user_profile", { user_id: "ada", include_knowledge: false });
    expect(bare.data.knowledge).toBeUndefined();
  });

  it("forget_user needs confirm: true, then erases the user", async () => {
    await call("add_memory", { user_id: "ada", user_input: "My PIN hint is heron" });
    const refused = await call("forget_user", { user_id: "ada" });
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toContain("confirm");
    expect(await engram.users()).toEqual(["ada"]);
    const forgot = await call("forget_user", { user_id: "ada", confirm: true });
    expect(forgot.data.removed.memories).toBe(1);
    expect(forgot.data.erasure).toEqual({ state: "erased" });
    expect(await engram.users()).toEqual([]);
  });

  it("resources: the default user's profile and stats are listed and readable", async () => {
    const c = await connect("ada");
    await call("add_memory", { user_input: "I collect kites" }, c);
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      "engram://users/ada/profile",
      "engram://users/ada/stats",
    ]);
    const stats = await c.readResource({ uri: "engram://users/ada/stats" });
    const first = stats.contents[0] as { text: string; mimeType: string };
    expect(first.mimeType).toBe("application/json");
    expect(JSON.parse(first.text)).toMatchObject({ user_id: "ada", memories: 1 });
    const profile = await c.readResource({ uri: "engram://users/ada/profile" });
    expect(JSON.parse((profile.contents[0] as { text: string }).text)).toEqual({
      user_id: "ada",
      profile: [],
    });
    await c.close();
  });
});

describe("skills", () => {
  it("record_trace three times makes a skill that list_skills, get_skill and retrieve_memory show", async () => {
    for (const restaurant of ["Nopa", "Zuni", "Delfina"]) {
      const { data } = await call("record_trace", {
        user_id: "ada",
        task: `Book a table at ${restaurant} restaurant on Friday`,
        steps: [
          { tool: "check_availability", args: { restaurant }, result: { free: true } },
          { tool: "book_table", args: { restaurant }, result: "ok" },
        ],
        answer: "Booked.",
      });
      expect(data).toMatchObject({ user_id: "ada", outcome: "success", steps: 2 });
    }
    await engram.flush();
    const { data: list } = await call("list_skills", { user_id: "ada" });
    expect(list.skills).toHaveLength(1);
    expect(list.skills[0].steps.map((s: { tool: string }) => s.tool)).toEqual([
      "check_availability",
      "book_table",
    ]);
    const { data: one } = await call("get_skill", { user_id: "ada", skill_id: list.skills[0].id });
    expect(one.skill).toMatchObject({ id: list.skills[0].id, version: 1, shared: false });
    const { data: context, text } = await call("retrieve_memory", {
      user_id: "ada",
      query: "Book a table at Flour restaurant on Friday",
    });
    expect(context.skills.map((s: { id: string }) => s.id)).toEqual([list.skills[0].id]);
    expect(text).toContain("## Skills");
    expect((await call("list_skills", { user_id: "bob" })).data.skills).toEqual([]);
    const missing = await call("get_skill", { user_id: "bob", skill_id: list.skills[0].id });
    expect(missing.result.isError).toBe(true);
    expect(missing.text).toMatch(/^NOT_FOUND: /);
  });
});

describe("scoping", () => {
  it("two users through one server never see each other's memory", async () => {
    await call("add_memory", { user_id: "ada", user_input: "My locker code is pelican 4417" });
    await call("add_memory", { user_id: "bob", user_input: "My locker code is walrus 9902" });
    for (const [user, mine, theirs] of [
      ["ada", "pelican", "walrus"],
      ["bob", "walrus", "pelican"],
    ] as const) {
      const r = await call("retrieve_memory", { user_id: user, query: "What is my locker code?" });
      expect(r.text).toContain(mine);
      expect(JSON.stringify(r.data)).not.toContain(theirs);
      const s = await call("search_memory", { user_id: user, query: `locker code ${theirs}` });
      expect(JSON.stringify(s.data)).not.toContain(theirs);
    }
    const bobsId = (await call("search_memory", { user_id: "bob", query: "walrus" })).data.results[0].id;
    const stolen = await call("delete_memory", { user_id: "ada", memory_id: bobsId });
    expect(stolen.result.isError).toBe(true);
    expect((await call("search_memory", { user_id: "bob", query: "walrus" })).data.results).toHaveLength(1);
    const peek = await client.readResource({ uri: "engram://users/ada/stats" });
    expect(JSON.parse((peek.contents[0] as { text: string }).text).memories).toBe(1);
  });

  it("the default user answers calls without user_id; no default means the call must name one", async () => {
    const c = await connect("ada");
    await call("add_memory", { user_input: "I am allergic to hazelnuts" }, c);
    expect(await engram.users()).toEqual(["ada"]);
    const noUser = await call("add_memory", { user_input: "hello" });
    expect(noUser.result.isError).toBe(true);
    expect(noUser.text).toContain("user_id");
    expect(await engram.users()).toEqual(["ada"]);
    await c.close();
  });
});

describe("invalid input", () => {
  it.each([
    ["add_memory", { user_id: "ada", user_input: "   " }, "user_input"],
    ["add_memory", { user_id: "ada", user_input: "hi", timestamp: "next tuesday" }, "timestamp"],
    ["add_memory", { user_id: "", user_input: "hi" }, "user_id"],
    ["add_memory", { user_id: "ada", user_input: 42 }, "user_input"],
    ["retrieve_memory", { user_id: "ada", query: "x", max_tokens: -5 }, "max_tokens"],
    ["search_memory", { user_id: "ada", query: "x", tier: "deep" }, "tier"],
    ["update_memory", { user_id: "ada", text: "new" }, "memory_id"],
  ])("%s with %j is an MCP error naming %s, and stores nothing", async (tool, args, field) => {
    const r = await call(tool, args);
    expect(r.result.isError).toBe(true);
    expect(r.text).toMatch(new RegExp(`\\b${field}\\b`));
    expect(await engram.users()).toEqual([]);
    expect((await engram.stats()).memories).toBe(0);
  });
});
