// The in-memory reference backend: the storage port written out plainly, for tests and short-lived programs.
export { MemoryStorage, memoryStorage } from "./storage/memory/index.js";
