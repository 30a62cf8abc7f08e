import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { DoubleState } from "./double-state.js";
import type { FaultPlan, QdrantDouble, QdrantDoubleOptions, RecordedRequest } from "./double-types.js";
import { FaultDice } from "./fault-dice.js";
import { HANDLERS } from "./handlers.js";
import { RequestValidator } from "./request-validator.js";
import { serveRequest } from "./serve-request.js";
import { type LoadedSpec, loadSpec } from "./spec-operations.js";

const SPEC_FILES = {
  "1.19": new URL("./spec/openapi-v1.19.x.json", import.meta.url),
  "1.16": new URL("./spec/openapi-v1.16.x.json", import.meta.url),
} as const;

// Compiling the spec's schemas costs ~100 ms; every double in a test run shares one validator per spec.
const loaded = new Map<string, { spec: LoadedSpec; validator: RequestValidator }>();

/** The spec and its validator for `version`, compiled once per process and shared by every double. */
export function specFor(version: "1.19" | "1.16"): { spec: LoadedSpec; validator: RequestValidator } {
  let found = loaded.get(version);
  if (!found) {
    const spec = loadSpec(SPEC_FILES[version].pathname);
    found = { spec, validator: new RequestValidator(spec) };
    loaded.set(version, found);
  }
  return found;
}

/** Starts a strict Qdrant stand-in on a random loopback port. */
export async function startQdrantDouble(options: QdrantDoubleOptions = {}): Promise<QdrantDouble> {
  const { spec, validator } = specFor(options.spec ?? "1.19");
  const state: DoubleState = {
    version: options.version ?? "1.19.0",
    collections: new Map(),
    nextOperationId: 0,
  };
  const requests: RecordedRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();
  let dice: FaultDice | undefined;
  const context = {
    state,
    operations: spec.operations,
    validator,
    handlers: HANDLERS,
    apiKey: options.apiKey,
    dice: () => dice,
    record: (request: RecordedRequest) => requests.push(request),
    pending,
  };
  const server = createServer((request, response) => {
    serveRequest(context, request, response).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    injectFaults(plan: FaultPlan) {
      dice = new FaultDice(plan);
    },
    clearFaults() {
      dice = undefined;
    },
    reset() {
      state.collections.clear();
      requests.length = 0;
    },
    async close() {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
