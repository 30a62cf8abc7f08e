// The storage port's conformance suite, for a backend's Vitest tests: `describeStorageConformance`, and the
// helpers it builds its records with.
export {
  CONFORMANCE_OPERATIONS,
  describeStorageConformance,
  type StorageConformanceOptions,
} from "./describe-storage-conformance.js";
export { iso, makeEdge, makeRecord, makeVersion, sortedIds, stored, T0, unit } from "./records.js";
