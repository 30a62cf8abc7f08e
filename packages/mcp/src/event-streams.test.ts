// GET event streams over real HTTP: bounded per token and overall, and closed when idle.
import { mkdtempSync, rmSync } from "node:fs";
import { type ClientRequest, type IncomingMessage, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Engram, ValidationError } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStreamLimiter } from "./event-streams.js";
import { type HttpServerHandle, type HttpServerOptions, startHttpServer } from "./http-server.js";

const ALICE = "alice-Wm3Qx9LbT2vKc7RdY0hNf5Zs8JpE4gUa";
const BOB = "bob-Hy6Dn1VqS8kXr3MwC0jLt9PbG5eZa2Fu";
let dir: string;
let engram: Engram;
const servers: HttpServerHandle[] = [];
const open: ClientRequest[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-mcp-streams-"));
  engram = await createEngram({ path: join(dir, "e.db"), embedder: hashEmbeddingModel() });
});
afterEach(async () => {
  for (const req of open.splice(0)) req.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(options: Partial<HttpServerOptions>): Promise<number> {
  const server = await startHttpServer({
    engram,
    port: 0,
    tokens: [
      { token: ALICE, users: ["alice"] },
      { token: BOB, users: ["bob"] },
    ],
    ...options,
  });
  servers.push(server);
  return Number(new URL(server.url).port);
}

interface Stream {
  readonly status: number;
  readonly headers: IncomingMessage["headers"];
  /** The body so far; for a refusal, the whole JSON-RPC error. */
  readonly text: () => string;
  /** Resolves when the server ends the response. */
  readonly ended: Promise<void>;
}

/** A GET on /mcp asking for an event stream; resolves once the response headers arrive. */
function getStream(port: number, token: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "GET",
        headers: { accept: "text/event-stream", authorization: `Bearer ${token}` },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        const ended = new Promise<void>((done) => res.on("end", done));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: () => text, ended });
      },
    );
    open.push(req);
    req.on("error", reject);
    req.end();
  });
}

describe("GET event streams", () => {
  it("are bounded per token (429) and overall (503), each with Retry-After, and a closed one frees its slot", async () => {
    const port = await serve({ maxStreams: 3, maxStreamsPerToken: 2, streamIdleTimeoutMs: 60_000 });
    const mine = [await getStream(port, ALICE), await getStream(port, ALICE)];
    for (const s of mine) {
      expect(s.status).toBe(200);
      expect(s.headers["content-type"]).toBe("text/event-stream");
    }

    const overToken = await getStream(port, ALICE);
    expect(overToken.status).toBe(429);
    const retry = Number(overToken.headers["retry-after"]);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    await overToken.ended;
    expect(JSON.parse(overToken.text())).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.stringMatching(/^Too Many Requests: .*maxStreamsPerToken/) },
    });

    // Bob is within his own bound, but the server is full.
    expect((await getStream(port, BOB)).status).toBe(200);
    const overAll = await getStream(port, BOB);
    expect(overAll.status).toBe(503);
    expect(Number(overAll.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    await overAll.ended;
    expect(JSON.parse(overAll.text()).error.message).toMatch(
      /^Service Unavailable: 3 event streams .*maxStreams/,
    );

    // Alice hangs up one stream: the server counts it gone and admits her again.
    open[0]?.destroy();
    let again = await getStream(port, ALICE);
    for (let i = 0; again.status !== 200 && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await getStream(port, ALICE);
    }
    expect(again.status).toBe(200);
  });

  it("closes a stream that carried nothing for the idle timeout, and admits a new one after", async () => {
    const port = await serve({ maxStreams: 1, streamIdleTimeoutMs: 150 });
    const first = await getStream(port, ALICE);
    expect(first.status).toBe(200);
    // The server ends the response by itself: a test timeout here means the stream stayed open.
    await first.ended;
    expect(first.text()).not.toContain("data:");
    const second = await getStream(port, BOB);
    expect(second.status).toBe(200);
    await second.ended;
  }, 10_000);

  it("a GET without text/event-stream in Accept gets the transport's 406 and takes no slot", async () => {
    const port = await serve({ maxStreams: 1 });
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      headers: { accept: "application/json", authorization: `Bearer ${ALICE}` },
    });
    expect(res.status).toBe(406);
    expect((await getStream(port, ALICE)).status).toBe(200);
  });

  it("maxStreams 0 offers no stream: 405 with Allow: POST, which MCP clients accept", async () => {
    const port = await serve({ maxStreams: 0 });
    const s = await getStream(port, ALICE);
    expect(s.status).toBe(405);
    expect(s.headers.allow).toBe("POST");
  });

  it.each([
    [{ maxStreams: -1 }, "maxStreams"],
    [{ maxStreamsPerToken: 0 }, "maxStreamsPerToken"],
    [{ maxStreamsPerToken: 1.5 }, "maxStreamsPerToken"],
    [{ streamIdleTimeoutMs: 0 }, "streamIdleTimeoutMs"],
    [{ streamIdleTimeoutMs: 2 ** 31 }, "streamIdleTimeoutMs"],
  ])("%j is refused at start with a ValidationError naming %s", async (options, path) => {
    const error = await serve(options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details.path).toBe(path);
  });
});

describe("the stream limiter", () => {
  it("restarts the idle timer on a message, and Retry-After counts down to the soonest deadline", () => {
    vi.useFakeTimers();
    try {
      const limiter = createStreamLimiter({ maxStreams: 1, streamIdleTimeoutMs: 10_000 });
      const key = {};
      let idle = 0;
      const admitted = limiter.admit(key, () => idle++);
      if (!("slot" in admitted)) throw new Error("expected a slot");
      vi.advanceTimersByTime(8_000);
      admitted.slot.touch();
      vi.advanceTimersByTime(8_000);
      expect(idle).toBe(0);
      expect(limiter.admit({}, () => {})).toMatchObject({ status: 503, retryAfterSeconds: 2 });
      vi.advanceTimersByTime(2_000);
      expect(idle).toBe(1);
      admitted.slot.release();
      admitted.slot.release();
      expect(limiter.openStreams).toBe(0);
      expect("slot" in limiter.admit(key, () => {})).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
