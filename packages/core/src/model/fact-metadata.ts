import type { MemoryRecord } from "./memory-record.js";

/** What a fact keeps in its metadata, as the tiers write it. */
export interface FactMetadata {
  /** Normalised attribute: "lives_in", "sister.occupation", "assistant.recommended". */
  readonly slot: string;
  readonly value: string;
  /** "user": about the user; "assistant": what the assistant said or did for them. */
  readonly subject: "user" | "assistant";
  /** Single-valued: a new value supersedes the old one. */
  readonly single: boolean;
  /** 0..1, from the rule or the model that read it. */
  readonly confidence: number;
  /** Ids of the messages it was read from. */
  readonly evidence: readonly string[];
}

/** A fact's metadata, as the tiers write it. */
export function factMetadata(fields: FactMetadata): Record<string, unknown> {
  const { slot, value, subject, single, confidence, evidence } = fields;
  return { slot, value, subject, single, confidence, evidence: [...evidence] };
}

/**
 * A fact's metadata, read leniently: a field that a fact written by hand or by an older version lacks
 * takes what its record says (its key, text and role) or a neutral value (confidence 0.5, no evidence).
 */
export function readFact(record: MemoryRecord): FactMetadata {
  const m = record.metadata;
  const subject = m.subject ?? record.role;
  return {
    slot: typeof m.slot === "string" ? m.slot : (record.key ?? "fact"),
    value: m.value === undefined || m.value === null ? record.text : String(m.value),
    subject: subject === "assistant" ? "assistant" : "user",
    single: m.single === true,
    confidence: typeof m.confidence === "number" && Number.isFinite(m.confidence) ? m.confidence : 0.5,
    evidence: Array.isArray(m.evidence)
      ? m.evidence.filter((id): id is string => typeof id === "string")
      : [],
  };
}
