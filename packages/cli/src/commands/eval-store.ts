/** The eval store, apart from the main one: `engram eval` replaces its locomo/* users. */
export const DEFAULT_EVAL_DB = ".engram/eval-locomo.db";
/** The LongMemEval eval's store: `engram eval longmemeval` replaces its lme/* users. */
export const DEFAULT_LONGMEMEVAL_DB = ".engram/eval-longmemeval.db";
