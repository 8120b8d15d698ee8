/** memory_entries writes (the read / clear routes belong to the API); each write is a memory.write event. */
import { randomUUID } from 'node:crypto';
import type { MemoryScope } from '../core/graph.js';
import type { DB } from './db.js';
import { appendEvent } from './events.js';
import { stmt } from './stmt.js';

export interface NewMemoryEntry {
  runId: string;
  nodeId: string;
  key: string;
  value: string;
  scope: MemoryScope;
  sensitivity: 'normal' | 'sensitive';
  generatedBy?: string | null;
}

export function writeMemory(db: DB, m: NewMemoryEntry): string {
  const id = randomUUID();
  stmt(db, `INSERT INTO memory_entries (id, run_id, node_id, key, value, scope, sensitivity, generated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
    id, m.runId, m.nodeId, m.key, m.value, m.scope, m.sensitivity, m.generatedBy ?? null,
  );
  // The event never carries a sensitive value: streams are read by every signed-in user.
  appendEvent(db, m.runId, 'memory.write', { id, node_id: m.nodeId, key: m.key, scope: m.scope, sensitivity: m.sensitivity, value: m.sensitivity === 'sensitive' ? '••••••' : m.value.slice(0, 2000) });
  return id;
}

export function memoryOfRun(db: DB, runId: string): Array<{ id: string; node_id: string; key: string; value: string; scope: MemoryScope; sensitivity: string; created_at: string }> {
  return stmt(db, 'SELECT id, node_id, key, value, scope, sensitivity, created_at FROM memory_entries WHERE run_id = ? ORDER BY created_at, rowid').all(runId) as never;
}
