import type { EngramGraphMemory } from "@engram/langgraph";
import { createMiddleware } from "langchain";

/**
 * EngramGraphMemory as agent middleware: the model call sees the user's memory in its system prompt, and the
 * finished turn is written back when the agent is done. The user comes from `configurable.user_id`.
 */
export function engramMemoryMiddleware(memory: EngramGraphMemory) {
  return createMiddleware({
    name: "EngramGraphMemory",
    wrapModelCall: async (request, handler) => {
      const recalled = await memory.recall(request.messages, {
        configurable: request.runtime.configurable ?? {},
      });
      if (!recalled) return handler(request);
      return handler({ ...request, systemPrompt: `${request.systemPrompt}\n\n${recalled}`.trim() });
    },
    afterAgent: async (state, runtime) => {
      await memory.remember(state.messages, { configurable: runtime.configurable ?? {} });
      return undefined;
    },
  });
}
