/**
 * The durable job queue over the jobs table: enqueue, lease, renew, complete, fail with exponential back-off.
 * Same-process wake-up is an EventEmitter notified on enqueue (milliseconds); other processes' enqueues are
 * found by the scheduler's short poll. Every write is one tiny statement; lease takes the write lock up front
 * (BEGIN IMMEDIATE) so it never fails mid-transaction with "database is locked".
 */
import { EventEmitter } from 'node:events';
import { nowIso } from '../core/time.js';
import type { DB } from '../sql/db.js';
import * as sql from '../sql/jobs.js';
import { stmt } from '../sql/stmt.js';

export type { JobRow, JobScope } from '../sql/jobs.js';

export const JOB_KINDS = ['run.start', 'run.level'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Payload of a run.level job: the level index to run. */
export interface LevelPayload {
  level: number;
}

export interface Job<P = Record<string, unknown>> {
  id: number;
  kind: string;
  runId: string | null;
  payload: P;
  attempts: number;
  maxAttempts: number;
  owner: string;
}

/** Emits 'enqueued' (with the kind) after a job row is written by this process. */
export const queueEvents = new EventEmitter();
queueEvents.setMaxListeners(0);

/** Back-off before retry n (1-based): 1 s, 2 s, 4 s … capped at 5 minutes. */
export function backoffMs(attempt: number, baseMs = 1000, capMs = 300_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

export function enqueue(db: DB, kind: JobKind, runId: string | null, payload: unknown = {}, opts: { delayMs?: number; maxAttempts?: number } = {}): number {
  const id = sql.insertJob(db, { kind, runId, payload, runAt: nowIso(Date.now() + (opts.delayMs ?? 0)), maxAttempts: opts.maxAttempts ?? 5 });
  // Deferred so a caller's surrounding transaction has committed before anyone tries to lease the row.
  setImmediate(() => queueEvents.emit('enqueued', kind));
  return id;
}

/** Leases the oldest available job of `kinds` for `leaseMs`, or returns undefined. */
export function lease(db: DB, owner: string, leaseMs: number, kinds: readonly string[] = JOB_KINDS, scope: sql.JobScope = { excludeCli: true }): Job | undefined {
  const now = Date.now();
  const row = db.transaction(() => sql.leaseJob(db, owner, nowIso(now), nowIso(now + leaseMs), [...kinds], scope)).immediate();
  if (!row) return undefined;
  let payload: Record<string, unknown> = {};
  try {
    payload = JSON.parse(row.payload);
  } catch {
    /* a malformed payload is the job handler's problem to report */
  }
  return { id: row.id, kind: row.kind, runId: row.run_id, payload, attempts: row.attempts, maxAttempts: row.max_attempts, owner };
}

/** Extends the lease; false when the lease was lost (expired and taken by another scheduler). */
export function renew(db: DB, job: Job, leaseMs: number): boolean {
  const now = Date.now();
  return sql.renewJob(db, job.id, job.owner, nowIso(now + leaseMs), nowIso(now));
}

export function complete(db: DB, job: Job): boolean {
  return sql.completeJob(db, job.id, job.owner, nowIso());
}

/**
 * Records a failure: a retryable one with attempts left goes back to pending after an exponential back-off;
 * anything else fails the job for good. Returns whether it will be retried.
 */
export function fail(db: DB, job: Job, error: string, retryable: boolean, baseBackoffMs = 1000): boolean {
  const retry = retryable && job.attempts < job.maxAttempts;
  const retryAt = retry ? nowIso(Date.now() + backoffMs(job.attempts, baseBackoffMs)) : null;
  sql.failJob(db, job.id, job.owner, error.slice(0, 4000), retryAt, nowIso());
  if (retry) setTimeout(() => queueEvents.emit('enqueued', job.kind), Math.max(0, Date.parse(retryAt!) - Date.now())).unref();
  return retry;
}

/*
 * Lease release for graceful shutdown (issue 9). The SQL sits here rather than in sql/jobs.ts to keep the
 * shutdown change inside queue/. A released job is pending and due now, its lease cleared and the lease's
 * attempt taken back: a shutdown is not a failure of the job.
 */
const RELEASE_SQL = `UPDATE jobs SET status = 'pending', attempts = MAX(0, attempts - 1), run_at = ?, lease_owner = NULL,
  lease_expires_at = NULL, last_error = ?, updated_at = ? WHERE status = 'leased' AND lease_owner = ?`;
const RELEASE_NOTE = 'released: the process running it shut down before it finished';

/** Gives one leased job back to the queue at once (its owner is shutting down). */
export function release(db: DB, job: Job): boolean {
  const now = nowIso();
  const ok = stmt(db, `${RELEASE_SQL} AND id = ?`).run(now, RELEASE_NOTE, now, job.owner, job.id).changes > 0;
  if (ok) setImmediate(() => queueEvents.emit('enqueued', job.kind));
  return ok;
}

/** Gives back every job still leased by `owner`; returns how many. */
export function releaseOwned(db: DB, owner: string): number {
  const now = nowIso();
  const n = stmt(db, RELEASE_SQL).run(now, RELEASE_NOTE, now, owner).changes;
  if (n) setImmediate(() => queueEvents.emit('enqueued', 'run.level'));
  return n;
}
