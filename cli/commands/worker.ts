import { Command } from 'clipanion';
import { WfCommand } from '../base.js';

export class WorkerCommand extends WfCommand {
  static override paths = [['worker']];
  static override usage = Command.Usage({
    description: 'Run the scheduler alone: lease queued runs and execute them (for deployments that split it from the API)',
    details: `
      Uses the same home and database as \`wfctl serve\` (WFCTL_HOME, WFCTL_DB). Several workers may run at once:
      each job is leased by one of them, and a worker that dies leaves leases that expire (WFCTL_LEASE_MS) and are
      taken over. SIGINT / SIGTERM stop leasing and let in-flight nodes finish for WFCTL_SHUTDOWN_GRACE_MS.
    `,
    examples: [['Run a worker beside `WFCTL_SCHEDULER=off wfctl serve`', '$0 worker']],
  });

  async run(): Promise<number> {
    const { loadConfig } = await import('../../core/config.js');
    const { startEngine } = await import('../../queue/engine.js');
    const { openDatabase } = await import('../../sql/db.js');
    const config = loadConfig(process.env);
    const db = openDatabase(config);
    const engine = startEngine(db, config);
    this.context.stdout.write(`wfctl worker ${engine.scheduler.owner} running (database ${config.dbPath})\n`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    // Graceful shutdown (issue 9): say what the wait is for, since it can last the whole grace period.
    const active = engine.scheduler.status().active_jobs;
    const grace = config.shutdownGraceMs < 10_000 ? `${config.shutdownGraceMs} ms` : `${Math.round(config.shutdownGraceMs / 1000)} s`;
    this.context.stdout.write(`wfctl worker stopping: no new work is leased${active ? `; ${active} job${active === 1 ? '' : 's'} in flight: up to ${grace} to finish, then handed back to the queue` : ''}\n`);
    await engine.stop();
    db.close();
    this.context.stdout.write('wfctl worker stopped\n');
    return 0;
  }
}
