// The code of docs/ai-sdk.md, compiled with the workspace so the page cannot drift from the API.
import { engramMiddleware, engramTools } from "@engram/ai-sdk";
import { createEngram, EngramError } from "@engram/core";
import { generateText, type LanguageModel, stepCountIs, streamText, wrapLanguageModel } from "ai";

type Model = Exclude<LanguageModel, string>;

export async function quickStart(baseModel: Model): Promise<void> {
  // #region quick-start
  const engram = await createEngram(); // SQLite at .engram/engram.db, offline embedder
  const memory = engramMiddleware({ engram });
  const model = wrapLanguageModel({ model: baseModel, middleware: memory });

  const { text } = await generateText({
    model,
    instructions: "You are a friendly assistant.",
    prompt: "I just adopted a beagle called Biscuit.",
    providerOptions: { engram: { userId: "ada", sessionId: "monday" } },
  });

  // Days later, a new conversation: the middleware recalls Biscuit.
  const result = streamText({
    model,
    prompt: "What is my dog called?",
    providerOptions: { engram: { userId: "ada", sessionId: "friday" } },
  });
  for await (const delta of result.textStream) process.stdout.write(delta);

  await memory.close(); // writes what is still queued
  await engram.close();
  // #endregion quick-start
  void text;
}

export function perUser(baseModel: Model, engram: Awaited<ReturnType<typeof createEngram>>) {
  // #region per-user
  const memory = engramMiddleware({
    engram,
    userId: "ada", // or per call: providerOptions.engram.userId
    agentId: "travel-bot",
    budgetTokens: 800, // memory block size; default 1,500
    toolResults: "summarize", // keep one line per tool call in the remembered answer
    writeBehind: { maxAttempts: 20 }, // retry a failing write-back longer
    onError: (error, info) => console.error(`memory ${info.stage} failed for ${info.userId}`, error),
  });
  const model = wrapLanguageModel({ model: baseModel, middleware: memory });
  // #endregion per-user
  return model;
}

export async function missingUser(model: Model): Promise<void> {
  // #region missing-user
  try {
    await generateText({ model, prompt: "Hello" }); // no userId anywhere
  } catch (error) {
    if (EngramError.isInstance(error) && error.code === "SCOPE_REQUIRED") {
      // nothing was recalled, sent or written
    }
  }
  // #endregion missing-user
}

export async function tools(baseModel: Model, engram: Awaited<ReturnType<typeof createEngram>>) {
  // #region tools
  const { text } = await generateText({
    model: baseModel,
    tools: engramTools({ engram, userId: "ada" }),
    stopWhen: stepCountIs(5),
    prompt: "Please remember that I'm allergic to peanuts.",
  });
  // #endregion tools
  return text;
}
