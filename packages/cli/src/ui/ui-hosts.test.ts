import fs from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uiCommand } from "../commands/command-table.js";
import { runCliCaptured } from "../run-cli.js";
import { startUiServer } from "./ui-server.js";

// The Host names the inspector answers beyond loopback: --allowed-hosts, as serve mcp takes it.
let dir: string;
let engram: Engram;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-ui-hosts-"));
  engram = await createEngram({ path: path.join(dir, "engram.db"), embedder: null, background: false });
  await engram.add({ userId: "u1", messages: [{ role: "user", content: "I live in Lisbon" }] });
});

afterAll(async () => {
  await engram.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A request to the server at `origin` that says it is for `host`, as a browser reaching it by that name. */
function call(
  origin: string,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: { error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(urlPath, origin), { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the inspector's Host names", () => {
  it("answers the names in allowedHosts and takes its page's changes from them; a refusal names a flag ui takes", async () => {
    const server = await startUiServer({ engram, allowedHosts: ["inspector.example.com"] });
    try {
      const port = new URL(server.origin).port;
      const named = `inspector.example.com:${port}`;
      const auth = { authorization: `Bearer ${server.token}` };
      expect(server.hostNames).toContain("inspector.example.com");
      expect((await call(server.origin, "GET", "/api/users", { ...auth, host: named })).status).toBe(200);
      // A change from the page as served under that name: its Origin is that name.
      const [memory] = await engram.memories.list({ userId: "u1" });
      const change = { ...auth, host: named, origin: `http://${named}` };
      const deleted = await call(server.origin, "DELETE", `/api/users/u1/memories/${memory?.id}`, change);
      expect(deleted.status).toBe(200);
      // Another site's page under that name is still refused, and so is another name.
      const foreign = await call(server.origin, "DELETE", "/api/users/u1/memories/x", {
        ...change,
        origin: "http://evil.example",
      });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error).not.toMatch(/--allowed-origins/);
      const other = await call(server.origin, "GET", "/api/users", {
        ...auth,
        host: `other.example:${port}`,
      });
      expect(other.status).toBe(403);
      // Every flag a refusal suggests is one engram ui accepts.
      for (const flag of `${foreign.body.error} ${other.body.error}`.match(/--[a-z-]+/g) ?? []) {
        expect(uiCommand.usage).toContain(flag);
      }
      expect(other.body.error).toMatch(/--allowed-hosts/);
    } finally {
      await server.close();
    }
  });

  it("prints a loopback URL it answers when bound to every interface", async () => {
    const server = await startUiServer({ engram, host: "0.0.0.0", allowRemote: true });
    try {
      expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const reply = await call(server.origin, "GET", "/api/users", {
        authorization: `Bearer ${server.token}`,
      });
      expect(reply.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("refuses an --allowed-hosts entry that is not a host name, before opening the store", async () => {
    const db = path.join(dir, "none.db");
    const run = await runCliCaptured(["ui", "--allowed-hosts", "https://x.example.com", "--db", db]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^engram ui: --allowed-hosts: allowedHosts\[0\] "https:\/\/x\.example\.com" is not/,
    );
    expect(fs.existsSync(db)).toBe(false);
  });
});
