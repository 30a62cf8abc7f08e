import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A model of the stand-in: the vector of one text. */
export type StubModel = (text: string) => number[];

/** A vector of `n` dimensions from a text's letters. */
export const lettersModel =
  (n: number): StubModel =>
  (text) => {
    const v = new Array<number>(n).fill(0);
    for (const ch of text.toLowerCase()) {
      const i = ch.charCodeAt(0) % n;
      v[i] = (v[i] ?? 0) + 1;
    }
    return v;
  };

/**
 * A bag of words hashed into `n` dimensions; `synonyms` maps words onto one meaning, so such a model
 * finds "cat" for "feline" where full text and a model without them do not.
 */
export const wordsModel =
  (n: number, synonyms: Record<string, string> = {}): StubModel =>
  (text) => {
    const v = new Array<number>(n).fill(0);
    for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const word = synonyms[raw] ?? raw;
      let h = 7;
      for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
      v[h % n] = (v[h % n] ?? 0) + 1;
    }
    return v;
  };

export interface EmbeddingsStub {
  /** The base URL, ending in `/v1`. */
  readonly url: string;
  /** Texts embedded so far, by model. */
  readonly calls: Map<string, number>;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible `POST /v1/embeddings` stand-in on loopback that answers with the named model; an
 * unknown model gets OpenAI's 404 error body. `delayMs` makes each answer slow (to interrupt a run).
 */
export function embeddingsStub(
  models: Record<string, StubModel>,
  options: { readonly delayMs?: number } = {},
): Promise<EmbeddingsStub> {
  const calls = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", async () => {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      const { input, model } = JSON.parse(body) as { input: string[]; model: string };
      res.setHeader("content-type", "application/json");
      const embed = models[model];
      if (req.url !== "/v1/embeddings" || !embed) {
        res.statusCode = 404;
        res.end(
          JSON.stringify({
            error: { message: `The model ${model} does not exist`, type: "invalid_request_error" },
          }),
        );
        return;
      }
      calls.set(model, (calls.get(model) ?? 0) + input.length);
      const data = input.map((text, index) => ({ object: "embedding", index, embedding: embed(text) }));
      res.end(JSON.stringify({ object: "list", data, model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        calls,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}
