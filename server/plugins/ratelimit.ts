/**
 * The sliding-window limiter for sign-in attempts. Hits live in the database (`login_attempts`), so the counts
 * survive a restart and every process serving the API over one database shares them. Each key keeps the times
 * of its recent hits; a key over its limit is told how long until the oldest counted hit leaves the window.
 */
import { createHash } from 'node:crypto';
import type { DB } from '../../sql/db.js';
import { stmt } from '../../sql/stmt.js';

export interface WindowRule {
  /** Hits allowed inside the window. */
  limit: number;
  windowMs: number;
}

/** Login limits (documented in docs/decisions.md, "## API"). */
export const LOGIN_LIMITS = {
  /** Every attempt from one client address counts: it bounds the bcrypt work one client can cause. */
  perAddress: { limit: 20, windowMs: 60_000 } satisfies WindowRule,
  /** Only failed attempts count against a user name, so its owner is not locked out by their own logins. */
  perUsername: { limit: 10, windowMs: 15 * 60_000 } satisfies WindowRule,
};

export type LimitScope = 'address' | 'username';

/** Rows of a scope older than its window are deleted every this many hits (and once at start). */
const PRUNE_EVERY = 64;

export class SlidingWindowLimiter {
  private hits = 0;

  constructor(
    private readonly db: DB,
    private readonly scope: LimitScope,
    readonly rule: WindowRule,
    private readonly now: () => number = Date.now,
  ) {
    this.prune();
  }

  /** Milliseconds until `key` may try again, or 0 when it is under its limit. Does not record a hit. */
  retryAfterMs(key: string): number {
    // The limit-th most recent hit inside the window: while it is there, the key is at its limit.
    const row = stmt(this.db, 'SELECT at FROM login_attempts WHERE scope = ? AND key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?')
      .get(this.scope, digest(key), this.now() - this.rule.windowMs, this.rule.limit - 1) as { at: number } | undefined;
    const at = row?.at;
    return at === undefined ? 0 : Math.max(1, at + this.rule.windowMs - this.now());
  }

  hit(key: string): void {
    stmt(this.db, 'INSERT INTO login_attempts (scope, key, at) VALUES (?, ?, ?)').run(this.scope, digest(key), this.now());
    if (++this.hits % PRUNE_EVERY === 0) this.prune();
  }

  reset(key: string): void {
    stmt(this.db, 'DELETE FROM login_attempts WHERE scope = ? AND key = ?').run(this.scope, digest(key));
  }

  private prune(): void {
    stmt(this.db, 'DELETE FROM login_attempts WHERE scope = ? AND at <= ?').run(this.scope, this.now() - this.rule.windowMs);
  }
}

const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
