/**
 * run_events: the durable event log (design §8). Every status change, log line, agent message, memory write
 * and approval writes a row; SSE / WebSocket stream the rows by id, so events cross processes and restarts.
 */
import { EventEmitter } from 'node:events';
import type { DB } from './db.js';
import { json, stmt } from './stmt.js';

export const EVENT_TYPES = [
  'run.status', 'node.status', 'log', 'agent.started', 'agent.message', 'agent.completed', 'memory.write',
  'approval.required', 'approval.resolved', 'run.report', 'run.artifacts', 'run.graph',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface RunEvent {
  id: number;
  run_id: string | null;
  type: EventType;
  payload: Record<string, unknown>;
  created_at: string;
}

/**
 * In-process wake-up for streamers: emitted after an event row is written by this process. Other processes'
 * rows are found by polling (the streamers poll run_events anyway).
 */
export const eventBus = new EventEmitter();
eventBus.setMaxListeners(0);

export function appendEvent(db: DB, runId: string | null, type: EventType, payload: Record<string, unknown> = {}): number {
  const r = stmt(db, 'INSERT INTO run_events (run_id, type, payload) VALUES (?, ?, ?)').run(runId, type, JSON.stringify(payload));
  const id = Number(r.lastInsertRowid);
  // After the current (synchronous) transaction has committed.
  setImmediate(() => eventBus.emit('event', id));
  return id;
}

interface Row { id: number; run_id: string | null; type: EventType; payload: string; created_at: string }
const parse = (r: Row): RunEvent => ({ ...r, payload: json(r.payload, {}) });

/** Events after `afterId` in id order, optionally of one run. */
export function eventsAfter(db: DB, afterId: number, runId?: string, limit = 500): RunEvent[] {
  const rows = runId
    ? (stmt(db, 'SELECT * FROM run_events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?').all(runId, afterId, limit) as Row[])
    : (stmt(db, 'SELECT * FROM run_events WHERE id > ? ORDER BY id LIMIT ?').all(afterId, limit) as Row[]);
  return rows.map(parse);
}

export function lastEventId(db: DB): number {
  return (stmt(db, 'SELECT COALESCE(MAX(id), 0) AS id FROM run_events').get() as { id: number }).id;
}
