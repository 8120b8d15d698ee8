import { Command, Option, UsageError } from 'clipanion';
import { WfCommand } from '../base.js';

export class ResumeCommand extends WfCommand {
  static override paths = [['resume']];
  static override usage = Command.Usage({
    category: 'Runs',
    description: 'Resume a failed run in this terminal',
    details: `
      The run goes back to queued and executes in this process, like \`wfctl run\`: nodes whose latest step
      completed are kept, the failed node runs again. Same display, --json, Ctrl-C and exit codes as
      \`wfctl run\`. Only a failed run can be resumed.
    `,
    examples: [
      ['Resume a run', '$0 resume 3f2b9c1e-5a7d-4c8e-9f10-2b3c4d5e6f70'],
      ['Resume with a time limit and a JSON result', '$0 resume 3f2b9c1e-5a7d-4c8e-9f10-2b3c4d5e6f70 --timeout 30m --json'],
    ],
  });

  runId = Option.String({ required: true, name: 'run-id' });
  json = Option.Boolean('--json', false, { description: 'Print only one JSON object with the result' });
  timeout = Option.String('--timeout', { description: 'Cancel the run after this long (e.g. 90s, 20m); exit 124' });

  async run(): Promise<number> {
    const { timeoutMsOf } = await import('../options.js');
    const timeoutMs = timeoutMsOf(this.timeout);
    const { loadConfig } = await import('../../core/config.js');
    const { isWfError } = await import('../../core/errors.js');
    const { openDatabase } = await import('../../sql/db.js');
    const { homeLabel, resumeLocalRun } = await import('../local-run.js');
    const { runInTerminal } = await import('../session.js');
    const config = loadConfig(process.env);
    const db = openDatabase(config);
    try {
      try {
        resumeLocalRun(db, this.runId);
      } catch (e) {
        // Naming a run that is not there, or not failed, is the user's mistake: one line and the usage.
        if (isWfError(e) && e.code === 'RUN_NOT_FOUND') throw new UsageError(`no run '${this.runId}' in ${homeLabel(config)}`);
        if (isWfError(e) && e.code === 'RUN_NOT_RESUMABLE') throw new UsageError(e.message);
        throw e;
      }
      return await runInTerminal(db, config, this.runId, this.context as never, { json: this.json, timeoutMs, resumed: true });
    } finally {
      db.close();
    }
  }
}
