/** run_logs: the run's info / warn / error lines (spec "Run log entry"); each also becomes a `log` event. */
import type { DB } from './db.js';
import { appendEvent } from './events.js';
import { stmt } from './stmt.js';

export type LogLevel = 'info' | 'warn' | 'error';

export interface RunLog {
  id: number;
  run_id: string;
  level: LogLevel;
  node_id: string | null;
  message: string;
  created_at: string;
}

export function appendLog(db: DB, runId: string, level: LogLevel, message: string, nodeId: string | null = null): void {
  const r = stmt(db, 'INSERT INTO run_logs (run_id, level, node_id, message) VALUES (?, ?, ?, ?) RETURNING id, created_at').get(runId, level, nodeId, message) as { id: number; created_at: string };
  appendEvent(db, runId, 'log', { id: r.id, level, node_id: nodeId, message, created_at: r.created_at });
}

/** The run's log in time order (id order: ids are assigned in commit order). */
export function listLogs(db: DB, runId: string): RunLog[] {
  return stmt(db, 'SELECT * FROM run_logs WHERE run_id = ? ORDER BY id').all(runId) as RunLog[];
}
