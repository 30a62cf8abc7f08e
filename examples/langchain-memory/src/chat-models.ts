import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { ChatOpenAI } from "@langchain/openai";

/** A stand-in chat model: answers with the scripted replies in turn and keeps every prompt it was given. */
export class ScriptedChatModel extends FakeListChatModel {
  readonly prompts: BaseMessage[][] = [];

  constructor(replies: string[]) {
    super({ responses: replies });
  }

  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    this.prompts.push(messages);
    return super._generate(messages, options, runManager);
  }

  /** Agents bind their tools; this stand-in calls none, so it answers as it is. */
  override bindTools(): this {
    return this;
  }
}

/**
 * A real chat model when OPENAI_API_KEY or OPENAI_BASE_URL is set (any OpenAI-compatible server; model
 * from OPENAI_MODEL, default gpt-4o-mini), else null.
 */
export function openAIChatModel(env: NodeJS.ProcessEnv = process.env): BaseChatModel | null {
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) return null;
  return new ChatOpenAI({
    model: env.OPENAI_MODEL ?? "gpt-4o-mini",
    apiKey: env.OPENAI_API_KEY ?? "not-needed",
    ...(env.OPENAI_BASE_URL ? { configuration: { baseURL: env.OPENAI_BASE_URL } } : {}),
  });
}
