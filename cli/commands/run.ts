import { Command, Option } from 'clipanion';
import { WfCommand } from '../base.js';

export class RunCommand extends WfCommand {
  static override paths = [['run']];
  static override usage = Command.Usage({
    category: 'Runs',
    description: 'Run a workflow on a repository in this terminal',
    details: `
      Executes the run in this process, straight on the database of WFCTL_HOME: no server and no token are
      needed, and the run shows live in the web UI and the API of a server on the same home. The workflow is
      found by id, exact name or slugified name. The repository must be an approved workspace
      (\`wfctl workspace approve\`); agents work in an isolated copy of it, confined by the OS sandbox, and
      the run is read-only unless --write is given, in which case the result is delivered as a pull request
      (or a git bundle when the repository has no remote).

      On a terminal the levels and nodes are drawn as a live tree, and an approval gate asks approve /
      reject / request revision (the gate can also be resolved in the web UI). Elsewhere it prints plain
      timestamped lines; --json prints only one JSON object at the end. NO_COLOR turns colour off.
      Ctrl-C cancels the run and stops its agents; a second Ctrl-C exits at once.

      Exit codes: 0 completed, 1 failed, 2 usage, 3 workflow not found, 4 workspace not approved,
      5 no sandbox available, 124 timed out, 130 cancelled.
    `,
    examples: [
      ['Review the current repository with the workflow named "Code review"', '$0 run code-review --repo .'],
      ['Let the agents change code and open a pull request', '$0 run "Fix failing tests" --repo ~/src/api --write'],
      ['Give up after 20 minutes, machine-readable result', '$0 run code-review --repo . --timeout 20m --json'],
      ['Run agents unconfined on a host without bubblewrap', '$0 run code-review --repo . --no-sandbox'],
    ],
  });

  workflow = Option.String({ required: true, name: 'workflow-id-or-name' });
  repo = Option.String('--repo', { required: true, description: 'Repository (an approved workspace) to run on' });
  json = Option.Boolean('--json', false, { description: 'Print only one JSON object with the result' });
  write = Option.Boolean('--write', false, { description: 'Let agents change the copy and deliver it as a pull request' });
  timeout = Option.String('--timeout', { description: 'Cancel the run after this long (e.g. 90s, 20m, 1h30m); exit 124' });
  sandbox = Option.Boolean('--sandbox', true, { description: 'Confine agents with the OS sandbox (--no-sandbox: run them unconfined)' });

  async run(): Promise<number> {
    const { timeoutMsOf } = await import('../options.js');
    const timeoutMs = timeoutMsOf(this.timeout);
    const { loadConfig } = await import('../../core/config.js');
    const { openDatabase } = await import('../../sql/db.js');
    const { createLocalRun } = await import('../local-run.js');
    const { runInTerminal } = await import('../session.js');
    const config = loadConfig(process.env);
    const db = openDatabase(config);
    try {
      let runId: string;
      try {
        runId = createLocalRun(db, config, { workflow: this.workflow, repo: this.repo, write: this.write, sandbox: this.sandbox, timeoutMs }).id;
      } catch (e) {
        // Under --json stdout still gets its one object, saying why no run started; stderr gets the line.
        if (this.json) this.context.stdout.write(JSON.stringify({ run_id: null, status: 'not_started', error: (e as Error).message, code: (e as { code?: string }).code ?? null }) + '\n');
        throw e;
      }
      return await runInTerminal(db, config, runId, this.context as never, { json: this.json, timeoutMs });
    } finally {
      db.close();
    }
  }
}
