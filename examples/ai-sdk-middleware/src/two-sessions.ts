import { type EngramMiddleware, engramMiddleware } from "@engram/ai-sdk";
import type { Engram } from "@engram/core";
import { generateText, type LanguageModel, streamText, wrapLanguageModel } from "ai";

export const FIRST_SESSION =
  "Hi, I'm Ada. I just adopted a beagle called Biscuit, and I'm allergic to peanuts.";
export const SECOND_SESSION = "What's my dog's name, and what should I avoid eating?";

export interface TwoSessionsResult {
  first: string;
  second: string;
}

/**
 * Two conversations of one user with memory in between: the first through generateText, the second,
 * days later with no shared messages, through streamText. The middleware recalls before each call and
 * writes each turn back after it.
 */
export async function twoSessions(options: {
  engram: Engram;
  model: Exclude<LanguageModel, string>;
  userId: string;
  onDelta?: (text: string) => void;
}): Promise<TwoSessionsResult> {
  const memory: EngramMiddleware = engramMiddleware({ engram: options.engram, userId: options.userId });
  const model = wrapLanguageModel({ model: options.model, middleware: memory });
  const instructions = "You are a friendly assistant. Answer in one or two sentences.";
  try {
    const first = await generateText({
      model,
      instructions,
      prompt: FIRST_SESSION,
      providerOptions: { engram: { sessionId: "monday" } },
    });
    const result = streamText({
      model,
      instructions,
      prompt: SECOND_SESSION,
      providerOptions: { engram: { sessionId: "friday" } },
    });
    let second = "";
    for await (const delta of result.textStream) {
      second += delta;
      options.onDelta?.(delta);
    }
    return { first: first.text, second };
  } finally {
    // Waits for the queued write-backs before the caller closes the engine.
    await memory.close();
  }
}
