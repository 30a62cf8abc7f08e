/**
 * A process killed in the middle of a tier job: `node --conditions=@engram/source --import tsx
 * job-victim.ts <db>`. It stores a conversation, then runs the queued tier work with an extractor that
 * announces "in-job" and then hangs, so the parent can SIGKILL it while the job is leased and half done.
 */
import { createEngram, offlineExtractor } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";

const [dbPath] = process.argv.slice(2);
if (!dbPath) throw new Error("usage: job-victim.ts <db path>");

const hanging = {
  ...offlineExtractor,
  name: "hanging",
  async persona(): Promise<never> {
    process.stdout.write("in-job\n");
    return new Promise<never>(() => {});
  },
};
const engram = await createEngram({
  path: dbPath,
  embedder: hashEmbeddingModel(),
  extractor: hanging,
  background: false,
  policy: { shortTermCapacity: 1, evictionBatch: 1, heatThreshold: 1 },
});
await engram.add({
  userId: "victim",
  sessionId: "s1",
  messages: [
    { role: "user", content: "I live in Valparaiso and I am allergic to peanuts." },
    { role: "assistant", content: "Noted, no peanuts." },
    { role: "user", content: "See you tomorrow." },
    { role: "assistant", content: "Bye." },
  ],
});
process.stdout.write("added\n");
await engram.flush(); // never returns: the extractor hangs inside the job
