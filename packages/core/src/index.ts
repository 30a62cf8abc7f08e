export * from "./engine/index.js";
export * from "./errors/index.js";
export * from "./generation/index.js";
export * from "./model/index.js";
export * from "./models/index.js";
export * from "./retrieval/index.js";
export * from "./scheduler/index.js";
export * from "./storage/index.js";
