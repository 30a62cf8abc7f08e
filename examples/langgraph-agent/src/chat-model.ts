import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { ScriptedChatModel } from "./scripted-chat-model.js";

/** A real model when OPENAI_API_KEY or an OpenAI-compatible OPENAI_BASE_URL is set; null otherwise. */
export function openAiModel(env: NodeJS.ProcessEnv = process.env): BaseChatModel | null {
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) return null;
  return new ChatOpenAI({
    model: env.OPENAI_MODEL ?? "gpt-4o-mini",
    temperature: 0,
    // Local OpenAI-compatible servers (Ollama, vLLM) accept any key.
    apiKey: env.OPENAI_API_KEY ?? "not-needed",
    ...(env.OPENAI_BASE_URL ? { configuration: { baseURL: env.OPENAI_BASE_URL } } : {}),
  });
}

/** The demo conversation's model turns, scripted: save the fact, confirm, then answer from memory. */
export function demoScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    () =>
      new AIMessage({
        content: "",
        tool_calls: [
          { id: "call-1", name: "remember_fact", args: { fact: "The user's cat is called Miso." } },
        ],
      }),
    () => new AIMessage("Noted: your cat is called Miso."),
    (messages) => {
      const prompt = messages.map((m) => m.text).join("\n");
      return new AIMessage(
        prompt.includes("Miso") ? "Your cat is called Miso." : "I don't know your cat's name.",
      );
    },
  ]);
}
