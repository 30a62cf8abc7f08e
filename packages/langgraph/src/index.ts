export { EngramCheckpointer, type EngramCheckpointerOptions } from "./checkpoint/engram-checkpointer.js";
