// A complete ONNX embedding model small enough to write in a test: a BERT-style WordPiece tokenizer and a
// graph that looks each token up in a table of word vectors and zeroes the padding. The loader under test
// reads it exactly as it reads a real sentence-transformers export (config.json, tokenizer.json,
// onnx/model.onnx); words listed as synonyms share a vector, so a search by meaning is visible.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Protobuf wire format, the few pieces an ONNX file needs. */
function varint(value: number | bigint): number[] {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const int = (field: number, value: number | bigint) => [...varint(field << 3), ...varint(value)];
function bytes(field: number, value: Uint8Array | number[]): number[] {
  return [...varint((field << 3) | 2), ...varint(value.length), ...value];
}
const str = (field: number, value: string) => bytes(field, [...new TextEncoder().encode(value)]);

const FLOAT = 1;
const INT64 = 7;
const FLOAT16 = 10;
/** 1.0 as an IEEE half-precision float. */
const HALF_ONE = 0x3c00;

function tensorType(elemType: number, dims: readonly (number | string)[]): number[] {
  const shape = dims.flatMap((d) => bytes(1, typeof d === "number" ? int(1, d) : str(2, d)));
  return bytes(1, [...int(1, elemType), ...bytes(2, shape)]);
}
const valueInfo = (name: string, elemType: number, dims: readonly (number | string)[]) => [
  ...str(1, name),
  ...bytes(2, tensorType(elemType, dims)),
];
function node(op: string, inputs: string[], outputs: string[], attributes: number[][] = []): number[] {
  return [
    ...inputs.flatMap((i) => str(1, i)),
    ...outputs.flatMap((o) => str(2, o)),
    ...str(3, `${op.toLowerCase()}_${outputs[0]}`),
    ...str(4, op),
    ...attributes.flatMap((a) => bytes(5, a)),
  ];
}
/** An INT attribute (AttributeProto type 2). */
const intAttribute = (name: string, value: number) => [...str(1, name), ...int(3, value), ...int(20, 2)];
function tensor(name: string, dims: number[], elemType: number, raw: ArrayBufferView): number[] {
  return [
    ...dims.flatMap((d) => int(1, d)),
    ...int(2, elemType),
    ...str(8, name),
    ...bytes(9, new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength)),
  ];
}

const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] as const;

export interface TinyOnnxModelOptions {
  /** The model's name, written to config.json as `_name_or_path`. */
  readonly name?: string;
  /** Groups of words that mean the same: each group shares one vector; every other word has its own. */
  readonly synonyms?: readonly (readonly string[])[];
  /** More words, each with a vector of its own. */
  readonly words?: readonly string[];
  /** Vector size. Default 24; must exceed the number of distinct meanings for them to stay orthogonal. */
  readonly dimensions?: number;
  /** Also write a sentence-transformers `1_Pooling/config.json` asking for this pooling. */
  readonly pooling?: "mean" | "cls";
  /**
   * The weights file written, as exports name them: `fp32` onnx/model.onnx (default), `q8`
   * onnx/model_quantized.onnx (the same float graph under that name), `fp16` onnx/model_fp16.onnx with
   * float16 weights and outputs.
   */
  readonly precision?: "fp32" | "fp16" | "q8";
}

const WEIGHTS_FILE = { fp32: "model.onnx", fp16: "model_fp16.onnx", q8: "model_quantized.onnx" } as const;

/**
 * Writes the model into `dir` (created). Each meaning is a one-hot vector, the special tokens zero, so the
 * mean of a text's token vectors is closest to texts sharing its meanings, synonyms included.
 */
export function writeTinyOnnxModel(dir: string, options: TinyOnnxModelOptions = {}): void {
  const groups = [...(options.synonyms ?? []), ...(options.words ?? []).map((w) => [w])];
  const dims = options.dimensions ?? 24;
  if (groups.length > dims) throw new Error(`${groups.length} meanings need at least as many dimensions`);
  const vocab = [...SPECIAL, ...groups.flat()];
  const precision = options.precision ?? "fp32";
  const half = precision === "fp16";
  const table = half ? new Uint16Array(vocab.length * dims) : new Float32Array(vocab.length * dims);
  groups.forEach((group, meaning) => {
    for (const word of group) table[vocab.indexOf(word) * dims + meaning] = half ? HALF_ONE : 1;
  });
  const real = half ? FLOAT16 : FLOAT;

  const graph = [
    ...bytes(1, node("Gather", ["embeddings", "input_ids"], ["token_vectors"], [intAttribute("axis", 0)])),
    ...bytes(1, node("Cast", ["attention_mask"], ["mask_float"], [intAttribute("to", real)])),
    ...bytes(1, node("Unsqueeze", ["mask_float", "last_axis"], ["mask_column"])),
    ...bytes(1, node("Mul", ["token_vectors", "mask_column"], ["last_hidden_state"])),
    ...str(2, "tiny_word_vectors"),
    ...bytes(5, tensor("embeddings", [vocab.length, dims], real, table)),
    ...bytes(5, tensor("last_axis", [1], INT64, new BigInt64Array([2n]))),
    ...bytes(11, valueInfo("input_ids", INT64, ["batch", "sequence"])),
    ...bytes(11, valueInfo("attention_mask", INT64, ["batch", "sequence"])),
    ...bytes(12, valueInfo("last_hidden_state", real, ["batch", "sequence", dims])),
  ];
  const model = [
    ...int(1, 8), // IR version 8
    ...str(2, "engram-test"),
    ...bytes(7, graph),
    ...bytes(8, [...str(1, ""), ...int(2, 13)]), // the default operator set, version 13
  ];

  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(join(dir, "onnx", WEIGHTS_FILE[precision]), new Uint8Array(model));
  const name = options.name ?? "engram-test/tiny-word-vectors";
  const json = (file: string, value: unknown) =>
    writeFileSync(join(dir, file), JSON.stringify(value, null, 2));
  json("config.json", {
    _name_or_path: name,
    model_type: "bert",
    hidden_size: dims,
    architectures: ["BertModel"],
  });
  const special = (token: string) => ({
    id: vocab.indexOf(token),
    content: token,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const cls = { id: "[CLS]", ids: [vocab.indexOf("[CLS]")], tokens: ["[CLS]"] };
  const sep = { id: "[SEP]", ids: [vocab.indexOf("[SEP]")], tokens: ["[SEP]"] };
  json("tokenizer.json", {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map(special),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: { "[CLS]": cls, "[SEP]": sep },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((word, id) => [word, id])),
    },
  });
  json("tokenizer_config.json", {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    model_max_length: 128,
    pad_token: "[PAD]",
    unk_token: "[UNK]",
    cls_token: "[CLS]",
    sep_token: "[SEP]",
  });
  if (options.pooling) {
    mkdirSync(join(dir, "1_Pooling"), { recursive: true });
    json(join("1_Pooling", "config.json"), {
      word_embedding_dimension: dims,
      pooling_mode_cls_token: options.pooling === "cls",
      pooling_mode_mean_tokens: options.pooling === "mean",
      pooling_mode_max_tokens: false,
    });
  }
}
