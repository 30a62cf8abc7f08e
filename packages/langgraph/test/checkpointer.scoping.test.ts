import { type Engram, EngramError } from "@engram/core";
import type { RunnableConfig } from "@langchain/core/runnables";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EngramCheckpointer } from "../src/index.js";
import { BACKENDS } from "./backends.js";

function checkpoint(values: Record<string, unknown>, versions: Record<string, number>) {
  return { ...emptyCheckpoint(), id: uuid6(-1), channel_values: values, channel_versions: versions };
}

const meta = { source: "input" as const, step: -1, parents: {} };

for (const backend of BACKENDS) {
  describe(`EngramCheckpointer thread ownership (${backend.name})`, () => {
    let engram: Engram;
    let dispose: () => Promise<void>;
    let saver: EngramCheckpointer;
    beforeEach(async () => {
      ({ engram, dispose } = await backend.createEngram());
      saver = new EngramCheckpointer(engram);
    });
    afterEach(() => dispose());

    const cfg = (userId: string, threadId = "t1") => ({
      configurable: { thread_id: threadId, user_id: userId },
    });

    it("stores a thread under the user the config names; the same thread id of another user is another thread", async () => {
      await saver.put(cfg("alice"), checkpoint({ a: "alice's" }, { a: 1 }), meta, { a: 1 });
      await saver.put(cfg("bob"), checkpoint({ a: "bob's" }, { a: 1 }), meta, { a: 1 });
      expect((await saver.getTuple(cfg("alice")))?.checkpoint.channel_values).toEqual({ a: "alice's" });
      expect((await saver.getTuple(cfg("bob")))?.checkpoint.channel_values).toEqual({ a: "bob's" });
      expect(await saver.getTuple(cfg("carol"))).toBeUndefined();
      expect(await saver.threads("alice")).toEqual(["t1"]);
    });

    it("refuses a call that names no owner, and says what to pass", async () => {
      const put = saver.put({ configurable: { thread_id: "t1" } }, checkpoint({}, {}), meta, {});
      await expect(put).rejects.toSatisfy((e) => EngramError.isInstance(e) && e.code === "SCOPE_REQUIRED");
      await expect(saver.getTuple({ configurable: { thread_id: "t1" } })).rejects.toThrow(
        /configurable\.user_id/,
      );
      const custom = new EngramCheckpointer(engram, { userIdKey: "tenant" });
      await custom.put({ configurable: { thread_id: "t1", tenant: "acme" } }, checkpoint({}, {}), meta, {});
      expect(await custom.threads("acme")).toEqual(["t1"]);
    });

    it("forget({ userId }) erases the user's threads and nobody else's", async () => {
      const first = await saver.put(cfg("alice"), checkpoint({ a: 1 }, { a: 1 }), meta, { a: 1 });
      await saver.putWrites(first, [["a", 2]], "task-1");
      await saver.put(cfg("alice", "t2"), checkpoint({ a: 1 }, { a: 1 }), meta, { a: 1 });
      await saver.put(cfg("bob"), checkpoint({ a: 1 }, { a: 1 }), meta, { a: 1 });
      const report = await engram.forget({ userId: "alice" });
      expect(report.kv).toBeGreaterThanOrEqual(6);
      expect(await saver.getTuple(cfg("alice"))).toBeUndefined();
      expect(await saver.getTuple(cfg("alice", "t2"))).toBeUndefined();
      expect(await saver.threads("alice")).toEqual([]);
      expect(await saver.getTuple(cfg("bob"))).toBeDefined();
      expect(await engram.users()).toEqual(["bob"]);
    });

    it("moves with the user's export: forget, import, and the thread is back", async () => {
      await saver.put(cfg("alice"), checkpoint({ a: "kept" }, { a: 1 }), meta, { a: 1 });
      const dump = await engram.export({ userId: "alice" });
      await engram.forget({ userId: "alice" });
      expect(await saver.getTuple(cfg("alice"))).toBeUndefined();
      await engram.import(JSON.parse(JSON.stringify(dump)));
      expect((await saver.getTuple(cfg("alice")))?.checkpoint.channel_values).toEqual({ a: "kept" });
      expect(await saver.threads("alice")).toEqual(["t1"]);
    });

    it("deleteThread removes the thread of every owner, or of the one user it is given", async () => {
      for (const user of ["alice", "bob", "carol"]) {
        await saver.put(cfg(user), checkpoint({ a: 1 }, { a: 1 }), meta, { a: 1 });
      }
      await saver.deleteThread("t1", { userId: "carol" });
      expect(await saver.getTuple(cfg("carol"))).toBeUndefined();
      expect(await saver.getTuple(cfg("alice"))).toBeDefined();
      await saver.deleteThread("t1");
      expect(await saver.getTuple(cfg("alice"))).toBeUndefined();
      expect(await saver.getTuple(cfg("bob"))).toBeUndefined();
      expect((await engram.stats()).kv).toBe(0);
    });

    it("stores a channel's value once per version, however many checkpoints show it", async () => {
      const big = "x".repeat(1000);
      let config: RunnableConfig = cfg("alice");
      for (let step = 1; step <= 5; step++) {
        const cp = checkpoint({ big, counter: step }, { big: 1, counter: step });
        config = await saver.put(
          config,
          cp,
          { ...meta, step },
          step === 1 ? { big: 1, counter: 1 } : { counter: step },
        );
      }
      expect((await engram.stats({ userId: "alice" })).kv).toBe(1 + 5 + 1 + 5); // thread, checkpoints, big, counter
      const latest = await saver.getTuple(cfg("alice"));
      expect(latest?.checkpoint.channel_values).toEqual({ big, counter: 5 });
      expect(latest?.metadata?.step).toBe(5);
    });

    it("receives the user from a graph's configurable", async () => {
      const State = Annotation.Root({
        n: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
      });
      const graph = new StateGraph(State)
        .addNode("inc", () => ({ n: 1 }))
        .addEdge(START, "inc")
        .addEdge("inc", END)
        .compile({ checkpointer: saver });
      const config = { configurable: { thread_id: "g1", user_id: "dora" } };
      await graph.invoke({ n: 1 }, config);
      await graph.invoke({ n: 1 }, config);
      expect((await graph.getState(config)).values).toEqual({ n: 4 });
      expect(await saver.threads("dora")).toEqual(["g1"]);
      const history = [];
      for await (const state of graph.getStateHistory(config)) history.push(state);
      expect(history.length).toBeGreaterThan(2);
    });
  });
}

describe("EngramCheckpointer options", () => {
  it("refuses options it cannot use, naming what to pass", async () => {
    const { engram, dispose } = await (BACKENDS[0] as (typeof BACKENDS)[number]).createEngram();
    try {
      expect(() => new EngramCheckpointer(engram, { serde: {} as never })).toThrow(
        /dumpsTyped and loadsTyped/,
      );
      expect(() => new EngramCheckpointer(engram, { defaultUserId: " " })).toThrow(/defaultUserId/);
      expect(() => new EngramCheckpointer(engram, { userIdKey: "" })).toThrow(/userIdKey/);
    } finally {
      await dispose();
    }
  });
});
