/**
 * A writer process for the crash test: `node --conditions=@engram/source --import tsx crash-writer.ts
 * <db> <round>`. Prints "ready" once loaded, waits for a line on stdin, then adds messages one `add`
 * call at a time until killed, printing each returned id as soon as `add` resolves (acknowledged).
 */
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";

const [dbPath, round = "0"] = process.argv.slice(2);
if (!dbPath) throw new Error("usage: crash-writer.ts <db path> <round>");

// If the parent goes away, so does the writer.
process.stdin.once("end", () => process.exit(0));
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));

const engram = await createEngram({ path: dbPath, embedder: hashEmbeddingModel() });
for (let i = 0; i < 100_000; i++) {
  // One to three messages per call, so a kill can land inside a multi-row write.
  const messages = Array.from({ length: (i % 3) + 1 }, (_, j) => ({
    role: j % 2 === 0 ? ("user" as const) : ("assistant" as const),
    content: `round ${round} call ${i} part ${j}: the ferry to the island leaves at ${i % 24}:00`,
  }));
  const { ids } = await engram.add({ userId: "writer", sessionId: `round-${round}`, messages });
  process.stdout.write(`${ids.join("\n")}\n`);
}
