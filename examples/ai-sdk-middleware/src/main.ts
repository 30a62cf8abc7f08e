// Memory across two sessions with the AI SDK. Offline by default (a scripted stand-in model shows what
// it was sent); with OPENAI_API_KEY or OPENAI_BASE_URL set, a real model answers.
//   pnpm --filter @engram/example-ai-sdk-middleware start
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { openAIModel, scriptedModel } from "./chat-model.js";
import { FIRST_SESSION, SECOND_SESSION, twoSessions } from "./two-sessions.js";

const dir = mkdtempSync(join(tmpdir(), "engram-example-"));
const engram = await createEngram({ path: join(dir, "engram.db") });
const real = openAIModel();
const scripted = scriptedModel([
  "Nice to meet you, Ada! Biscuit is a lovely name for a beagle.",
  "Your beagle is called Biscuit, and you should avoid peanuts.",
]);
try {
  console.log(
    `model: ${real ? "OpenAI-compatible (from the environment)" : "scripted stand-in (offline)"}\n`,
  );
  const { first, second } = await twoSessions({ engram, model: real ?? scripted.model, userId: "ada" });
  console.log(`session 1 (generateText)\n  user: ${FIRST_SESSION}\n  assistant: ${first}`);
  console.log(`session 2 (streamText)\n  user: ${SECOND_SESSION}\n  assistant: ${second}`);
  if (!real) {
    const memory = scripted.prompts[1]?.find((m) => m.role === "system" && m.content.startsWith("<memory>"));
    console.log(
      `\nmemory block the model received in session 2:\n${memory?.role === "system" ? memory.content : "(none)"}`,
    );
  }
  const stored = await engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" });
  console.log(
    `\nstored turns: ${stored.map((m) => `[${m.sessionId}] ${m.role}: ${m.text}`).join("\n              ")}`,
  );
} finally {
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
}
