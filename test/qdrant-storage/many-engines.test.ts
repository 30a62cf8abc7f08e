// Fifty engines at once on one Qdrant store (the protocol double on loopback), as fifty app processes
// would run: five engines per user write the same turns at the same moment, each also its own, with a
// few requests failing. Every turn must end up stored exactly once, with its vector.
import { createEngram, type Engram } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";

const ENGINES = 50;
const USERS = 10;
const SHARED = 10;
const OWN = 2;

let double: QdrantDouble;
let engines: Engram[] = [];
beforeAll(async () => {
  double = await startQdrantDouble();
});
afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
  await double.close();
});

const at = (i: number) => new Date(Date.UTC(2026, 5, 1, 8, i)).toISOString();

it(`${ENGINES} engines writing at once lose nothing and store nothing twice`, async () => {
  engines = await Promise.all(
    Array.from({ length: ENGINES }, () =>
      createEngram({
        storage: qdrantStorage({
          url: double.url,
          collectionPrefix: "load_",
          retries: 8,
          baseDelayMs: 2,
          maxDelayMs: 20,
        }),
        embedder: hashEmbeddingModel(),
        background: false,
        tiers: false,
        logger: false,
      }),
    ),
  );
  double.injectFaults({
    rate: 0.03,
    kinds: ["503", "429"],
    retryAfterSeconds: 0,
    seed: 5,
    paths: /\/points/,
  });
  await Promise.all(
    engines.map(async (engram, e) => {
      const userId = `user-${e % USERS}`;
      // The same turns (same time, same text: one content identity) from five engines per user.
      for (let i = 0; i < SHARED; i++) {
        await engram.add({
          userId,
          at: at(i),
          messages: [{ role: "user", content: `Shared turn ${i} of ${userId} about the allotment` }],
        });
      }
      for (let i = 0; i < OWN; i++) {
        await engram.add({
          userId,
          at: at(100 + e * OWN + i),
          messages: [{ role: "user", content: `Own turn ${i} of engine ${e} about the allotment` }],
        });
      }
    }),
  );
  double.clearFaults();
  const reader = engines[0] as Engram;
  const perUser = ENGINES / USERS;
  for (let u = 0; u < USERS; u++) {
    const userId = `user-${u}`;
    const messages = (await reader.memories.list({ userId, limit: 1000 })).filter(
      (m) => m.kind === "message",
    );
    const texts = messages.map((m) => m.text);
    expect(new Set(texts).size, userId).toBe(texts.length);
    expect(texts.length, userId).toBe(SHARED + perUser * OWN);
    const stats = await reader.stats({ userId });
    expect(stats.vectors, userId).toBe(texts.length);
  }
  expect((await reader.users()).length).toBe(USERS);
  const faulted = double.requests.filter((r) => r.status === 503 || r.status === 429).length;
  expect(faulted).toBeGreaterThan(0);
}, 120_000);
