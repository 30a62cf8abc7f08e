// Stands in for @energetic-ai/embeddings and its packaged weights inside the offline embedder's worker
// thread, so tests can make the model fail in each way the real one can. A text decides what happens:
// "fail" throws, "crash" throws outside any call, "reject" leaves a rejection unhandled, "exit" ends the
// thread, "lose" drops the last vector; any other text gets a 512-dimensional vector whose first value
// is its length.
"use strict";

exports.modelSource = "stand-in weights";

exports.initModel = async (source) => {
  if (source !== exports.modelSource) throw new Error("stand-in: not given its packaged weights");
  // What the TF.js WebAssembly glue does when it loads.
  process.on("uncaughtException", (error) => {
    throw error;
  });
  process.on("unhandledRejection", (reason) => {
    throw reason;
  });
  return {
    async embed(texts) {
      if (texts.includes("fail")) throw new Error("stand-in failed to embed");
      if (texts.includes("crash")) {
        setTimeout(() => {
          throw new Error("stand-in crashed");
        });
        return new Promise(() => {});
      }
      if (texts.includes("reject")) {
        Promise.reject(new Error("stand-in left a rejection unhandled"));
        return new Promise(() => {});
      }
      if (texts.includes("exit")) process.exit(3);
      const vectors = texts.map((text) => Array.from({ length: 512 }, (_, i) => (i === 0 ? text.length : 0)));
      return texts.includes("lose") ? vectors.slice(0, -1) : vectors;
    },
  };
};
