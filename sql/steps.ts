/** workflow_step_runs: one row per node attempt (attempt 1..n), latest attempt decides skip / resume. */
import { randomUUID } from 'node:crypto';
import { nowIso } from '../core/time.js';
import type { DB } from './db.js';
import { appendEvent } from './events.js';
import { stmt } from './stmt.js';

export type StepStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped' | 'cancelled' | 'waiting_approval';

export interface StepRow {
  id: string;
  run_id: string;
  node_id: string;
  node_type: string;
  level: number;
  attempt: number;
  status: StepStatus;
  output: string | null;
  summary: string | null;
  error: string | null;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
}

const TERMINAL = new Set<StepStatus>(['completed', 'failed', 'skipped', 'cancelled']);

/** Inserts the next attempt of a node (attempt = latest + 1) in the given status; writes node.status. */
export function insertStep(db: DB, s: { runId: string; nodeId: string; nodeType: string; level: number; status: StepStatus; output?: string | null; error?: string | null }): StepRow {
  const id = randomUUID();
  const now = nowIso();
  const row = stmt(db, `INSERT INTO workflow_step_runs (id, run_id, node_id, node_type, level, attempt, status, output, summary, error, started_at, completed_at)
    VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(attempt), 0) + 1 FROM workflow_step_runs WHERE run_id = ? AND node_id = ?), ?, ?, ?, ?, ?, ?)
    RETURNING *`).get(
    id, s.runId, s.nodeId, s.nodeType, s.level, s.runId, s.nodeId, s.status, s.output ?? null, s.output ?? null, s.error ?? null, now,
    TERMINAL.has(s.status) ? now : null,
  ) as StepRow;
  appendEvent(db, s.runId, 'node.status', { node_id: s.nodeId, step_id: id, attempt: row.attempt, status: s.status, level: s.level });
  return row;
}

/** Moves a step to its outcome; only a step still running or waiting moves (a cancelled step stays cancelled). */
export function finishStep(db: DB, step: Pick<StepRow, 'id' | 'run_id' | 'node_id' | 'attempt' | 'level'>, status: StepStatus, f: { output?: string | null; summary?: string | null; error?: string | null } = {}): boolean {
  const r = stmt(db, `UPDATE workflow_step_runs SET status = ?, output = COALESCE(?, output), summary = COALESCE(?, summary), error = COALESCE(?, error),
    completed_at = CASE WHEN ? THEN ? ELSE completed_at END WHERE id = ? AND status IN ('pending', 'running', 'waiting_approval')`).run(
    status, f.output ?? null, f.summary ?? null, f.error ?? null, TERMINAL.has(status) ? 1 : 0, nowIso(), step.id,
  );
  if (r.changes) appendEvent(db, step.run_id, 'node.status', { node_id: step.node_id, step_id: step.id, attempt: step.attempt, status, level: step.level, ...(f.error ? { error: f.error } : {}) });
  return r.changes > 0;
}

export function getStep(db: DB, id: string): StepRow | undefined {
  return stmt(db, 'SELECT * FROM workflow_step_runs WHERE id = ?').get(id) as StepRow | undefined;
}

export function listSteps(db: DB, runId: string): StepRow[] {
  return stmt(db, 'SELECT * FROM workflow_step_runs WHERE run_id = ? ORDER BY level, created_at, node_id, attempt').all(runId) as StepRow[];
}

/** Each node's latest attempt. */
export function latestSteps(db: DB, runId: string): Map<string, StepRow> {
  const rows = stmt(db, `SELECT s.* FROM workflow_step_runs s WHERE s.run_id = ? AND s.attempt =
    (SELECT MAX(attempt) FROM workflow_step_runs t WHERE t.run_id = s.run_id AND t.node_id = s.node_id)`).all(runId) as StepRow[];
  return new Map(rows.map((r) => [r.node_id, r]));
}

/** Outputs of the given nodes (default: all) whose latest step completed, in the order of `ids`. */
export function completedOutputs(latest: ReadonlyMap<string, StepRow>, ids: Iterable<string> = latest.keys()): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of ids) {
    const s = latest.get(id);
    if (s?.status === 'completed') out.set(id, s.output ?? '');
  }
  return out;
}

/** Steps of the run still running or waiting (cancel, expiry and crash recovery close them). */
export function openSteps(db: DB, runId: string): StepRow[] {
  return stmt(db, `SELECT * FROM workflow_step_runs WHERE run_id = ? AND status IN ('pending', 'running', 'waiting_approval')`).all(runId) as StepRow[];
}

/** Agent runs of a step whose executor died: recorded as failed so no row claims to be running forever. */
export function closeLostAgentRuns(db: DB, stepId: string): void {
  stmt(db, `UPDATE agent_runs SET status = 'failed', error = 'interrupted: the process running it stopped', completed_at = ? WHERE step_run_id = ? AND status = 'running'`).run(nowIso(), stepId);
}
