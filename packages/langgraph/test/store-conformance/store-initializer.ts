import type { BaseStore } from "@langchain/langgraph-checkpoint";

/** What the store conformance suite needs of an implementation: a fresh, empty store per test. */
export interface StoreInitializer {
  readonly name: string;
  create(): Promise<{ store: BaseStore; dispose(): Promise<void> }>;
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
