/** Statements prepared once per connection (better-sqlite3 statements belong to the handle that made them). */
import type Database from 'better-sqlite3';
import type { DB } from './db.js';

const cache = new WeakMap<DB, Map<string, Database.Statement>>();

/** The prepared statement for `sql` on `db`, made on first use. */
export function stmt(db: DB, sql: string): Database.Statement {
  let m = cache.get(db);
  if (!m) cache.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

/** Parses a JSON column, keeping the raw text when it is not JSON (never throws on old rows). */
export function json<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
