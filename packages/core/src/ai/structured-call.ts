import type {
  JSONSchema7,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
} from "@ai-sdk/provider";
import { z } from "zod";
import { ModelError } from "../errors/index.js";
import { excerptOf, parseJsonTolerant } from "./parse-json-tolerant.js";
import { providerError } from "./provider-error.js";
import { timedRequest } from "./timed-request.js";

/** Any AI SDK language model (OpenAI, OpenAI-compatible servers such as Ollama or vLLM, every provider). */
export type LanguageModel = LanguageModelV4;

export interface StructuredCallOptions<S extends z.ZodType> {
  /**
   * What the answer must look like. For providers with strict structured outputs (OpenAI), make every
   * field required: use `.nullable()` rather than `.optional()`; `.default()` is fine.
   */
  schema: S;
  system: string;
  prompt: string;
  maxOutputTokens?: number;
  temperature?: number;
  abortSignal?: AbortSignal;
  /**
   * Longest wait for one model request, in ms (default `MODEL_TIMEOUT_MS`, 120 s). A request still
   * unanswered then is aborted and fails with a retryable `ModelError` (kind `timeout`), even when the
   * model ignores its abort signal: a model that hangs must not hold a job (and its lease) for ever.
   */
  timeoutMs?: number;
  /** Called before every model request, including the retry, so callers can count calls. */
  onCall?: () => void;
}

/** Default longest wait for one model request. */
export const MODEL_TIMEOUT_MS = 120_000;

/** The bad answer kept in the retry conversation is cut to this many characters. */
const MAX_ECHO_CHARS = 4000;
const MAX_ISSUES = 8;

/**
 * One structured request: asks for JSON matching `schema`, parses it tolerantly and validates it.
 * An unusable answer gets exactly one retry that shows the model its answer and what was wrong;
 * a second failure throws ModelError with `details.retryable` true. Provider failures throw ModelError
 * at once, `details.retryable` telling the scheduler whether back-off may help.
 */
export async function structuredCall<S extends z.ZodType>(
  model: LanguageModel,
  options: StructuredCallOptions<S>,
): Promise<z.output<S>> {
  const jsonSchema = describeSchema(options.schema);
  const system = `${options.system}\n\n${formatInstruction(jsonSchema)}`;
  const prompt: LanguageModelV4Prompt = [
    { role: "system", content: system },
    { role: "user", content: [{ type: "text", text: options.prompt }] },
  ];
  const first = await generate(model, prompt, jsonSchema, options);
  const firstTry = interpret(first, options.schema);
  if (firstTry.ok) return firstTry.value;

  prompt.push(
    { role: "assistant", content: [{ type: "text", text: first.text.slice(0, MAX_ECHO_CHARS) }] },
    { role: "user", content: [{ type: "text", text: retryInstruction(firstTry.error) }] },
  );
  const second = await generate(model, prompt, jsonSchema, options);
  const secondTry = interpret(second, options.schema);
  if (secondTry.ok) return secondTry.value;
  throw new ModelError(
    `${modelName(model)} returned unusable output twice (${secondTry.error}); ` +
      "check that the model can follow JSON instructions, or use a larger model",
    {
      details: {
        kind: "invalid-output",
        retryable: true,
        attempts: 2,
        error: secondTry.error,
        excerpt: excerptOf(second.text),
      },
    },
  );
}

export function modelName(model: LanguageModel): string {
  return `${model.provider}/${model.modelId}`;
}

/** A compact JSON Schema for the prompt and for providers' structured-output modes. */
function describeSchema(schema: z.ZodType): JSONSchema7 | undefined {
  try {
    const json = z.toJSONSchema(schema, { target: "draft-07", io: "output", unrepresentable: "any" });
    return stripKeywords(json as JSONSchema7);
  } catch {
    return undefined;
  }
}

/** `$schema` is noise in a prompt; `default` is rejected by strict structured-output modes. */
function stripKeywords(node: JSONSchema7): JSONSchema7 {
  const { $schema: _s, default: _d, ...rest } = node;
  const walk = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(walk)
      : typeof value === "object" && value !== null
        ? stripKeywords(value as JSONSchema7)
        : value;
  const out: Record<string, unknown> = { ...rest };
  for (const key of ["items", "anyOf", "oneOf", "allOf", "additionalProperties", "not"] as const) {
    if (out[key] !== undefined) out[key] = walk(out[key]);
  }
  for (const key of ["properties", "definitions", "$defs"] as const) {
    const map = out[key] as Record<string, unknown> | undefined;
    if (map) out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, walk(v)]));
  }
  return out as JSONSchema7;
}

function formatInstruction(jsonSchema: JSONSchema7 | undefined): string {
  const shape = jsonSchema ? `It must match this JSON Schema:\n${JSON.stringify(jsonSchema)}\n` : "";
  return (
    "Answer with one JSON value and nothing else: no Markdown fences, no comments, no text before or after.\n" +
    shape
  );
}

function retryInstruction(error: string): string {
  return (
    `Your previous answer could not be used: ${error}\n` +
    "Reply again with only the corrected JSON value, matching the schema exactly."
  );
}

interface Answer {
  text: string;
  finishReason: string;
}

async function generate<S extends z.ZodType>(
  model: LanguageModel,
  prompt: LanguageModelV4Prompt,
  jsonSchema: JSONSchema7 | undefined,
  options: StructuredCallOptions<S>,
): Promise<Answer> {
  const call: LanguageModelV4CallOptions = {
    prompt,
    responseFormat: { type: "json", ...(jsonSchema ? { schema: jsonSchema } : {}), name: "answer" },
    ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  };
  let result: LanguageModelV4GenerateResult;
  try {
    result = await timedGenerate(model, call, options);
  } catch (cause) {
    if (!isUnsupported(cause)) throw providerError(modelName(model), cause, options.abortSignal);
    // A provider without JSON mode still follows the instruction in the prompt.
    const { responseFormat: _omit, ...plain } = call;
    try {
      result = await timedGenerate(model, plain, options);
    } catch (again) {
      throw providerError(modelName(model), again, options.abortSignal);
    }
  }
  return { text: answerText(result), finishReason: result.finishReason.unified };
}

/** One request under the call's timeout (and its caller's signal); a model that ignores the abort is left. */
function timedGenerate(
  model: LanguageModel,
  call: LanguageModelV4CallOptions,
  options: StructuredCallOptions<z.ZodType>,
): Promise<LanguageModelV4GenerateResult> {
  options.onCall?.();
  const timeoutMs = options.timeoutMs ?? MODEL_TIMEOUT_MS;
  return timedRequest(
    timeoutMs,
    (abortSignal) => model.doGenerate({ ...call, abortSignal }),
    options.abortSignal,
  );
}

function isUnsupported(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === "AI_UnsupportedFunctionalityError";
}

function answerText(result: LanguageModelV4GenerateResult): string {
  if (result.structuredOutputText !== undefined) return result.structuredOutputText;
  return result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
}

type Interpreted<T> = { ok: true; value: T } | { ok: false; error: string };

function interpret<S extends z.ZodType>(answer: Answer, schema: S): Interpreted<z.output<S>> {
  const cut = answer.finishReason === "length" ? " (the answer was cut off at maxOutputTokens)" : "";
  let value: unknown;
  try {
    value = parseJsonTolerant(answer.text);
  } catch (error) {
    return { ok: false, error: `${(error as Error).message}${cut}` };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues
    .slice(0, MAX_ISSUES)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`);
  return { ok: false, error: `the JSON does not match the schema: ${issues.join("; ")}${cut}` };
}
