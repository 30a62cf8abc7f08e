// Memory across two sessions with LangChain.js: a classic chain, then a langchain v1 agent. Offline by
// default (a scripted stand-in model shows what it was sent); with OPENAI_API_KEY or OPENAI_BASE_URL set,
// a real model answers.
//   pnpm --filter @engram/example-langchain-memory start
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { openAIChatModel, ScriptedChatModel } from "./chat-models.js";
import { agentSessions, classicChainSessions, FIRST_SESSION, SECOND_SESSION } from "./two-sessions.js";

const dir = mkdtempSync(join(tmpdir(), "engram-example-"));
const engram = await createEngram({ path: join(dir, "engram.db") });
const real = openAIChatModel();
try {
  console.log(`model: ${real ? "OpenAI-compatible (from the environment)" : "scripted stand-in (offline)"}`);
  const chainModel =
    real ??
    new ScriptedChatModel([
      "Nice to meet you, Ada! Biscuit is a lovely name for a beagle.",
      "Your beagle is called Biscuit, and you should avoid peanuts.",
    ]);
  const chain = await classicChainSessions({ engram, llm: chainModel, userId: "ada" });
  console.log(
    `\nclassic chain\n  session 1: ${FIRST_SESSION}\n  -> ${chain.first}\n  session 2: ${SECOND_SESSION}\n  -> ${chain.second}`,
  );
  if (chainModel instanceof ScriptedChatModel) {
    console.log(`\nprompt of session 2:\n${chainModel.prompts[1]?.map((m) => m.text).join("\n")}`);
  }
  // A second user through the v1 agent: their memory is their own.
  const agentModel = real ?? new ScriptedChatModel(["Hello Ada!", "Your dog is Biscuit."]);
  const agent = await agentSessions({ engram, model: agentModel, userId: "ada-at-work" });
  console.log(`\nv1 agent (another user)\n  session 1 -> ${agent.first}\n  session 2 -> ${agent.second}`);
} finally {
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
}
