import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { companionMain } from "./companion-main.js";
import { DEFAULT_OPENAI_MODEL, modelFromEnv } from "./model-from-env.js";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "engram-companion-main-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The environment without any model configuration (the test runner's own may have some). */
function bareEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { OPENAI_API_KEY: _k, OPENAI_BASE_URL: _u, ENGRAM_MODEL: _m, ...rest } = process.env;
  return { ...rest, ...extra };
}

describe("the companion entry point", () => {
  it("without a model says how to configure one and exits non-zero, storing nothing", () => {
    const script = join(dir, "lines.txt");
    writeFileSync(script, "hello\n");
    const db = join(dir, "none.db");
    const run = spawnSync(
      process.execPath,
      ["--conditions=@engram/source", "--import", "tsx", "src/main.ts", "--script", script, "--db", db],
      { cwd: PACKAGE_DIR, env: bareEnv(), encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("needs a language model, and none is configured");
    expect(run.stderr).toContain("export OPENAI_API_KEY=");
    expect(run.stderr).toContain("export OPENAI_BASE_URL=http://127.0.0.1:11434/v1");
    expect(run.stderr).toContain("export ENGRAM_MODEL=");
    expect(existsSync(db)).toBe(false);
  });
});

/** A minimal OpenAI-compatible server: streams one fixed reply, records every request body. */
async function fakeOpenAiServer() {
  const bodies: { url: string; body: Record<string, unknown> }[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      bodies.push({ url: req.url ?? "", body: JSON.parse(raw) });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "tiny", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `${chunk({ role: "assistant", content: "Nice to " }, null)}${chunk({ content: "hear it." }, "stop")}data: [DONE]\n\n`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, bodies, close: () => server.close() };
}

/** The entry point in-process (the spawned test above covers the process wrapper). */
async function runEntry(args: string[], env: NodeJS.ProcessEnv) {
  let stdout = "";
  let stderr = "";
  const code = await companionMain(args, env, {
    stdin: process.stdin,
    stdout: { write: (c: string) => (stdout += c) },
    stderr: { write: (c: string) => (stderr += c) },
  });
  return { code, stdout, stderr };
}

describe("script mode against an OpenAI-compatible server", () => {
  it("talks through OPENAI_BASE_URL + ENGRAM_MODEL, and the next run sends the remembered turn", async () => {
    const server = await fakeOpenAiServer();
    try {
      const db = join(dir, "compat.db");
      const env = bareEnv({ OPENAI_BASE_URL: server.url, ENGRAM_MODEL: "tiny", ENGRAM_USER: "kim" });
      const first = join(dir, "first.txt");
      writeFileSync(first, "I just adopted a tortoise named Fernsby\n/quit\n");
      const one = await runEntry(["--script", first, "--db", db, "--no-embed"], env);
      expect(one.stderr).toContain("model: tiny at http://127.0.0.1:");
      expect(one.code).toBe(0);
      expect(one.stdout).toContain(
        "you> I just adopted a tortoise named Fernsby\ncompanion> Nice to hear it.\n",
      );
      const second = join(dir, "second.txt");
      writeFileSync(second, "What pet do I have?\n");
      expect((await runEntry(["--script", second, "--db", db, "--no-embed"], env)).code).toBe(0);
      expect(server.bodies.map((b) => b.url)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
      expect(server.bodies[1]?.body.model).toBe("tiny");
      expect(JSON.stringify(server.bodies[1]?.body.messages)).toContain("tortoise named Fernsby");
    } finally {
      server.close();
    }
  });
});

describe("modelFromEnv", () => {
  it("OPENAI_BASE_URL without ENGRAM_MODEL asks for the model name", () => {
    const choice = modelFromEnv({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" });
    expect(choice).toEqual({
      ok: false,
      message: expect.stringContaining("ENGRAM_MODEL is not: set it to a model the server serves"),
    });
  });

  it("OPENAI_BASE_URL + ENGRAM_MODEL: a Chat Completions model on that server, no key needed", () => {
    const choice = modelFromEnv({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", ENGRAM_MODEL: "llama3.2" });
    if (!choice.ok) throw new Error(choice.message);
    expect(choice.model).toMatchObject({ modelId: "llama3.2", provider: "openai-compatible.chat" });
    expect(choice.description).toBe("llama3.2 at http://127.0.0.1:11434/v1");
  });

  it("OPENAI_API_KEY alone: OpenAI with the default model; ENGRAM_MODEL overrides it", () => {
    const plain = modelFromEnv({ OPENAI_API_KEY: "sk-test" });
    expect(plain.ok && plain.model).toMatchObject({ modelId: DEFAULT_OPENAI_MODEL, provider: "openai.chat" });
    const named = modelFromEnv({ OPENAI_API_KEY: "sk-test", ENGRAM_MODEL: "gpt-5-mini" });
    expect(named.ok && named.model).toMatchObject({ modelId: "gpt-5-mini" });
  });
});
