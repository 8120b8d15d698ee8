/**
 * The periodic sweeper: expires pending approvals past expires_at (the routes also expire before listing or
 * resolving), fails `wfctl run` runs whose terminal stopped heartbeating ("executor lost"), fails runs whose
 * job was abandoned after its last attempt, and prunes old finished jobs.
 */
import type { Config } from '../core/config.js';
import { nowIso } from '../core/time.js';
import type { DB } from '../sql/db.js';
import { abandonedJobs, markJobFailed, pruneJobs } from '../sql/jobs.js';
import { staleCliRuns } from '../sql/runs.js';
import { expireApprovals, failRun } from './lifecycle.js';

/** A CLI run whose heartbeat is older than this is lost; at least 30 s so a busy machine does not trip it. */
export function cliStaleMs(config: Pick<Config, 'sweepIntervalMs'>): number {
  return Math.max(30_000, config.sweepIntervalMs * 3);
}

/** Finished jobs are kept this long for inspection, then deleted. */
export const JOB_RETENTION_MS = 7 * 24 * 3_600_000;

export interface SweepResult {
  expired: number;
  lost: number;
  abandoned: number;
}

/** One sweep; each change is its own short transaction. */
export function sweep(db: DB, config: Pick<Config, 'sweepIntervalMs'>, nowMs = Date.now(), staleMs = cliStaleMs(config)): SweepResult {
  const now = nowIso(nowMs);
  const expired = expireApprovals(db, now);
  let lost = 0;
  for (const run of staleCliRuns(db, nowIso(nowMs - staleMs))) {
    if (failRun(db, run.id, `executor lost: the wfctl run process stopped reporting (last heartbeat ${run.heartbeat_at ?? 'never'})`, 'executor_lost')) lost++;
  }
  let abandoned = 0;
  for (const job of abandonedJobs(db, now)) {
    db.transaction(() => markJobFailed(db, job.id, `abandoned: lease expired after attempt ${job.attempts} of ${job.max_attempts}`, now)).immediate();
    if (job.run_id && failRun(db, job.run_id, `${job.kind} job was abandoned after ${job.attempts} attempts (the process running it kept stopping)`, 'executor_lost')) abandoned++;
  }
  db.transaction(() => pruneJobs(db, nowIso(nowMs - JOB_RETENTION_MS))).immediate();
  return { expired, lost, abandoned };
}

export class Sweeper {
  private timer?: NodeJS.Timeout;

  constructor(private readonly db: DB, private readonly config: Config) {}

  start(): this {
    if (this.timer) return this;
    const tick = () => {
      try {
        sweep(this.db, this.config);
      } catch {
        /* a busy database: the next sweep retries */
      }
    };
    tick();
    this.timer = setInterval(tick, this.config.sweepIntervalMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
