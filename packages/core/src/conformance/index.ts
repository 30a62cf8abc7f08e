export {
  CONFORMANCE_OPERATIONS,
  describeStorageConformance,
  type StorageConformanceOptions,
} from "./describe-storage-conformance.js";
export { iso, makeEdge, makeRecord, makeVersion, sortedIds, stored, T0, unit } from "./records.js";
