import { listNamespacesTests } from "./list-namespaces.js";
import { putGetDeleteTests } from "./put-get-delete.js";
import { searchTests } from "./search.js";
import { searchQueryTests } from "./search-query.js";
import type { StoreInitializer } from "./store-initializer.js";

export type { StoreInitializer } from "./store-initializer.js";

/** The LangGraph store contract as InMemoryStore behaves; every store implementation runs all of it. */
export function storeConformance(init: StoreInitializer): void {
  putGetDeleteTests(init);
  searchTests(init);
  searchQueryTests(init);
  listNamespacesTests(init);
}
