import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/** One scripted model turn: sees the messages the model was given, returns its answer. */
export type ScriptStep = (messages: BaseMessage[]) => AIMessage;

/**
 * A chat model that plays a script, for tests and offline runs: each call takes the next step. Steps see
 * the prompt, so a script can check what the memory middleware put there.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly prompts: BaseMessage[][] = [];

  constructor(private readonly steps: ScriptStep[]) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  // Tools are named in the script's tool calls; nothing to bind.
  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const step = this.steps.shift();
    if (!step) throw new Error(`the script has no step left for call ${this.prompts.length + 1}`);
    this.prompts.push(messages);
    const message = step(messages);
    return { generations: [{ text: message.text, message }] };
  }
}
