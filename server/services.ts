/** The shared services the app is built with, decorated once onto Fastify (see app.ts). */
import type { Config } from '../core/config.js';
import type { DB } from '../sql/db.js';

/** What health reports about the scheduler; the engine supplies the live one. */
export interface SchedulerStatus {
  status: 'running' | 'stopping' | 'stopped' | 'disabled';
  owner?: string;
}

export interface Services {
  db: DB;
  config: Config;
  /** Live scheduler status (embedded scheduler, or 'disabled' when WFCTL_SCHEDULER=off). */
  scheduler: () => SchedulerStatus;
  /** Which confinement agent processes get on this host ('bwrap', 'sandbox-exec', 'none'). */
  sandbox: () => string;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
