// The storage port's conformance suite, for a backend's Vitest tests: `describeStorageConformance`.
export {
  CONFORMANCE_OPERATIONS,
  describeStorageConformance,
  iso,
  makeEdge,
  makeRecord,
  makeVersion,
  type StorageConformanceOptions,
  sortedIds,
  stored,
  T0,
  unit,
} from "./conformance/index.js";
