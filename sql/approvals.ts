/** approval_requests: create, read, list, and guarded status changes (only a pending approval moves). */
import { randomUUID } from 'node:crypto';
import type { ApprovalAction } from '../core/graph.js';
import type { ApprovalStatus } from '../core/run-state.js';
import { nowIso } from '../core/time.js';
import type { DB } from './db.js';
import { json, stmt } from './stmt.js';

export interface ApprovalRow {
  id: string;
  run_id: string;
  step_run_id: string | null;
  node_id: string;
  title: string;
  status: ApprovalStatus;
  allowed_actions: string;
  note_required: number;
  expires_at: string;
  resolution_comment: string | null;
  resolved_by: string | null;
  resolved_by_name: string | null;
  resolved_at: string | null;
  created_at: string;
}

/** The API shape: JSON columns parsed, booleans as booleans. */
export interface Approval extends Omit<ApprovalRow, 'allowed_actions' | 'note_required'> {
  allowed_actions: ApprovalAction[];
  note_required: boolean;
}

export function toApproval(r: ApprovalRow): Approval {
  return { ...r, allowed_actions: json<ApprovalAction[]>(r.allowed_actions, []), note_required: r.note_required === 1 };
}

export function insertApproval(db: DB, a: { runId: string; stepRunId: string; nodeId: string; title: string; allowedActions: ApprovalAction[]; noteRequired: boolean; expiresAt: string }): ApprovalRow {
  return stmt(db, `INSERT INTO approval_requests (id, run_id, step_run_id, node_id, title, allowed_actions, note_required, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`).get(
    randomUUID(), a.runId, a.stepRunId, a.nodeId, a.title, JSON.stringify(a.allowedActions), a.noteRequired ? 1 : 0, a.expiresAt,
  ) as ApprovalRow;
}

export function getApproval(db: DB, id: string): ApprovalRow | undefined {
  return stmt(db, 'SELECT * FROM approval_requests WHERE id = ?').get(id) as ApprovalRow | undefined;
}

export function listApprovals(db: DB, q: { status?: string; runId?: string; limit?: number } = {}): ApprovalRow[] {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.status) (where.push('status = ?'), args.push(q.status));
  if (q.runId) (where.push('run_id = ?'), args.push(q.runId));
  return stmt(db, `SELECT * FROM approval_requests ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY created_at DESC, rowid DESC LIMIT ?`).all(...args, q.limit ?? 200) as ApprovalRow[];
}

/** Pending approvals past their expiry at `nowIso`. */
export function duePendingApprovals(db: DB, now: string = nowIso()): ApprovalRow[] {
  return stmt(db, `SELECT * FROM approval_requests WHERE status = 'pending' AND expires_at <= ?`).all(now) as ApprovalRow[];
}

export function pendingApprovalsOfRun(db: DB, runId: string): ApprovalRow[] {
  return stmt(db, `SELECT * FROM approval_requests WHERE run_id = ? AND status = 'pending'`).all(runId) as ApprovalRow[];
}

/** Moves a pending approval to `to`; false when it was no longer pending (someone else won). */
export function settleApproval(db: DB, id: string, to: ApprovalStatus, by: { userId?: string | null; username?: string | null; comment?: string | null } = {}): boolean {
  const r = stmt(db, `UPDATE approval_requests SET status = ?, resolution_comment = COALESCE(?, resolution_comment), resolved_by = ?, resolved_by_name = ?,
    resolved_at = ? WHERE id = ? AND status = 'pending'`).run(to, by.comment ?? null, by.userId ?? null, by.username ?? null, nowIso(), id);
  return r.changes > 0;
}
