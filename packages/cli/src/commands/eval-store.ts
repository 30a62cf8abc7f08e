/** The eval store, apart from the main one: `engram eval` replaces its locomo/* users. */
export const DEFAULT_EVAL_DB = ".engram/eval-locomo.db";
