/**
 * A child process for the offline embedder's process test: a host that handles its own unhandled
 * rejections stores and searches a memory with the default embedder, closes the engine, then leaves a
 * rejection unhandled. Its handler should run and the process should end by itself with exit code 0.
 */
import { createEngram } from "@engram/core";

process.on("unhandledRejection", (reason) => {
  process.stdout.write(`host handled: ${(reason as Error).message}\n`);
});

const engram = await createEngram({ path: ":memory:", tiers: false });
await engram.add({ userId: "ada", messages: [{ role: "user", content: "I adopted a puppy last week" }] });
const hits = await engram.search({ userId: "ada", query: "new dog" });
await engram.close();
process.stdout.write(`found ${hits.length}\n`);
Promise.reject(new Error("the host's own rejection"));
