import { type Engram, MEMORY_KINDS, type MemoryKind } from "@engram/core";
import { idString, parseInput } from "@engram/core/integration";
import { Document } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { z } from "zod";
import { engramSchema } from "./engram-schema.js";

export interface EngramRetrieverOptions extends BaseRetrieverInput {
  engram: Engram;
  userId: string;
  /** Documents returned. Default 5. */
  k?: number;
  /** Only these kinds of memory (e.g. `["fact"]`). Default: all. */
  kinds?: MemoryKind[];
}

/** What each document carries besides its text. */
export interface EngramDocumentMetadata {
  id: string;
  kind: MemoryKind;
  tier: string;
  /** Event time (ISO) or null. */
  at: string | null;
  score: number;
  role: string | null;
  sessionId: string | null;
}

const optionsSchema = z.object({
  engram: engramSchema,
  userId: idString,
  k: z.number().int().min(1).max(1000).default(5),
  kinds: z.array(z.enum(MEMORY_KINDS)).min(1).optional(),
});

/** A LangChain retriever over one user's Engram memory (hybrid full-text + vector search). */
export class EngramRetriever extends BaseRetriever<EngramDocumentMetadata> {
  lc_namespace = ["engram", "retrievers"];
  private readonly engram: Engram;
  private readonly userId: string;
  private readonly k: number;
  private readonly kinds: MemoryKind[] | undefined;

  /** @throws ValidationError (INVALID_INPUT) when userId is missing. */
  constructor(options: EngramRetrieverOptions) {
    const { engram, userId, k, kinds, ...base } = options;
    super(base);
    const parsed = parseInput(optionsSchema, { engram, userId, k, kinds }, "EngramRetriever");
    this.engram = parsed.engram;
    this.userId = parsed.userId;
    this.k = parsed.k;
    this.kinds = parsed.kinds;
  }

  override async _getRelevantDocuments(query: string): Promise<Document<EngramDocumentMetadata>[]> {
    const hits = await this.engram.search({
      userId: this.userId,
      query,
      limit: this.k,
      ...(this.kinds ? { kinds: this.kinds } : {}),
    });
    return hits.map(
      (h) =>
        new Document<EngramDocumentMetadata>({
          pageContent: h.text,
          id: h.id,
          metadata: {
            id: h.id,
            kind: h.kind,
            tier: h.tier,
            at: h.at,
            score: h.score,
            role: h.memory.role,
            sessionId: h.memory.sessionId,
          },
        }),
    );
  }
}
