import { Command, Option } from 'clipanion';
import { WfError } from '../../../core/errors.js';
import { WfCommand } from '../../base.js';

export class WorkspaceRevokeCommand extends WfCommand {
  static override paths = [['workspace', 'revoke']];
  static override usage = Command.Usage({
    category: 'Workspaces',
    description: 'Withdraw the approval of a workspace (by path or id)',
    examples: [['Revoke a repository', '$0 workspace revoke ~/src/api']],
  });

  target = Option.String({ required: true, name: 'path-or-id' });

  async run(): Promise<number> {
    const { loadConfig } = await import('../../../core/config.js');
    const { openDatabase } = await import('../../../sql/db.js');
    const { revokeWorkspace } = await import('../../../workers/workspace.js');
    const config = loadConfig(process.env);
    const db = openDatabase(config);
    try {
      const row = revokeWorkspace(db, this.target);
      if (!row) throw new WfError('WORKSPACE_NOT_FOUND', `no approved workspace ${this.target}; see \`wfctl workspace list\``);
      this.context.stdout.write(`revoked ${row.path}\n`);
      return 0;
    } finally {
      db.close();
    }
  }
}
