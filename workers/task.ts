/**
 * The Piscina task entry: runs one node in a worker thread with the thread's own database connection.
 * Errors cross the thread boundary as data ({ ok: false, error }), never as thrown objects (Piscina would
 * hand the scheduler a plain Error with the code and class lost).
 */
import type { Config } from '../core/config.js';
import { toErrorData, type ErrorData } from '../core/errors.js';
import { openDatabase, type DB } from '../sql/db.js';
import { runNode, type NodeOutcome, type NodeTask } from './executors/index.js';

export type TaskResult = { ok: true; value: NodeOutcome } | { ok: false; error: ErrorData };

const connections = new Map<string, DB>();

function db(config: Config): DB {
  let c = connections.get(config.dbPath);
  // Migrations were applied by the process that owns the pool; a worker only opens.
  if (!c || !c.open) connections.set(config.dbPath, (c = openDatabase(config, { migrate: false, createHome: false })));
  return c;
}

export default async function task(input: { config: Config; node: NodeTask }): Promise<TaskResult> {
  try {
    return { ok: true, value: await runNode(db(input.config), input.config, input.node) };
  } catch (e) {
    return { ok: false, error: toErrorData(e, true) };
  }
}
