import { createHash } from "node:crypto";
import fs from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../../../../test/qdrant-double/index.js";
import { startUiServer, type UiServerHandle } from "./ui-server.js";

// The inspector's JSON API over real HTTP, on SQLite and on Qdrant (the strict protocol double, as
// `engram ui --qdrant-url` serves it): access rules first, then each read and change.
let dir: string;
let engram: Engram;
let server: UiServerHandle;
let double: QdrantDouble | undefined;
let t: number;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read JSON replies field by field
  body: any;
}

function call(
  method: string,
  urlPath: string,
  options: { headers?: Record<string, string>; body?: unknown; raw?: string; token?: string | null } = {},
): Promise<Reply> {
  const url = new URL(urlPath, server.origin);
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...(options.token === null ? {} : { authorization: `Bearer ${options.token ?? server.token}` }),
    ...(method === "GET" ? {} : { origin: server.origin }),
    ...(body === undefined ? {} : { "content-type": "application/json" }),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => {
        text += c;
      });
      res.on("end", () => {
        const json = (res.headers["content-type"] ?? "").includes("json");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json ? JSON.parse(text) : text });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe.each(["sqlite", "qdrant"] as const)("inspector API on %s", (backend) => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-ui-api-"));
    t = Date.parse("2026-04-01T00:00:00.000Z");
    if (backend === "qdrant") double = await startQdrantDouble();
    engram = await createEngram({
      ...(double
        ? { storage: qdrantStorage({ url: double.url, collectionPrefix: `ui_api_${process.pid}_` }) }
        : { path: path.join(dir, "engram.db") }),
      embedder: hashEmbeddingModel(),
      background: false,
      policy: { shortTermCapacity: 1, evictionBatch: 1 },
      clock: () => {
        t += 60_000;
        return new Date(t);
      },
    });
    const turns = [
      "I live in Lisbon",
      "I love sailing on weekends",
      "I work at Freightly",
      "Any tips for Porto?",
    ];
    for (const [i, content] of turns.entries()) {
      await engram.add({
        userId: "u1",
        sessionId: `s${i}`,
        messages: [
          { role: "user", content },
          { role: "assistant", content: "Noted." },
        ],
      });
    }
    await engram.add({ userId: "u2", messages: [{ role: "user", content: "a note of u2" }] });
    await engram.flush();
    server = await startUiServer({ engram });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await engram?.close();
    await double?.close();
    double = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe("access", () => {
    it("refuses API calls without the session token or with a wrong one", async () => {
      expect((await call("GET", "/api/users", { token: null })).status).toBe(401);
      expect((await call("GET", "/api/users", { token: "x".repeat(43) })).status).toBe(401);
      expect((await call("GET", "/api/users")).status).toBe(200);
      expect(server.url).toBe(`${server.origin}/?token=${server.token}`);
      expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    });

    it("refuses a foreign Host or Origin before anything else (DNS rebinding)", async () => {
      const host = await call("GET", "/api/users", { headers: { host: "evil.example:80" } });
      expect(host.status).toBe(403);
      expect(host.body.error).toMatch(/Invalid Host/);
      expect((await call("GET", "/", { headers: { host: "evil.example" } })).status).toBe(403);
      const origin = await call("GET", "/api/users", { headers: { origin: "https://evil.example" } });
      expect(origin.status).toBe(403);
    });

    it("takes changes only from the page's own origin, even with the token", async () => {
      const [fact] = await engram.memories.list({ userId: "u1", kinds: ["fact"] });
      const target = `/api/users/u1/memories/${fact?.id}`;
      const otherPort = `http://127.0.0.1:${Number(new URL(server.origin).port) + 1}`;
      for (const origin of [undefined, otherPort, "null"]) {
        const headers: Record<string, string> = origin ? { origin } : {};
        const reply = await new Promise<number>((resolve) => {
          const req = request(
            new URL(target, server.origin),
            {
              method: "DELETE",
              headers: { authorization: `Bearer ${server.token}`, ...headers },
            },
            (res) => resolve(res.statusCode ?? 0),
          );
          req.end();
        });
        expect(reply).toBe(403);
      }
      const crossSite = await call("DELETE", target, { headers: { "sec-fetch-site": "cross-site" } });
      expect(crossSite.status).toBe(403);
      expect((await engram.memories.get({ userId: "u1", id: fact?.id as string })).id).toBe(fact?.id);
    });

    it("refuses a non-loopback address unless told, and serves the page with a strict policy", async () => {
      await expect(startUiServer({ engram, host: "0.0.0.0" })).rejects.toThrow(/--allow-remote/);
      const page = await call("GET", "/", { token: null });
      expect(page.status).toBe(200);
      expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
      // One response: the stylesheet and the modules inline, allowed by their hashes; no other inline code.
      expect(page.body).not.toContain('src="/app.js"');
      const hashes = (re: RegExp) =>
        [...String(page.body).matchAll(re)].map(
          (m) =>
            `'sha256-${createHash("sha256")
              .update(m[1] ?? "")
              .digest("base64")}'`,
        );
      const scripts = hashes(/<script(?: type="module")?>([\s\S]*?)<\/script>/g);
      expect(scripts).toHaveLength(2);
      expect(page.headers["content-security-policy"]).toContain(`script-src 'self' ${scripts.join(" ")};`);
      const styles = hashes(/<style>([\s\S]*?)<\/style>/g);
      expect(page.headers["content-security-policy"]).toContain(`style-src 'self' ${styles.join(" ")};`);
      expect(page.headers["content-security-policy"]).not.toContain("unsafe-inline");
      const script = await call("GET", "/app.js", { token: null });
      expect(script.headers["content-type"]).toMatch(/javascript/);
      // Kept by the browser and revalidated: an unchanged file is a 304 without a body.
      expect(script.headers["cache-control"]).toBe("no-cache");
      const again = await call("GET", "/app.js", {
        token: null,
        headers: { "if-none-match": String(script.headers.etag) },
      });
      expect(again.status).toBe(304);
      expect(again.body).toBe("");
      expect((await call("GET", "/api/users")).headers["cache-control"]).toBe("no-store");
      expect((await call("GET", "/../package.json", { token: null })).status).toBe(404);
    });
  });

  describe("reads", () => {
    it("lists users with counts per tier, last activity and jobs", async () => {
      const { body } = await call("GET", "/api/users");
      expect(body.users.map((u: { userId: string }) => u.userId).sort()).toEqual(["u1", "u2"]);
      const u1 = body.users.find((u: { userId: string }) => u.userId === "u1");
      expect(u1.byTier.mid).toBeGreaterThan(0);
      expect(u1.byTier.long).toBeGreaterThan(0);
      expect(u1.lastActivity).toMatch(/^2026-04-01T/);
      expect(u1.jobs).toBeTypeOf("object");
    });

    it("gives a user's pages, segments with heat parts, profile and facts with evidence", async () => {
      const { status, body } = await call("GET", "/api/users/u1");
      expect(status).toBe(200);
      expect(body.shortTerm.length).toBeGreaterThan(0);
      const segment = body.segments[0];
      expect(segment.heat).toBeCloseTo(segment.parts.visits + segment.parts.pages + segment.parts.recency);
      expect(body.profile.map((p: { value: string }) => p.value.toLowerCase())).toContain("lisbon");
      const fact = body.facts.find((f: { text: string }) => /Lisbon/.test(f.text));
      expect(fact).toMatchObject({ subject: "user" });
      expect(fact.evidence.length).toBeGreaterThan(0);
      expect((await call("GET", "/api/users/nobody")).status).toBe(404);
    });

    it("gives a memory with its edges and the evidence it links", async () => {
      const { body: user } = await call("GET", "/api/users/u1");
      const fact = user.facts[0];
      const { body } = await call("GET", `/api/users/u1/memories/${fact.id}`);
      expect(body.memory.id).toBe(fact.id);
      expect(body.history[0].event).toBe("create");
      expect(body.edges.some((e: { type: string }) => e.type === "derived_from")).toBe(true);
      expect(body.linked[fact.evidence[0]].kind).toBe("message");
      expect((await call("GET", `/api/users/u2/memories/${fact.id}`)).status).toBe(404);
    });

    it("searches with each channel's score and the context retrieve gives, counting no visits", async () => {
      const before = (await engram.memories.segments({ userId: "u1" })).map((s) => s.state.visits);
      const { status, body } = await call("GET", "/api/users/u1/search?q=sailing%20weekends&budget=400");
      expect(status).toBe(200);
      // Each backend ranks full text its own way (SQLite FTS5 BM25, Qdrant's text index), so the fused
      // order may differ; the full-text best match is about sailing on both.
      type Hit = { text: string; channels: Record<string, { rank: number; score: number } | undefined> };
      const best = (body.results as Hit[]).find((r) => r.channels.fulltext?.rank === 1);
      expect(best?.text).toMatch(/sailing/);
      expect(best?.channels.vector?.score).toBeTypeOf("number");
      // Rerank gives retrieve's turns an order: each result has its place there, or null when not kept.
      expect(body.rerank).toBe(true);
      const places = body.results.map(
        (r: { channels: { rerank: { rank: number | null; of: number } } }) => r.channels.rerank,
      );
      expect(places.every((p: { of: number }) => p.of > 0)).toBe(true);
      expect(places.some((p: { rank: number | null }) => p.rank === 1)).toBe(true);
      expect(body.context.tokens).toBeGreaterThan(0);
      expect(body.context.tokens).toBeLessThanOrEqual(400);
      expect(body.context.text).toContain("sailing");
      expect(body.context.dropped).toHaveProperty("pages");
      await engram.flush();
      expect((await engram.memories.segments({ userId: "u1" })).map((s) => s.state.visits)).toEqual(before);
      expect((await call("GET", "/api/users/u1/search?q=%20")).status).toBe(400);
      expect((await call("GET", "/api/users/u1/search?q=x&k=0")).status).toBe(400);
    });

    it("lists jobs and exports a user as a download", async () => {
      const jobs = await call("GET", "/api/users/u1/jobs");
      expect(jobs.body.jobs.every((j: { attempts: number }) => typeof j.attempts === "number")).toBe(true);
      const dump = await call("GET", "/api/users/u1/export");
      expect(dump.headers["content-disposition"]).toContain("engram-u1.json");
      expect(dump.body.memories.length).toBeGreaterThan(0);
    });
  });

  describe("changes", () => {
    it("edits a memory through the engine: a new version in its history", async () => {
      const { body: user } = await call("GET", "/api/users/u1");
      const fact = user.facts.find((f: { text: string }) => /Freightly/.test(f.text));
      const target = `/api/users/u1/memories/${fact.id}`;
      expect((await call("PATCH", target, { body: { text: " " } })).status).toBe(400);
      expect((await call("PATCH", target, { body: { text: "x", extra: 1 } })).status).toBe(400);
      expect((await call("PATCH", target, { raw: "{not json" })).status).toBe(400);
      const plain = await call("PATCH", target, { raw: "text=x", headers: { "content-type": "text/plain" } });
      expect(plain.status).toBe(415);
      expect((await call("PUT", target, { body: { text: "x" } })).status).toBe(405);
      const edited = await call("PATCH", target, { body: { text: "The user works at Harbour Labs." } });
      expect(edited.status).toBe(200);
      expect(edited.body.memory.version).toBe(fact.version + 1);
      const { body } = await call("GET", target);
      expect(body.history.map((v: { event: string }) => v.event)).toEqual(["create", "update"]);
    });

    it("applies a feedback sentence: the old fact is superseded, both ends linked", async () => {
      const reply = await call("POST", "/api/users/u1/feedback", {
        body: { text: "Actually I live in Porto now, not Lisbon." },
      });
      expect(reply.status).toBe(200);
      const old = (await engram.memories.list({ userId: "u1", kinds: ["fact"] })).find(
        (f) => /Lisbon/.test(f.text) && f.expiredAt !== null,
      );
      const { body } = await call("GET", `/api/users/u1/memories/${old?.id}`);
      expect(body.supersededBy.length).toBe(1);
      expect(body.linked[body.supersededBy[0]].text).toMatch(/Porto/);
      expect(body.changedBy).toHaveLength(1);
      expect(body.linked[body.changedBy[0]]).toMatchObject({
        feedback: true,
        text: expect.stringMatching(/^Actually/),
      });
    });

    it("deletes a memory and forgets a user only with the typed user id", async () => {
      const [message] = await engram.memories.list({ userId: "u2" });
      expect((await call("DELETE", `/api/users/u2/memories/${message?.id}`)).status).toBe(200);
      expect((await call("GET", `/api/users/u2/memories/${message?.id}`)).status).toBe(404);
      const wrong = await call("POST", "/api/users/u1/forget", { body: { confirm: "u" } });
      expect(wrong.status).toBe(400);
      const forgot = await call("POST", "/api/users/u1/forget", { body: { confirm: "u1" } });
      expect(forgot.status).toBe(200);
      expect(forgot.body.report.memories).toBeGreaterThan(0);
      expect((await engram.stats({ userId: "u1" })).memories).toBe(0);
      expect((await call("GET", "/api/users/u1")).status).toBe(404);
    });
  });
});
