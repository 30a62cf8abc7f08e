// What this package hands to Engram's Extractor port (`@engram/core`), written as the shapes the rules fill
// in, so that the English rules depend on nothing of the engine. The engine binds `offlineExtractor` to its
// `Extractor` type where it makes it the default, so the compiler checks that the two agree.

/** Whose fact: the user's (profile, user knowledge) or what the assistant said or did for the user. */
export type FactSubject = "user" | "assistant";

/** One fact read from a message: `slot` the attribute ("lives_in"), `value` its value ("Berlin"). */
export interface ExtractedFact {
  subject: FactSubject;
  slot: string;
  value: string;
  /** A readable third-person sentence: "The user lives in Berlin." */
  text: string;
  /** A new value of a single-valued slot supersedes the old one. */
  single: boolean;
  /** A retraction of (slot, value): "I no longer live in Munich". */
  negated: boolean;
  confidence: number;
  /** The id of the message the fact came from. */
  evidence: string;
}

/** A correction read from feedback: facts now true, values stated wrong, words that find the memories. */
export interface Correction {
  facts: ExtractedFact[];
  retract: Array<{ slot: string; value: string }>;
  keywords: string[];
}

/** A message as the extractor reads it. */
export interface Message {
  readonly id: string;
  /** "user" when missing. */
  readonly role?: "user" | "assistant" | "system" | "tool" | null;
  readonly text: string;
  /** The speaker's name, when the source gives one. */
  readonly name?: string | null;
}

/** The offline extractor: persona facts of messages and the reading of a correction. */
export interface EnglishExtractor {
  readonly name: string;
  persona(messages: readonly Message[]): Promise<ExtractedFact[]>;
  feedback(text: string, evidenceId: string): Promise<Correction>;
}
