/**
 * The jobs table as a durable queue. Each operation is one statement; lease runs under BEGIN IMMEDIATE so the
 * write lock is taken up front (queue/jobs.ts). Timestamps are ISO strings, which compare correctly as text.
 */
import type { DB } from './db.js';
import { stmt } from './stmt.js';

export interface JobRow {
  id: number;
  kind: string;
  run_id: string | null;
  payload: string;
  status: 'pending' | 'leased' | 'completed' | 'failed';
  attempts: number;
  max_attempts: number;
  run_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export function insertJob(db: DB, j: { kind: string; runId: string | null; payload: unknown; runAt: string; maxAttempts: number }): number {
  const r = stmt(db, 'INSERT INTO jobs (kind, run_id, payload, run_at, max_attempts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    j.kind, j.runId, JSON.stringify(j.payload ?? {}), j.runAt, j.maxAttempts, j.runAt, j.runAt,
  );
  return Number(r.lastInsertRowid);
}

/** Which runs a scheduler may take jobs of: one CLI run (`wfctl run`), or every run not owned by a CLI. */
export type JobScope = { runId: string } | { excludeCli: true };

/**
 * One UPDATE … RETURNING: the oldest available job (pending and due, or leased with an expired lease, which a
 * dead scheduler left behind) becomes leased by `owner` until `expiresAt`, attempts + 1. A re-lease after
 * max_attempts is not taken here; the sweeper fails such jobs and their runs.
 */
export function leaseJob(db: DB, owner: string, now: string, expiresAt: string, kinds: string[], scope: JobScope): JobRow | undefined {
  const kindList = kinds.map(() => '?').join(', ');
  const scopeSql = 'runId' in scope
    ? 'AND run_id = ?'
    : `AND (run_id IS NULL OR NOT EXISTS (SELECT 1 FROM workflow_runs r WHERE r.id = jobs.run_id AND r.executor = 'cli'))`;
  const filter = [...kinds, ...('runId' in scope ? [scope.runId] : [])];
  // Two index-ordered probes (jobs_available, jobs_lease) joined by UNION ALL, so a lease costs the same with
  // ten thousand finished rows as with none; an OR over both states would scan the table.
  return stmt(db, `UPDATE jobs SET status = 'leased', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1, updated_at = ?
    WHERE id = (SELECT id FROM (
      SELECT * FROM (SELECT id, run_at AS due FROM jobs WHERE status = 'pending' AND run_at <= ? AND kind IN (${kindList}) ${scopeSql} ORDER BY run_at, id LIMIT 1)
      UNION ALL
      SELECT * FROM (SELECT id, lease_expires_at AS due FROM jobs WHERE status = 'leased' AND lease_expires_at <= ? AND attempts < max_attempts
        AND kind IN (${kindList}) ${scopeSql} ORDER BY lease_expires_at, id LIMIT 1)
    ) ORDER BY due, id LIMIT 1)
    RETURNING *`).get(owner, expiresAt, now, now, ...filter, now, ...filter) as JobRow | undefined;
}

export function renewJob(db: DB, id: number, owner: string, expiresAt: string, now: string): boolean {
  return stmt(db, `UPDATE jobs SET lease_expires_at = ?, updated_at = ? WHERE id = ? AND status = 'leased' AND lease_owner = ?`).run(expiresAt, now, id, owner).changes > 0;
}

export function completeJob(db: DB, id: number, owner: string, now: string): boolean {
  return stmt(db, `UPDATE jobs SET status = 'completed', lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ? AND status = 'leased' AND lease_owner = ?`).run(now, id, owner).changes > 0;
}

/** Back to pending at `retryAt`, or failed for good when `retryAt` is null. */
export function failJob(db: DB, id: number, owner: string, error: string, retryAt: string | null, now: string): boolean {
  return stmt(db, `UPDATE jobs SET status = CASE WHEN ? IS NULL THEN 'failed' ELSE 'pending' END, run_at = COALESCE(?, run_at), last_error = ?,
    lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ? AND status = 'leased' AND lease_owner = ?`).run(retryAt, retryAt, error, now, id, owner).changes > 0;
}

export function getJob(db: DB, id: number): JobRow | undefined {
  return stmt(db, 'SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
}

/** Leased jobs whose lease expired after their last allowed attempt: nobody will take them again. */
export function abandonedJobs(db: DB, now: string): JobRow[] {
  return stmt(db, `SELECT * FROM jobs WHERE status = 'leased' AND lease_expires_at <= ? AND attempts >= max_attempts`).all(now) as JobRow[];
}

export function markJobFailed(db: DB, id: number, error: string, now: string): void {
  stmt(db, `UPDATE jobs SET status = 'failed', last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?`).run(error, now, id);
}

/** Deletes finished jobs older than `beforeIso` (the table is a queue, not an archive). */
export function pruneJobs(db: DB, beforeIso: string): number {
  return stmt(db, `DELETE FROM jobs WHERE status IN ('completed', 'failed') AND updated_at < ?`).run(beforeIso).changes;
}
