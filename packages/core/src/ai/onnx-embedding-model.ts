import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { UnsupportedError, ValidationError } from "../errors/index.js";
import { normalize } from "../model/index.js";
import { combineWindows, embeddingWindows } from "./embedding-windows.js";
import { importOptionalPeer } from "./optional-peer.js";

/** How a model's token vectors become one vector per text. */
export type OnnxPooling = "mean" | "cls";

export interface OnnxEmbeddingOptions {
  /**
   * Default: what the model's sentence-transformers `1_Pooling/config.json` asks for (CLS for BGE, mean
   * for MiniLM and E5), else mean.
   */
  readonly pooling?: OnnxPooling;
}

/** Weights files transformers.js reads from `onnx/`, best first, with the precision each one is in. */
const WEIGHTS = [
  ["model.onnx", "fp32"],
  ["model_fp16.onnx", "fp16"],
  ["model_quantized.onnx", "q8"],
] as const;

const REQUIRED = ["config.json", "tokenizer.json", "tokenizer_config.json"] as const;
const LAYOUT =
  "config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx (or model_fp16.onnx, " +
  "model_quantized.onnx), as a model exported for transformers.js has them";

/** Characters per token assumed when a text is cut to fit the model: English runs about four. */
const CHARS_PER_TOKEN = 3;

/**
 * A local ONNX sentence-embedding model (a sentence-transformers model exported for transformers.js:
 * MiniLM, BGE, GTE, E5, nomic) run on the CPU by `@huggingface/transformers`, from files on disk only:
 * nothing is downloaded, whatever transformers.js's global settings say. Its identity in the store is the
 * model's name (its config's `_name_or_path`, else the folder's name), the weights' precision and the
 * pooling, `NAME:fp32:mean`: vectors made another way are refused, not mixed. The model is loaded and
 * tried on one text here, so a folder that cannot embed fails now, with the folder named.
 */
export async function onnxEmbeddingModel(
  dir: string,
  options: OnnxEmbeddingOptions = {},
): Promise<EmbeddingModelV4> {
  const root = resolve(dir.replace(/^~(?=$|[/\\])/, homedir()));
  const where = `onnx:${root}`;
  const bad = (problem: string, cause?: unknown) =>
    new ValidationError(`${where}: ${problem}`, {
      details: { path: "embedder" },
      ...(cause ? { cause } : {}),
    });
  if (!existsSync(root)) throw bad(`no such folder (expected one holding ${LAYOUT})`);
  if (!statSync(root).isDirectory()) throw bad(`a file, not a folder (expected one holding ${LAYOUT})`);
  const weights = WEIGHTS.find(([file]) => existsSync(join(root, "onnx", file)));
  const missing: string[] = REQUIRED.filter((file) => !existsSync(join(root, file)));
  if (weights === undefined) missing.push("onnx/model.onnx");
  if (missing.length > 0) throw bad(`${missing.join(", ")} not found (expected ${LAYOUT})`);
  const config = readJson(join(root, "config.json"), bad);
  const named = config._name_or_path;
  const name = typeof named === "string" && named.trim() !== "" ? named.trim() : basename(root);
  const pooling = options.pooling ?? poolingOf(root, where, bad);
  if (pooling !== "mean" && pooling !== "cls") {
    throw new ValidationError(`onnx: bad pooling ${JSON.stringify(pooling)}: expected "mean" or "cls"`, {
      details: { path: "pooling" },
    });
  }
  const [, precision] = weights as (typeof WEIGHTS)[number];

  const { pipeline } = await importOptionalPeer(
    () => import("@huggingface/transformers"),
    "@huggingface/transformers",
    "an onnx: embedder",
  );
  // An absolute path is never taken for a hub name, and `local_files_only` forbids any download.
  let extract: Awaited<ReturnType<typeof pipeline<"feature-extraction">>>;
  try {
    extract = await pipeline("feature-extraction", root, {
      local_files_only: true,
      dtype: precision,
      device: "cpu",
    });
  } catch (cause) {
    throw bad(`the model does not load: ${(cause as Error).message ?? cause}`, cause);
  }
  const run = async (texts: string[]): Promise<number[][]> => {
    const output = await extract(texts, { pooling, normalize: false });
    try {
      // Without Float16Array the pooling of float16 outputs averages raw bits: refused, never stored.
      if (output.type !== "float32") {
        throw new UnsupportedError(
          `${where}: the model's outputs are ${output.type}, not float32; use its model.onnx or model_quantized.onnx`,
        );
      }
      return output.tolist() as number[][];
    } finally {
      output.dispose();
    }
  };
  let dimensions: number;
  try {
    dimensions = (await run(["a test sentence"]))[0]?.length ?? 0;
  } catch (cause) {
    // The refused model's native session is let go now, not when the collector gets to it.
    await extract.dispose();
    if (cause instanceof UnsupportedError) throw cause;
    throw bad(`the model loads but does not embed: ${(cause as Error).message ?? cause}`, cause);
  }
  // The tokenizer cuts what is longer than the model reads; a long text goes as pieces, averaged.
  const stated = Number((extract.tokenizer as { model_max_length?: unknown }).model_max_length);
  const positions = Number(config.max_position_embeddings);
  const maxTokens =
    Number.isFinite(stated) && stated < 100_000 ? stated : Number.isFinite(positions) ? positions : 512;
  const pieces = { windowChars: Math.max(100, (maxTokens - 2) * CHARS_PER_TOKEN), maxWindows: 8 };

  return {
    specificationVersion: "v4",
    provider: "onnx",
    modelId: `${name}:${precision}:${pooling}`,
    maxEmbeddingsPerCall: 32,
    supportsParallelCalls: false,
    async doEmbed({ values }) {
      // A blank text gets the zero vector (it matches nothing), as with the offline model.
      const cut = values.map((v) => (v.trim() ? embeddingWindows(v.trim(), pieces) : []));
      const rows = cut.some((c) => c.length > 0) ? await run(cut.flat()) : [];
      let next = 0;
      const embeddings = cut.map((own) => {
        if (own.length === 0) return new Array<number>(dimensions).fill(0);
        const vectors = rows.slice(next, next + own.length).map((r) => normalize(r));
        next += own.length;
        return [
          ...combineWindows(
            vectors,
            own.map((p) => p.length),
          ),
        ];
      });
      return { embeddings, warnings: [] };
    },
  };
}

function readJson(path: string, bad: (problem: string, cause?: unknown) => Error): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (cause) {
    throw bad(`${basename(path)} is not readable JSON`, cause);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw bad(`${basename(path)} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** The pooling a sentence-transformers export names; mean when it names none. */
function poolingOf(root: string, where: string, bad: (problem: string) => Error): OnnxPooling {
  const file = join(root, "1_Pooling", "config.json");
  if (!existsSync(file)) return "mean";
  const modes = readJson(file, bad);
  if (modes.pooling_mode_cls_token === true) return "cls";
  if (modes.pooling_mode_mean_tokens === true) return "mean";
  const named = Object.keys(modes).filter((key) => key.startsWith("pooling_mode_") && modes[key] === true);
  throw new UnsupportedError(
    `${where}: 1_Pooling/config.json asks for ${named.join(", ") || "no pooling"}; ` +
      'only CLS and mean pooling are supported (pass pooling: "mean" or "cls" to override)',
  );
}
