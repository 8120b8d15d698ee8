import { Command, Option } from 'clipanion';
import { WfCommand } from '../../base.js';

export class WorkspaceApproveCommand extends WfCommand {
  static override paths = [['workspace', 'approve']];
  static override usage = Command.Usage({
    category: 'Workspaces',
    description: 'Approve a repository folder as a workspace agents may work on',
    details: `
      Stores the folder's real path (symlinks resolved). Folders under WFCTL_WORKSPACE_ROOTS
      (default $WFCTL_HOME/codebases) are approved without this.
    `,
    examples: [
      ['Approve the current folder', '$0 workspace approve .'],
      ['Approve a repository with a label', '$0 workspace approve ~/src/api --label "API service"'],
    ],
  });

  folder = Option.String({ required: true, name: 'path' });
  label = Option.String('--label', { description: 'A name shown in the UI (default: the folder name)' });

  async run(): Promise<number> {
    const { loadConfig } = await import('../../../core/config.js');
    const { openDatabase } = await import('../../../sql/db.js');
    const { approveWorkspace } = await import('../../../workers/workspace.js');
    const config = loadConfig(process.env);
    const db = openDatabase(config);
    try {
      const { row, created } = approveWorkspace(db, this.folder, { label: this.label, approvedBy: process.env.USER ?? null });
      this.context.stdout.write(created ? `approved ${row.path}\n` : `already approved: ${row.path}\n`);
      return 0;
    } finally {
      db.close();
    }
  }
}
