import { Command, Option } from 'clipanion';
import { WfCommand } from '../../base.js';

export class WorkspaceListCommand extends WfCommand {
  static override paths = [['workspace', 'list']];
  static override usage = Command.Usage({
    category: 'Workspaces',
    description: 'List approved workspaces and the roots whose folders are approved',
    examples: [
      ['List them', '$0 workspace list'],
      ['As JSON', '$0 workspace list --json'],
    ],
  });

  json = Option.Boolean('--json', false, { description: 'Print one JSON object: { roots, workspaces }' });

  async run(): Promise<number> {
    const { loadConfig } = await import('../../../core/config.js');
    const { openDatabase } = await import('../../../sql/db.js');
    const { listWorkspaces } = await import('../../../workers/workspace.js');
    const config = loadConfig(process.env);
    const db = openDatabase(config);
    try {
      const workspaces = listWorkspaces(db);
      const out = this.context.stdout;
      if (this.json) {
        out.write(JSON.stringify({ roots: config.workspaceRoots, workspaces }) + '\n');
        return 0;
      }
      for (const r of config.workspaceRoots) out.write(`root  ${r}\n`);
      for (const w of workspaces) out.write(`      ${w.path}${w.label ? `  (${w.label})` : ''}\n`);
      if (!workspaces.length) out.write('no approved workspaces; add one with `wfctl workspace approve <path>`\n');
      return 0;
    } finally {
      db.close();
    }
  }
}
