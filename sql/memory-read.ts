/**
 * Reading and clearing a run's memory (the engine writes entries). Sensitive values are masked unless the
 * caller asks to reveal them; the route decides who may.
 */
import { WfError } from '../core/errors.js';
import type { DB } from './db.js';

export const MASK = '••••••';

export interface MemoryEntry {
  id: string;
  run_id: string;
  node_id: string;
  key: string;
  value: string;
  scope: 'workflow' | 'team' | 'agent_private';
  sensitivity: 'normal' | 'sensitive';
  generated_by: string | null;
  created_at: string;
  masked: boolean;
}

function requireRun(db: DB, runId: string): void {
  if (!db.prepare('SELECT 1 FROM workflow_runs WHERE id = ?').get(runId)) throw new WfError('RUN_NOT_FOUND', `no workflow run with id '${runId}'`);
}

/** A run's entries in write order; sensitive values replaced by MASK unless `reveal`. */
export function readRunMemory(db: DB, runId: string, reveal: boolean): MemoryEntry[] {
  requireRun(db, runId);
  const rows = db.prepare(
    'SELECT id, run_id, node_id, key, value, scope, sensitivity, generated_by, created_at FROM memory_entries WHERE run_id = ? ORDER BY created_at, rowid',
  ).all(runId) as Omit<MemoryEntry, 'masked'>[];
  return rows.map((r) => {
    const masked = r.sensitivity === 'sensitive' && !reveal;
    return { ...r, value: masked ? MASK : r.value, masked };
  });
}

/**
 * Deletes every entry of a run; returns how many went. Refused (409 RUN_ACTIVE) while the run is queued, running
 * or waiting for approval, because its later nodes may still read that memory.
 */
export function clearRunMemory(db: DB, runId: string): number {
  return db.transaction(() => {
    const run = db.prepare('SELECT status FROM workflow_runs WHERE id = ?').get(runId) as { status: string } | undefined;
    if (!run) throw new WfError('RUN_NOT_FOUND', `no workflow run with id '${runId}'`);
    if (['queued', 'running', 'waiting_approval'].includes(run.status)) {
      throw new WfError('RUN_ACTIVE', `run ${runId} is ${run.status.replace('_', ' ')}; its nodes may still read this memory, so clear it once the run has finished`);
    }
    return db.prepare('DELETE FROM memory_entries WHERE run_id = ?').run(runId).changes;
  }).immediate();
}
