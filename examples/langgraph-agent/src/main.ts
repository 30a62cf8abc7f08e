import { createEngram } from "@engram/core";
import { HumanMessage } from "@langchain/core/messages";
import { demoScript, openAiModel } from "./chat-model.js";
import { createMemoryAgent } from "./memory-agent.js";

/**
 * Two conversations with one user, in two threads, with a restart between them: the second thread
 * answers from what the first one stored. Uses a real model when OPENAI_API_KEY / OPENAI_BASE_URL is set.
 */
async function main(): Promise<void> {
  const path = process.argv[2] ?? ".engram/langgraph-agent.db";
  const model = openAiModel();
  if (!model) console.log("(no OPENAI_API_KEY or OPENAI_BASE_URL: playing a scripted model)\n");
  const script = model ? null : demoScript();
  const turns: [thread: string, text: string][] = [
    ["thread-1", "My cat is called Miso. Please remember that."],
    ["thread-2", "What is my cat called?"],
  ];
  for (const [threadId, text] of turns) {
    // A fresh engine per turn: the second turn runs as if the process had restarted.
    const engram = await createEngram({ path });
    try {
      const agent = createMemoryAgent(engram, model ?? (script as NonNullable<typeof script>));
      const config = { configurable: { thread_id: threadId, user_id: "alice" } };
      const result = await agent.invoke({ messages: [new HumanMessage(text)] }, config);
      console.log(`[${threadId}] user: ${text}`);
      console.log(`[${threadId}] assistant: ${result.messages.at(-1)?.text}\n`);
    } finally {
      await engram.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
