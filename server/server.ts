/**
 * The `wfctl serve` process shell: open the database, seed built-ins, build the app, listen, and close
 * gracefully on SIGINT / SIGTERM. Everything else lives in the app (app.ts) and the engine.
 */
import type { Writable } from 'node:stream';
import type { Config } from '../core/config.js';
import { openDatabase } from '../sql/db.js';
import { seed } from '../sql/seed.js';
import { detectSandbox } from '../workers/sandbox/detect.js';
import { startEngine } from '../queue/engine.js';
import { buildApp } from './app.js';
import { trackConnections } from './connections.js';
import type { SchedulerStatus } from './services.js';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
  /** Resolves with the exit code once the server has shut down. */
  done: Promise<number>;
}

export async function startServer(config: Config, io: { stdout: Writable } = { stdout: process.stdout }): Promise<RunningServer> {
  const db = openDatabase(config);
  seed(db);
  let scheduler: SchedulerStatus = { status: config.embeddedScheduler ? 'stopped' : 'disabled' };
  // The embedded scheduler (design §2): same process, same database; WFCTL_SCHEDULER=off leaves it to `wfctl worker`.
  const engine = config.embeddedScheduler ? startEngine(db, config) : undefined;
  const schedulerStatus = (): SchedulerStatus => (engine && scheduler.status !== 'stopping' ? engine.scheduler.status() : scheduler);
  const app = await buildApp(
    { db, config, scheduler: schedulerStatus, sandbox: () => detectSandbox() },
    { logger: config.logLevel === 'silent' ? false : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] } },
  );
  const connections = trackConnections(app.server);
  await app.listen({ host: config.host, port: config.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  io.stdout.write(`wfctl serving ${url} (database ${config.dbPath})\n`);

  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      scheduler = { status: 'stopping' };
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // Graceful shutdown (issue 9): the scheduler stops leasing at once and gives in-flight nodes
      // config.shutdownGraceMs (then interrupts them and releases their leases) while the API closes.
      // Spare connections without a request (browsers open them ahead of need) would hold the stop open.
      const stopped = Promise.all([app.close(), engine?.stop()]);
      connections.closeIdle();
      await stopped;
      scheduler = { status: config.embeddedScheduler ? 'stopped' : 'disabled' };
      db.close();
      resolveDone(0);
    })());
  const onSignal = () => void close();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { url, close, done };
}
