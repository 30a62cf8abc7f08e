import { EngramError } from "../errors/index.js";

/** What `onError` learns about a failed write. */
export interface WriteFailure {
  /** The label given to `enqueue`, e.g. "turn of user u1". */
  readonly label: string;
  /** 1 for the first try. */
  readonly attempt: number;
  /** False when the write is given up: not retryable, out of attempts, pushed out, or closed. */
  readonly willRetry: boolean;
}

export interface WriteBehindOptions {
  /** Tries per write before it is given up. Default 10 (2 to 3 minutes of retrying with the default delays). */
  maxAttempts?: number;
  /** Wait before retry `attempt` (2 for the first retry). Default: 500 ms doubling, capped at 60 s, jittered. */
  retryDelayMs?: (attempt: number) => number;
  /** Writes held at most; a new one beyond it pushes the oldest waiting one out. Default 10,000. */
  maxPending?: number;
  /** Whether an error is worth retrying. Default: all but invalid input, missing scope and a closed engine. */
  retryable?: (error: unknown) => boolean;
  /** Told of every failed try. Default: a one-line `console.warn`. */
  onError?: (error: unknown, failure: WriteFailure) => void;
  /**
   * Queues writing to the same target (e.g. one Engram instance) share a group, so a reader can wait for
   * all of them with `WriteBehind.settle(group)`, whichever wrapper queued the write.
   */
  group?: object;
}

const groups = new WeakMap<object, Set<WriteBehind>>();

const PERMANENT = new Set(["INVALID_INPUT", "SCOPE_REQUIRED", "CLOSED", "READ_ONLY", "EMBEDDER_MISMATCH"]);

/** Errors that another try cannot fix are not retried: bad input, a missing user, a closed or read-only store. */
export function isRetryableWriteError(error: unknown): boolean {
  return !(EngramError.isInstance(error) && PERMANENT.has(error.code));
}

export function defaultRetryDelayMs(attempt: number): number {
  const cap = Math.min(60_000, 500 * 2 ** (attempt - 2));
  return Math.round(cap / 2 + (Math.random() * cap) / 2);
}

function warn(error: unknown, failure: WriteFailure): void {
  const message = error instanceof Error ? error.message : String(error);
  const next = failure.willRetry ? "will retry" : "given up";
  console.warn(`[engram] write of ${failure.label} failed (attempt ${failure.attempt}, ${next}): ${message}`);
}

interface Pending {
  readonly label: string;
  readonly write: () => Promise<unknown>;
  attempts: number;
  /** Told once, after the first try (true: stored), for `write()` callers waiting on it. */
  tried?: ((stored: boolean) => void) | undefined;
}

/**
 * Writes that must not fail their caller (a chat turn written back after the model answered): queued in
 * memory, run one at a time in order, retried with back-off when they fail. A write is only in this
 * process until its first successful try, so a caller that must not lose it awaits `write()`, which
 * resolves after that try; `enqueue()` returns at once.
 */
export class WriteBehind {
  private readonly queue: Pending[] = [];
  private readonly options: Required<WriteBehindOptions>;
  private running: Promise<void> | null = null;
  private timer: { handle: NodeJS.Timeout; wake: () => void } | null = null;
  private closed = false;

  constructor(options: WriteBehindOptions = {}) {
    this.options = {
      maxAttempts: options.maxAttempts ?? 10,
      retryDelayMs: options.retryDelayMs ?? defaultRetryDelayMs,
      maxPending: options.maxPending ?? 10_000,
      retryable: options.retryable ?? isRetryableWriteError,
      onError: options.onError ?? warn,
      group: options.group ?? this,
    };
  }

  /** Waits up to `timeoutMs` for every queue of the group to finish its writes; true when they all did. */
  static async settle(group: object, timeoutMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (const queue of groups.get(group) ?? []) {
      if (queue.pending === 0) continue;
      if (!(await queue.idle(Math.max(0, deadline - performance.now())))) return false;
    }
    return true;
  }

  /** Writes queued or in progress. */
  get pending(): number {
    return this.queue.length;
  }

  /** Queues a write; returns at once. After `close()` the write is refused (reported through `onError`). */
  enqueue(label: string, write: () => Promise<unknown>): void {
    this.add(label, write);
  }

  /**
   * Queues a write and resolves after its first try: true when it was stored, false when it failed (it is
   * retried) or was refused, or when `waitMs` passed first (it goes on in the background). When earlier
   * writes are waiting out a retry the store is failing, so it resolves false at once rather than hold the
   * caller. Never rejects.
   */
  write(label: string, write: () => Promise<unknown>, waitMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    return new Promise((resolve) => {
      const retrying = this.timer !== null;
      if (retrying || this.closed || waitMs <= 0) {
        this.add(label, write);
        resolve(false);
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      this.add(label, write, (stored) => {
        clearTimeout(timer);
        resolve(stored);
      });
      // A timer that does not keep the process alive.
      if (Number.isFinite(waitMs)) timer = setTimeout(() => resolve(false), waitMs).unref();
    });
  }

  private add(label: string, write: () => Promise<unknown>, tried?: (stored: boolean) => void): void {
    if (this.closed) {
      this.options.onError(new EngramError("CLOSED", "the write queue is closed"), {
        label,
        attempt: 0,
        willRetry: false,
      });
      return;
    }
    if (this.queue.length >= this.options.maxPending) {
      // The head may be in flight; push out the oldest write that has not started.
      const [dropped] = this.queue.splice(this.running ? 1 : 0, 1);
      if (dropped) {
        const error = new EngramError("STORAGE", `more than ${this.options.maxPending} writes waiting`);
        this.options.onError(error, { label: dropped.label, attempt: dropped.attempts, willRetry: false });
        dropped.tried?.(false);
      }
    }
    this.queue.push({ label, write, attempts: 0, tried });
    if (!this.running) this.start();
  }

  private start(): void {
    // A queue belongs to its group only while it has writes, so idle queues are never held on to.
    const members = groups.get(this.options.group) ?? new Set<WriteBehind>();
    groups.set(this.options.group, members.add(this));
    this.running = this.drain().finally(() => {
      this.running = null;
      members.delete(this);
      // A write queued between the drain's last check and now would otherwise wait for the next one.
      if (this.queue.length > 0) this.start();
    });
  }

  /**
   * Resolves when every queued write has been stored or given up (true), or after `timeoutMs` with
   * writes still waiting (false).
   */
  async idle(timeoutMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (this.running) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      if (!Number.isFinite(left)) await this.running;
      else {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, left);
        });
        await Promise.race([this.running, timeout]);
        clearTimeout(timer);
      }
    }
    return true;
  }

  /** Refuses new writes, tries each waiting write once more without waiting, then resolves. */
  async close(): Promise<void> {
    this.closed = true;
    this.timer?.wake();
    await this.idle();
  }

  private async drain(): Promise<void> {
    // Start on a later turn of the event loop, so the caller's own work (returning the answer) goes first.
    await new Promise((resolve) => setImmediate(resolve));
    for (let head = this.queue[0]; head; head = this.queue[0]) {
      head.attempts++;
      try {
        await head.write();
        this.queue.shift();
        head.tried?.(true);
      } catch (error) {
        const willRetry =
          !this.closed && head.attempts < this.options.maxAttempts && this.options.retryable(error);
        this.options.onError(error, { label: head.label, attempt: head.attempts, willRetry });
        head.tried?.(false);
        head.tried = undefined;
        if (!willRetry) this.queue.shift();
        else await this.sleep(this.options.retryDelayMs(head.attempts + 1));
      }
    }
  }

  /** A referenced timer: a process with a turn still to write stays up until it is written or given up. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(handle);
        this.timer = null;
        resolve();
      };
      const handle = setTimeout(wake, ms);
      this.timer = { handle, wake };
    });
  }
}
