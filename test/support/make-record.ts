// The conformance suite's record helpers, shared by the repository's storage and engine tests.
export {
  iso,
  makeEdge,
  makeRecord,
  makeVersion,
  sortedIds,
  stored,
  T0,
  unit,
} from "@engram/storage-conformance";
