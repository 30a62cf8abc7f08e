// What the LoCoMo peer table asks of each system: turn ids for a question, best first. Every system
// indexes the same text per turn and is searched within one conversation (one user) at a time.
import type { LocomoConversation, LocomoTurn } from "@engram/cli/locomo";
import { turnContent } from "@engram/cli/locomo";

export interface PeerSystem {
  readonly name: string;
  /** How the system was set up and queried, for the report. */
  readonly method: string;
  /** Dialogue turn ids (`D<s>:<t>`), best first, at most `k`. */
  search(conversation: LocomoConversation, question: string, k: number): Promise<string[]>;
  /** The system's own context for a question (Engram's `retrieve`); peers have none. */
  context?(
    conversation: LocomoConversation,
    question: string,
    budgetTokens: number,
  ): Promise<RenderedContext>;
  close(): Promise<void>;
}

export interface RenderedContext {
  readonly text: string;
  readonly tokens: number;
}

/**
 * The text a peer indexes for a turn: speaker, what was said and the caption of a shared image (the
 * README's BM25 reference text). Engram gets the same content with the speaker as the message's name.
 */
export const peerDocument = (turn: LocomoTurn): string => `${turn.speaker}: ${turnContent(turn)}`;

/** The user each conversation is stored under, in every system. */
export const scopeOf = (conversation: LocomoConversation): string => `locomo/${conversation.sampleId}`;
