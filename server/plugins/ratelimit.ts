/**
 * An in-memory sliding-window limiter for login attempts (one process serves the API, so memory is enough;
 * a restart forgets the counts, which only ever helps a legitimate user). Each key keeps the times of its
 * recent hits; a key over its limit is told how long until the oldest hit leaves the window.
 */

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

/** Most keys tracked at once; beyond it the stalest keys are dropped (bounded memory under a spray of names). */
const MAX_KEYS = 10_000;

export class SlidingWindowLimiter {
  private hits = new Map<string, number[]>();

  constructor(readonly rule: WindowRule, private readonly now: () => number = Date.now) {}

  /** Milliseconds until `key` may try again, or 0 when it is under its limit. Does not record a hit. */
  retryAfterMs(key: string): number {
    const times = this.recent(key);
    if (times.length < this.rule.limit) return 0;
    return Math.max(1, times[times.length - this.rule.limit] + this.rule.windowMs - this.now());
  }

  hit(key: string): void {
    const times = this.recent(key);
    times.push(this.now());
    this.hits.delete(key);
    this.hits.set(key, times); // re-insert: Map order doubles as least-recently-hit order for eviction
    if (this.hits.size > MAX_KEYS) this.hits.delete(this.hits.keys().next().value as string);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.rule.windowMs;
    const times = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (times.length) this.hits.set(key, times);
    else this.hits.delete(key);
    return times;
  }
}
