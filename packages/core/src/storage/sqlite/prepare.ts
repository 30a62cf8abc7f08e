import type Database from "better-sqlite3";

/** Prepares a statement (the storage's cache of prepared statements). */
export type Prepare = (sql: string) => Database.Statement;
