/** workflow_runs: insert, read, list, and status changes applied as guarded transitions (core/run-state.ts). */
import { randomUUID } from 'node:crypto';
import type { Graph, Level } from '../core/graph.js';
import type { ContextEntry } from '../core/context.js';
import { RUN_TRANSITIONS, isTerminalRun, type RunStatus, type RunTrigger } from '../core/run-state.js';
import { nowIso } from '../core/time.js';
import type { DB } from './db.js';
import { appendEvent } from './events.js';
import { json, stmt } from './stmt.js';

export interface RunRow {
  id: string;
  workflow_id: string | null;
  workflow_name: string;
  status: RunStatus;
  workspace_path: string;
  write: number;
  sandbox: number;
  executor: 'server' | 'cli';
  graph: string;
  levels: string | null;
  current_level: number;
  context: string;
  workdir: string | null;
  error: string | null;
  pull_request_url: string | null;
  bundle_path: string | null;
  branch: string | null;
  timeout_at: string | null;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  updated_at: string;
  completed_at: string | null;
  heartbeat_at: string | null;
}

export interface NewRun {
  workflowId: string | null;
  workflowName: string;
  workspacePath: string;
  graph: Graph;
  write?: boolean;
  sandbox?: boolean;
  executor?: 'server' | 'cli';
  createdBy?: string | null;
  timeoutAt?: string | null;
}

export function insertRun(db: DB, r: NewRun): string {
  const id = randomUUID();
  const now = nowIso();
  stmt(db, `INSERT INTO workflow_runs (id, workflow_id, workflow_name, status, workspace_path, write, sandbox, executor, graph,
    created_by, timeout_at, created_at, updated_at, heartbeat_at) VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
    id, r.workflowId, r.workflowName, r.workspacePath, r.write ? 1 : 0, r.sandbox === false ? 0 : 1, r.executor ?? 'server',
    JSON.stringify(r.graph), r.createdBy ?? null, r.timeoutAt ?? null, now, now, r.executor === 'cli' ? now : null,
  );
  appendEvent(db, id, 'run.status', { status: 'queued' });
  return id;
}

export function getRun(db: DB, id: string): RunRow | undefined {
  return stmt(db, 'SELECT * FROM workflow_runs WHERE id = ?').get(id) as RunRow | undefined;
}

export function runStatus(db: DB, id: string): RunStatus | undefined {
  return (stmt(db, 'SELECT status FROM workflow_runs WHERE id = ?').get(id) as { status: RunStatus } | undefined)?.status;
}

export const runGraph = (r: RunRow): Graph => json<Graph>(r.graph, { nodes: [], edges: [] });
export const runLevels = (r: RunRow): Level[] => json<Level[]>(r.levels, []);
export const runContext = (r: RunRow): ContextEntry[] => json<ContextEntry[]>(r.context, []);

export function listRuns(db: DB, q: { workflowId?: string; status?: string; limit?: number } = {}): RunRow[] {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.workflowId) (where.push('workflow_id = ?'), args.push(q.workflowId));
  if (q.status) (where.push('status = ?'), args.push(q.status));
  const sql = `SELECT * FROM workflow_runs ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
  return stmt(db, sql).all(...args, q.limit ?? 50) as RunRow[];
}

/**
 * Applies one row of the run status table if the run is in one of its from-states (one guarded UPDATE, so a
 * racing change loses cleanly). Sets started_at on start, completed_at on terminal states and clears it on
 * resume; writes the run.status event. Returns whether the transition happened.
 */
export function transitionRun(db: DB, id: string, trigger: RunTrigger, extra: { error?: string | null } = {}): boolean {
  const t = RUN_TRANSITIONS[trigger];
  const now = nowIso();
  const terminal = isTerminalRun(t.to);
  const placeholders = t.from.map(() => '?').join(', ');
  const r = stmt(db, `UPDATE workflow_runs SET status = ?, updated_at = ?,
      started_at = CASE WHEN ? = 'start' AND started_at IS NULL THEN ? ELSE started_at END,
      completed_at = CASE WHEN ? THEN ? WHEN ? = 'resume' THEN NULL ELSE completed_at END,
      error = CASE WHEN ? IS NOT NULL THEN ? WHEN ? = 'resume' THEN NULL ELSE error END
    WHERE id = ? AND status IN (${placeholders})`).run(
    t.to, now, trigger, now, terminal ? 1 : 0, now, trigger, extra.error ?? null, extra.error ?? null, trigger, id, ...t.from,
  );
  if (r.changes === 0) return false;
  appendEvent(db, id, 'run.status', { status: t.to, trigger, ...(terminal ? { completed_at: now } : {}), ...(extra.error ? { error: extra.error } : {}) });
  return true;
}

export function setRunPlan(db: DB, id: string, levels: Level[], workdir: string | null): void {
  stmt(db, 'UPDATE workflow_runs SET levels = ?, workdir = COALESCE(?, workdir), updated_at = ? WHERE id = ?').run(JSON.stringify(levels), workdir, nowIso(), id);
}

export function setRunProgress(db: DB, id: string, currentLevel: number, context?: ContextEntry[]): void {
  if (context) stmt(db, 'UPDATE workflow_runs SET current_level = ?, context = ?, updated_at = ? WHERE id = ?').run(currentLevel, JSON.stringify(context), nowIso(), id);
  else stmt(db, 'UPDATE workflow_runs SET current_level = ?, updated_at = ? WHERE id = ?').run(currentLevel, nowIso(), id);
}

/** Liveness of a `wfctl run` executor; the sweeper fails CLI runs whose heartbeat went stale. */
export function heartbeat(db: DB, id: string): void {
  stmt(db, 'UPDATE workflow_runs SET heartbeat_at = ? WHERE id = ?').run(nowIso(), id);
}

/** Active CLI runs whose heartbeat is older than `beforeIso`. */
export function staleCliRuns(db: DB, beforeIso: string): RunRow[] {
  return stmt(db, `SELECT * FROM workflow_runs WHERE executor = 'cli' AND status IN ('queued', 'running', 'waiting_approval')
    AND COALESCE(heartbeat_at, created_at) < ?`).all(beforeIso) as RunRow[];
}
