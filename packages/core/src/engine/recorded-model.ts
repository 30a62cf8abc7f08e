import type { LanguageModel } from "../ai/index.js";
import type { EventSink } from "../model/index.js";
import type { StoragePort } from "../storage/index.js";

/** The store setting naming the language model that writes its facts, summaries and profiles. */
export const LANGUAGE_MODEL_SETTING = "language-model";

/** `openai.chat/gpt-4o-mini`: the provider and model id an AI SDK model reports. */
export function languageModelId(model: LanguageModel): string {
  const { provider, modelId } = model as { provider?: unknown; modelId?: unknown };
  return typeof provider === "string" && typeof modelId === "string"
    ? `${provider}/${modelId}`
    : "an unnamed language model";
}

/**
 * Records in the store which language model this engine extracts with. Unlike vectors, text written by
 * two models mixes safely, so another model is not refused: the change is recorded and reported
 * (`model.changed`), and what the earlier model wrote stays as it is. A read-only store is only read.
 */
export async function recordLanguageModel(
  storage: StoragePort,
  current: string,
  report: { events: EventSink; at: () => string },
): Promise<void> {
  const previous = await storage.readSetting(LANGUAGE_MODEL_SETTING);
  if (previous === current) return;
  if (!storage.readOnly) await storage.writeSetting(LANGUAGE_MODEL_SETTING, current);
  if (previous !== null) report.events({ type: "model.changed", at: report.at(), previous, current });
}
