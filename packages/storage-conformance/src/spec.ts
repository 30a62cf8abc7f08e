import type { StoragePort } from "@engram/core/storage";

/** Declares one test that gets a fresh, empty store of the backend under test. */
export type ConformanceTest = (name: string, fn: (port: StoragePort) => Promise<void>) => void;

/** One operation's tests: `define` declares them through `test`, once per backend. */
export interface ConformanceSpec {
  readonly operation: string;
  readonly define: (suite: { readonly test: ConformanceTest }) => void;
}

export function conformanceSpec(operation: string, define: ConformanceSpec["define"]): ConformanceSpec {
  return { operation, define };
}
