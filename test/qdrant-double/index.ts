/**
 * A strict in-process stand-in for a Qdrant server, for tests only (never exported from a package).
 * Every request is validated against Qdrant's official OpenAPI spec before it has any effect.
 */
export type {
  FaultKind,
  FaultPlan,
  QdrantDouble,
  QdrantDoubleOptions,
  RecordedRequest,
} from "./double-types.js";
export { startQdrantDouble } from "./start-qdrant-double.js";
