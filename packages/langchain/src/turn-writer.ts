import type { Engram } from "@engram/core";
import {
  type StampedTurn,
  stampTurn,
  type WrapperTurn,
  WriteBehind,
  type WriteBehindOptions,
} from "@engram/core/integration";

export interface WriteErrorInfo {
  readonly stage: "recall" | "remember";
  readonly userId: string;
  readonly attempt?: number;
  readonly willRetry?: boolean;
}

export type OnError = (error: unknown, info: WriteErrorInfo) => void;

export function warn(error: unknown, info: WriteErrorInfo): void {
  const message = error instanceof Error ? error.message : String(error);
  const retry = info.willRetry === undefined ? "" : info.willRetry ? ", will retry" : ", given up";
  console.warn(`[engram] ${info.stage} for user ${info.userId} failed${retry}: ${message}`);
}

/**
 * Turns written behind the caller: in order, retried; a failure is reported, never thrown. `write` resolves
 * once the raw turn is committed (its embedding queued as a durable job), or after `writeTimeoutMs` while
 * it keeps being retried, so a process that exits after the chain returns loses nothing.
 */
export class TurnWriter {
  private readonly queue: WriteBehind;

  constructor(
    private readonly engram: Engram,
    private readonly onError: OnError,
    options: WriteBehindOptions = {},
    private readonly waitMs = 500,
    private readonly writeTimeoutMs = 5000,
  ) {
    this.queue = new WriteBehind({
      ...options,
      group: engram,
      onError: (error, f) =>
        onError(error, { stage: "remember", userId: f.label, attempt: f.attempt, willRetry: f.willRetry }),
    });
  }

  get pending(): number {
    return this.queue.pending;
  }

  /** Stamps the turn once (see `stampTurn`), so every retry of its write stores it once; never throws. */
  async write(turn: WrapperTurn): Promise<void> {
    let stamped: StampedTurn;
    try {
      stamped = stampTurn(turn);
    } catch (error) {
      this.onError(error, { stage: "remember", userId: turn.userId, attempt: 0, willRetry: false });
      return;
    }
    await this.queue.write(
      turn.userId,
      () => this.engram.add({ ...stamped, embed: "later" }),
      this.writeTimeoutMs,
    );
  }

  /**
   * Waits (up to the read-after-write bound) for turns queued for this engine by any wrapper, so recall
   * sees the previous turn even when another instance wrote it.
   */
  async settle(): Promise<void> {
    if (this.waitMs > 0) await WriteBehind.settle(this.engram, this.waitMs);
  }

  async flush(): Promise<void> {
    await this.queue.idle();
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
