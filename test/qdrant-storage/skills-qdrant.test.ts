import { createEngram, type Engram } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";

/** Skills on the Qdrant backend: traces, distillation, versions, matching, sharing and forget. */
let double: QdrantDouble;
let engram: Engram;

beforeAll(async () => {
  double = await startQdrantDouble();
  engram = await createEngram({
    storage: qdrantStorage({ url: double.url, collectionPrefix: "skills_" }),
    embedder: hashEmbeddingModel(),
    background: false,
    tiers: false,
  });
});

afterAll(async () => {
  await engram.close();
  await double.close();
});

const run = (restaurant: string, agentId?: string) => ({
  userId: "ada",
  ...(agentId ? { agentId } : {}),
  task: `Book a table at ${restaurant} restaurant on Friday`,
  steps: [
    { tool: "check_availability", args: { restaurant }, result: { free: true } },
    { tool: "book_table", args: { restaurant }, result: "ok" },
  ],
});

it("distils, versions, matches, shares and forgets skills as on SQLite", async () => {
  for (const r of ["Nopa", "Zuni", "Delfina"]) await engram.traces.add(run(r, "concierge"));
  await engram.flush();
  const [skill] = await engram.skills.list({ userId: "ada" });
  expect(skill?.steps.map((s) => s.tool)).toEqual(["check_availability", "book_table"]);
  await engram.traces.add(run("Flour", "concierge"));
  await engram.flush();
  expect((await engram.skills.get({ userId: "ada", id: skill?.id as string })).version).toBe(2);
  expect((await engram.skills.history({ userId: "ada", id: skill?.id as string })).length).toBe(2);
  const matched = await engram.retrieve({
    userId: "ada",
    query: "Book a table at Nopa restaurant on Saturday",
  });
  expect(matched.skills.map((s) => s.skill.id)).toEqual([skill?.id]);
  expect((await engram.retrieve({ userId: "ada", query: "What is the weather in Oslo?" })).skills).toEqual(
    [],
  );
  await engram.skills.share({ userId: "ada", id: skill?.id as string, agentId: "concierge" });
  const other = await engram.retrieve({
    userId: "bo",
    agentId: "concierge",
    query: "Book a table at Zuni restaurant on Friday",
  });
  expect(other.skills).toHaveLength(1);
  expect(other.text).not.toContain("Nopa");
  await engram.forget({ userId: "ada" });
  expect(await engram.traces.list({ userId: "ada" })).toEqual([]);
  expect(await engram.skills.list({ userId: "ada" })).toEqual([]);
});
