import { Command, Option, UsageError } from 'clipanion';
import { WfCommand } from '../base.js';

export class RunsCommand extends WfCommand {
  static override paths = [['runs']];
  static override usage = Command.Usage({
    category: 'Runs',
    description: 'List recent runs (from the terminal and the server alike)',
    details: `
      Newest first. --workflow takes an id, exact name or slugified name. --json prints the runs as a JSON array
      with the same fields as GET /api/workflow-runs.
    `,
    examples: [
      ['The last 20 runs', '$0 runs'],
      ['Runs of one workflow as JSON', '$0 runs --workflow code-review --json'],
      ['Failed runs only', '$0 runs --status failed'],
    ],
  });

  workflow = Option.String('--workflow', { description: 'Only runs of this workflow (id, name or slug)' });
  status = Option.String('--status', { description: 'Only runs in this status (queued, running, waiting_approval, completed, failed, cancelled)' });
  limit = Option.String('--limit', '20', { description: 'How many runs (1-500, default 20)' });
  json = Option.Boolean('--json', false, { description: 'Print a JSON array' });

  async run(): Promise<number> {
    const limit = Number(this.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--limit must be a whole number from 1 to 500, got '${this.limit}'`);
    const { RUN_STATUSES } = await import('../../core/run-state.js');
    if (this.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(this.status)) {
      throw new UsageError(`--status must be one of ${RUN_STATUSES.join(', ')}; got '${this.status}'`);
    }
    const { loadConfig } = await import('../../core/config.js');
    const { openDatabase } = await import('../../sql/db.js');
    const { listRuns } = await import('../../sql/runs.js');
    const { resolveWorkflow } = await import('../../sql/workflows.js');
    const { runSummary } = await import('../../queue/view.js');
    const { homeLabel, workflowNotFound } = await import('../local-run.js');
    const { formatDuration } = await import('../reporter/types.js');
    const config = loadConfig(process.env);
    const db = openDatabase(config);
    try {
      let workflowId: string | undefined;
      if (this.workflow !== undefined) {
        const wf = resolveWorkflow(db, this.workflow);
        if (!wf) throw workflowNotFound(db, config, this.workflow);
        workflowId = wf.id;
      }
      const runs = listRuns(db, { workflowId, status: this.status, limit }).map(runSummary);
      const out = this.context.stdout;
      if (this.json) {
        out.write(JSON.stringify(runs, null, 2) + '\n');
        return 0;
      }
      if (runs.length === 0) {
        out.write(`no runs${this.workflow ? ` of '${this.workflow}'` : ''} in ${homeLabel(config)}\n`);
        return 0;
      }
      const rows = runs.map((r) => {
        const end = r.completed_at ? Date.parse(r.completed_at) : Date.now();
        const took = r.started_at ? formatDuration(end - Date.parse(r.started_at)) : '';
        return [r.id, r.status, r.workflow_name, r.created_at.replace('T', ' ').slice(0, 19), took, r.executor === 'cli' ? 'terminal' : 'server', r.workspace_path];
      });
      const head = ['RUN', 'STATUS', 'WORKFLOW', 'CREATED (UTC)', 'TOOK', 'BY', 'WORKSPACE'];
      const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
      for (const r of [head, ...rows]) out.write(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ') + '\n');
      return 0;
    } finally {
      db.close();
    }
  }
}
