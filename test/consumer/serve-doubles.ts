// For the consumer test's lean install: the Qdrant protocol double and an OpenAI-compatible embeddings
// stand-in on loopback, their URLs printed as one JSON line; both stop when stdin closes.
import { startQdrantDouble } from "../qdrant-double/index.js";
import { embeddingsStub, wordsModel } from "../support/embeddings-stub.js";

const qdrant = await startQdrantDouble();
const embeddings = await embeddingsStub({ words: wordsModel(64) });
process.stdout.write(`${JSON.stringify({ qdrant: qdrant.url, embeddings: embeddings.url })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await Promise.all([qdrant.close(), embeddings.close()]);
  process.exit(0);
});
