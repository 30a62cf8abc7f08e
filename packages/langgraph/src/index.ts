export { EngramCheckpointer, type EngramCheckpointerOptions } from "./checkpoint/engram-checkpointer.js";
export { EngramStore, type EngramStoreOptions } from "./store/engram-store.js";
