import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { HumanMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openAiModel } from "../src/chat-model.js";
import { createMemoryAgent } from "../src/memory-agent.js";

interface ChatRequest {
  model: string;
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}

/** A loopback OpenAI-compatible server: asks to save the fact once, then answers from the system prompt. */
function fakeOpenAi(requests: ChatRequest[]): Server {
  return createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const request = JSON.parse(body) as ChatRequest;
      requests.push(request);
      const hasToolResult = request.messages.some((m) => m.role === "tool");
      const system = JSON.stringify(request.messages.find((m) => m.role === "system")?.content ?? "");
      const firstTurn = requests.length === 1;
      const message = firstTurn
        ? {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_1",
                type: "function",
                function: {
                  name: "remember_fact",
                  arguments: JSON.stringify({ fact: "The user's dog is Rex." }),
                },
              },
            ],
          }
        : {
            role: "assistant",
            content: hasToolResult ? "Saved." : system.includes("Rex") ? "Rex." : "No idea.",
          };
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: 0,
          model: request.model,
          choices: [{ index: 0, message, finish_reason: firstTurn ? "tool_calls" : "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
}

let dir: string;
let server: Server;
const requests: ChatRequest[] = [];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-agent-openai-"));
  requests.length = 0;
  server = fakeOpenAi(requests);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

it("runs the agent on an OpenAI-compatible server named by OPENAI_BASE_URL", async () => {
  const { port } = server.address() as AddressInfo;
  const model = openAiModel({ OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: "local-model" });
  if (!model) throw new Error("expected a model for OPENAI_BASE_URL");
  const engram = await createEngram({
    path: join(dir, "a.db"),
    embedder: hashEmbeddingModel(),
    background: false,
  });
  const agent = createMemoryAgent(engram, model);
  const ask = async (thread: string, text: string) =>
    (
      await agent.invoke(
        { messages: [new HumanMessage(text)] },
        { configurable: { thread_id: thread, user_id: "al" } },
      )
    ).messages.at(-1)?.text;
  expect(await ask("t1", "My dog is called Rex.")).toBe("Saved.");
  expect(await ask("t2", "What is my dog called?")).toBe("Rex.");
  expect(requests[0]?.model).toBe("local-model");
  expect(requests[0]?.tools?.map((t) => t.function.name)).toEqual(["remember_fact"]);
  await engram.close();
});
