/** GET /api/health: live values read back from SQLite and the scheduler, never constants. */
import type { FastifyInstance } from 'fastify';
import { readPragmas } from '../../sql/db.js';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/api/health', { config: { public: true } }, async (_req, reply) => {
    const { db, config, scheduler, sandbox } = app.services;
    let database: Record<string, unknown>;
    let ok = true;
    try {
      const p = readPragmas(db);
      db.prepare('SELECT 1').get();
      database = { status: 'ok', journal_mode: p.journal_mode, foreign_keys: p.foreign_keys, synchronous: p.synchronous, busy_timeout_ms: p.busy_timeout, path: db.name };
    } catch (e) {
      ok = false;
      database = { status: 'error', error: (e as Error).message, path: config.dbPath };
    }
    const sched = scheduler();
    reply.code(ok ? 200 : 503);
    return {
      status: ok ? 'ok' : 'degraded',
      database,
      scheduler: sched,
      runtime: { mode: config.embeddedScheduler ? 'embedded' : 'api-only', sandbox: sandbox(), node: process.version, pid: process.pid },
    };
  });
}
