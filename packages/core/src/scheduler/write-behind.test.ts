import { describe, expect, it } from "vitest";
import { EngramError, StorageError, ValidationError } from "../errors/index.js";
import { WriteBehind, type WriteFailure } from "./write-behind.js";

function recorder() {
  const failures: { error: unknown; failure: WriteFailure }[] = [];
  return { failures, onError: (error: unknown, failure: WriteFailure) => failures.push({ error, failure }) };
}

/** A write that fails its first `failures` tries with a storage error. */
function flaky(failures: number, done: string[], name: string) {
  let tries = 0;
  return async () => {
    tries++;
    if (tries <= failures) throw new StorageError(`disk busy (${name}, try ${tries})`);
    done.push(name);
  };
}

describe("WriteBehind", () => {
  it("returns before the write runs and runs writes in order", async () => {
    const done: string[] = [];
    const queue = new WriteBehind();
    queue.enqueue("a", async () => void done.push("a"));
    queue.enqueue("b", async () => void done.push("b"));
    expect(done).toEqual([]);
    expect(queue.pending).toBe(2);
    await queue.idle();
    expect(done).toEqual(["a", "b"]);
    expect(queue.pending).toBe(0);
  });

  it("retries a failing write until it succeeds, holding later writes behind it", async () => {
    const done: string[] = [];
    const { failures, onError } = recorder();
    const queue = new WriteBehind({ retryDelayMs: () => 1, onError });
    queue.enqueue("first", flaky(3, done, "first"));
    queue.enqueue("second", flaky(0, done, "second"));
    await queue.idle();
    expect(done).toEqual(["first", "second"]);
    expect(failures.map((f) => [f.failure.attempt, f.failure.willRetry])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
  });

  it("idle(timeoutMs) stops waiting for a write that keeps failing", async () => {
    const done: string[] = [];
    const queue = new WriteBehind({ retryDelayMs: () => 5, onError: () => {} });
    queue.enqueue("stuck", flaky(1000, done, "stuck"));
    expect(await queue.idle(30)).toBe(false);
    expect(queue.pending).toBe(1);
    await queue.close();
    expect(await queue.idle(30)).toBe(true);
  });

  it("settle(group) waits for the writes of every queue in the group", async () => {
    const done: string[] = [];
    const target = {};
    const a = new WriteBehind({ group: target });
    const b = new WriteBehind({ group: target });
    const other = new WriteBehind({ retryDelayMs: () => 5, onError: () => {} });
    a.enqueue("a", async () => void done.push("a"));
    b.enqueue("b", async () => void done.push("b"));
    other.enqueue("stuck", flaky(1000, done, "stuck"));
    expect(await WriteBehind.settle(target, 1000)).toBe(true);
    expect(done.sort()).toEqual(["a", "b"]);
    await other.close();
  });

  it("holds no reference to a queue once its writes are done (a queue per request does not leak)", async () => {
    const target = {};
    const queue = new WriteBehind({ group: target });
    let resolve = () => {};
    queue.enqueue("slow", () => new Promise<void>((r) => (resolve = r)));
    await new Promise((r) => setTimeout(r, 5));
    expect(await WriteBehind.settle(target, 20)).toBe(false);
    resolve();
    expect(await WriteBehind.settle(target, 1000)).toBe(true);
    expect(queue.pending).toBe(0);
  });

  it("runs a write queued while the previous drain is finishing", async () => {
    const done: string[] = [];
    const queue = new WriteBehind();
    queue.enqueue("a", async () => {
      done.push("a");
      // Queued from inside the last write: the drain is about to end.
      queue.enqueue("b", async () => void done.push("b"));
    });
    await queue.idle();
    await queue.idle();
    expect(done).toEqual(["a", "b"]);
  });

  it("gives a write up after maxAttempts and moves on", async () => {
    const done: string[] = [];
    const { failures, onError } = recorder();
    const queue = new WriteBehind({ retryDelayMs: () => 1, maxAttempts: 2, onError });
    queue.enqueue("doomed", flaky(5, done, "doomed"));
    queue.enqueue("next", flaky(0, done, "next"));
    await queue.idle();
    expect(done).toEqual(["next"]);
    expect(failures.at(-1)?.failure).toEqual({ label: "doomed", attempt: 2, willRetry: false });
  });

  it("does not retry errors another try cannot fix", async () => {
    const { failures, onError } = recorder();
    const queue = new WriteBehind({ retryDelayMs: () => 1, onError });
    queue.enqueue("bad", async () => {
      throw new ValidationError("content must not be empty");
    });
    await queue.idle();
    expect(failures).toHaveLength(1);
    expect(failures[0]?.failure.willRetry).toBe(false);
  });

  it("pushes the oldest waiting write out beyond maxPending", async () => {
    const done: string[] = [];
    const { failures, onError } = recorder();
    const queue = new WriteBehind({ maxPending: 2, onError });
    for (const name of ["a", "b", "c"]) queue.enqueue(name, async () => void done.push(name));
    await queue.idle();
    // "a" is in flight when "c" arrives, so "b" is the oldest waiting one.
    expect(done).toEqual(["a", "c"]);
    expect(failures.map((f) => f.failure.label)).toEqual(["b"]);
  });

  it("close() cuts a retry wait short, tries once more, and refuses new writes", async () => {
    const done: string[] = [];
    const { failures, onError } = recorder();
    const queue = new WriteBehind({ retryDelayMs: () => 60_000, onError });
    queue.enqueue("slow", flaky(1, done, "slow"));
    await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    await queue.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(done).toEqual(["slow"]);
    queue.enqueue("late", async () => void done.push("late"));
    await queue.idle();
    expect(done).toEqual(["slow"]);
    expect(EngramError.isInstance(failures.at(-1)?.error)).toBe(true);
    expect(failures.at(-1)?.failure).toMatchObject({ label: "late", willRetry: false });
  });
});

describe("WriteBehind.write", () => {
  it("resolves true once the write is stored", async () => {
    const done: string[] = [];
    const queue = new WriteBehind();
    const stored = queue.write("a", async () => void done.push("a"));
    expect(done).toEqual([]);
    expect(await stored).toBe(true);
    expect(done).toEqual(["a"]);
    expect(queue.pending).toBe(0);
  });

  it("resolves false after a failed first try and keeps retrying the write", async () => {
    const done: string[] = [];
    const { failures, onError } = recorder();
    const queue = new WriteBehind({ retryDelayMs: () => 1, onError });
    expect(await queue.write("flaky", flaky(2, done, "flaky"))).toBe(false);
    await queue.idle();
    expect(done).toEqual(["flaky"]);
    expect(failures).toHaveLength(2);
  });

  it("does not hold its caller while earlier writes wait out a retry", async () => {
    const done: string[] = [];
    const queue = new WriteBehind({ retryDelayMs: () => 60_000, onError: () => {} });
    expect(await queue.write("stuck", flaky(1, done, "stuck"))).toBe(false);
    const started = Date.now();
    expect(await queue.write("next", async () => void done.push("next"))).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    await queue.close();
    expect(done).toEqual(["stuck", "next"]);
  });

  it("stops holding its caller after waitMs, and the write still completes behind it", async () => {
    const done: string[] = [];
    const queue = new WriteBehind();
    let release = () => {};
    const slow = async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      done.push("slow");
    };
    expect(await queue.write("slow", slow, 20)).toBe(false);
    expect(done).toEqual([]);
    release();
    await queue.idle();
    expect(done).toEqual(["slow"]);
    expect(await queue.write("quick", async () => void done.push("quick"), 5000)).toBe(true);
    expect(await queue.write("unwaited", async () => void done.push("unwaited"), 0)).toBe(false);
    await queue.idle();
    expect(done).toEqual(["slow", "quick", "unwaited"]);
  });

  it("resolves false for a write refused after close()", async () => {
    const queue = new WriteBehind({ onError: () => {} });
    await queue.close();
    expect(await queue.write("late", async () => {})).toBe(false);
  });
});
