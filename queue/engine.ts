/** The engine as a unit: scheduler + Piscina pool + sweeper, started by `wfctl serve` and `wfctl worker`. */
import type { Config } from '../core/config.js';
import type { DB } from '../sql/db.js';
import { createNodePool } from '../workers/pool.js';
import { Scheduler, type SchedulerOptions } from './scheduler.js';
import { Sweeper } from './sweeper.js';

export interface Engine {
  scheduler: Scheduler;
  sweeper: Sweeper;
  stop(graceMs?: number): Promise<void>;
}

export function startEngine(db: DB, config: Config, opts: SchedulerOptions = {}): Engine {
  const pool = opts.pool ?? createNodePool(config);
  const scheduler = new Scheduler(db, config, { ...opts, pool }).start();
  const sweeper = new Sweeper(db, config).start();
  return {
    scheduler,
    sweeper,
    async stop(graceMs?: number) {
      sweeper.stop();
      await scheduler.stop(graceMs);
      await pool.close();
    },
  };
}
