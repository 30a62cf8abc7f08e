import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { UnsupportedError, ValidationError } from "../errors/index.js";
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

const LAYOUT =
  "config.json, tokenizer.json and onnx/model.onnx (or model_fp16.onnx, model_quantized.onnx), " +
  "as a model exported for transformers.js has them";

/**
 * A local ONNX sentence-embedding model (a sentence-transformers model exported for transformers.js:
 * MiniLM, BGE, GTE, E5, nomic) run on the CPU by `@huggingface/transformers`, from files on disk only:
 * nothing is downloaded, whatever transformers.js's global settings say. The model's name (its
 * config's `_name_or_path`, else the folder's name) is its identity in the store.
 */
export async function onnxEmbeddingModel(
  dir: string,
  options: OnnxEmbeddingOptions = {},
): Promise<EmbeddingModelV4> {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new ValidationError(`onnx:${dir}: no such folder (expected one holding ${LAYOUT})`, {
      details: { path: "embedder" },
    });
  }
  const weights = WEIGHTS.find(([file]) => existsSync(join(root, "onnx", file)));
  const missing = ["config.json", "tokenizer.json"].filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0 || weights === undefined) {
    const absent = weights === undefined ? [...missing, "onnx/model.onnx"] : missing;
    throw new ValidationError(`onnx:${dir}: ${absent.join(", ")} not found (expected ${LAYOUT})`, {
      details: { path: "embedder" },
    });
  }
  const config = readJson(join(root, "config.json"), dir) as { _name_or_path?: unknown };
  const name =
    typeof config._name_or_path === "string" && config._name_or_path.trim() !== ""
      ? config._name_or_path.trim()
      : basename(root);
  const pooling = options.pooling ?? poolingOf(root, dir);
  if (pooling !== "mean" && pooling !== "cls") {
    throw new ValidationError(`onnx: bad pooling ${JSON.stringify(pooling)}: expected "mean" or "cls"`, {
      details: { path: "pooling" },
    });
  }

  const { pipeline } = await importOptionalPeer(
    () => import("@huggingface/transformers"),
    "@huggingface/transformers",
    "an onnx: embedder",
  );
  // An absolute path is never taken for a hub name, and `local_files_only` forbids any download.
  const extract = await pipeline("feature-extraction", root, {
    local_files_only: true,
    dtype: weights[1],
    device: "cpu",
  });
  return {
    specificationVersion: "v4",
    provider: "onnx",
    modelId: name,
    maxEmbeddingsPerCall: 32,
    supportsParallelCalls: false,
    async doEmbed({ values }) {
      // A blank text gets the zero vector (it matches nothing), as with the offline model.
      const nonEmpty = values.map((v, i) => [v.trim(), i] as const).filter(([v]) => v.length > 0);
      const embeddings: number[][] = values.map(() => []);
      if (nonEmpty.length > 0) {
        const output = await extract(
          nonEmpty.map(([v]) => v),
          { pooling, normalize: false },
        );
        const rows = output.tolist() as number[][];
        output.dispose();
        nonEmpty.forEach(([, i], j) => {
          embeddings[i] = rows[j] as number[];
        });
      }
      const size = embeddings.find((e) => e.length > 0)?.length ?? 0;
      return {
        embeddings: embeddings.map((e) => (e.length > 0 ? e : new Array<number>(size).fill(0))),
        warnings: [],
      };
    },
  };
}

function readJson(path: string, dir: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (cause) {
    throw new ValidationError(`onnx:${dir}: ${basename(path)} is not readable JSON`, {
      details: { path: "embedder" },
      cause,
    });
  }
}

/** The pooling a sentence-transformers export names; mean when it names none. */
function poolingOf(root: string, dir: string): OnnxPooling {
  const file = join(root, "1_Pooling", "config.json");
  if (!existsSync(file)) return "mean";
  const modes = readJson(file, dir) as Record<string, unknown>;
  if (modes.pooling_mode_cls_token === true) return "cls";
  if (modes.pooling_mode_mean_tokens === true) return "mean";
  const named = Object.keys(modes).filter((key) => key.startsWith("pooling_mode_") && modes[key] === true);
  throw new UnsupportedError(
    `onnx:${dir}: 1_Pooling/config.json asks for ${named.join(", ") || "no pooling"}; ` +
      'only CLS and mean pooling are supported (pass pooling: "mean" or "cls" to override)',
  );
}
