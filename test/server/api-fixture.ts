/**
 * Shared set-up for the API suites: the production buildApp over a fresh seeded database, plus signed-in
 * admin and operator tokens. Not a test file itself.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Writable } from 'node:stream';
import { buildApp, type BuildOptions } from '../../server/app.js';
import type { Config } from '../../core/config.js';
import type { DB } from '../../sql/db.js';
import { testConfig, testDb } from '../helpers.js';

export const ADMIN = { username: 'alice', password: 'correct horse battery' };
export const OPERATOR = { username: 'oscar', password: 'operator password 1' };

export interface ApiFixture {
  app: FastifyInstance;
  db: DB;
  config: Config;
  /** Sends a request; `token` adds the bearer header. */
  req(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  adminToken: string;
  operatorToken: string;
  close(): Promise<void>;
}

export async function makeApp(opts: BuildOptions & { users?: boolean; logStream?: Writable } = {}): Promise<ApiFixture> {
  const { db, config } = testDb(testConfig());
  const app = await buildApp(
    { db, config, scheduler: () => ({ status: 'disabled' }), sandbox: () => 'none' },
    { ...opts, logger: opts.logStream ? { level: 'trace', stream: opts.logStream } : opts.logger },
  );
  await app.ready();
  const req: ApiFixture['req'] = ({ token, headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...(headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  let adminToken = '';
  let operatorToken = '';
  if (opts.users !== false) {
    const b = await req({ method: 'POST', url: '/api/auth/bootstrap', payload: ADMIN });
    if (b.statusCode !== 201) throw new Error(`bootstrap failed: ${b.body}`);
    adminToken = b.json().token;
    const c = await req({ method: 'POST', url: '/api/users', token: adminToken, payload: { ...OPERATOR, role: 'operator' } });
    if (c.statusCode !== 201) throw new Error(`operator creation failed: ${c.body}`);
    const l = await req({ method: 'POST', url: '/api/auth/login', payload: OPERATOR });
    operatorToken = l.json().token;
  }
  return { app, db, config, req, adminToken, operatorToken, close: () => app.close() };
}

/** Row count of a table (for "no partial row" checks). */
export function count(db: DB, table: string): number {
  return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
}

/** A minimal valid graph: one specialist agent. */
export function graph(label = 'Build') {
  return { nodes: [{ id: 'n1', type: 'specialistAgent', data: { label, objective: 'do the thing' } }], edges: [] };
}

/** Inserts a run row for a workflow directly (the engine owns runs; the API only reads them). */
export function insertRun(db: DB, workflowId: string | null, status: string, createdAt = new Date().toISOString()): string {
  const id = crypto.randomUUID();
  db.prepare(`INSERT INTO workflow_runs (id, workflow_id, workflow_name, status, workspace_path, graph, created_at) VALUES (?, ?, 'wf', ?, '/tmp/x', '{"nodes":[],"edges":[]}', ?)`).run(
    id, workflowId, status, createdAt,
  );
  return id;
}
