import type { Engram } from "@engram/core";
import { deltaChannelHistoryTests, validate } from "@langchain/langgraph-checkpoint-validation";
import { EngramCheckpointer } from "../src/index.js";
import { BACKENDS } from "./backends.js";

for (const backend of BACKENDS) {
  let engram: Engram;
  let dispose: () => Promise<void>;
  let n = 0;
  const init = {
    checkpointerName: `EngramCheckpointer (${backend.name})`,
    async beforeAll() {
      ({ engram, dispose } = await backend.createEngram());
    },
    afterAll: () => dispose(),
    // One engine per backend; each test gets a user of its own, so it starts from an empty store.
    createCheckpointer: () => new EngramCheckpointer(engram, { defaultUserId: `validation-${++n}` }),
  };
  validate(init);
  describe(`EngramCheckpointer (${backend.name}) delta channel history`, () =>
    deltaChannelHistoryTests(init));
}
