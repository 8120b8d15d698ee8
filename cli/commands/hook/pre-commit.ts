import { Command, Option, UsageError } from 'clipanion';
import { WfCommand } from '../../base.js';

export class HookPreCommitCommand extends WfCommand {
  static override paths = [['hook', 'pre-commit']];
  static override usage = Command.Usage({
    category: 'Repositories',
    description: 'Install a git pre-commit hook that runs a workflow as a gate',
    details: `
      Writes the gate scaffold into the repository's hooks folder (\`git rev-parse --git-path hooks\`).
      The hook reads WFCTL_WORKFLOW_ID (defaulting to the WFCTL_WORKFLOW value given now); when it is unset the
      hook warns and lets the commit through; when set it runs the workflow read-only on the repository and
      blocks the commit unless the run completes. An existing pre-commit hook is never overwritten silently:
      pass --force to replace it, or --print to write the script to standard output instead.
    `,
    examples: [
      ['Install a gate running the workflow named in WFCTL_WORKFLOW', 'WFCTL_WORKFLOW=code-review $0 hook pre-commit --repo .'],
      ['Print the script instead of installing it', '$0 hook pre-commit --print'],
      ['Replace an existing hook', '$0 hook pre-commit --repo ~/src/app --force'],
    ],
  });

  repo = Option.String('--repo', '.', { description: 'Repository to install the hook into (default: the current folder)' });
  force = Option.Boolean('--force', false, { description: 'Replace an existing pre-commit hook' });
  print = Option.Boolean('--print', false, { description: 'Print the hook script instead of installing it' });

  async run(): Promise<number> {
    const { hookScript, installPreCommitHook } = await import('../../hooks.js');
    const script = hookScript({ defaultWorkflow: process.env.WFCTL_WORKFLOW ?? '' });
    if (this.print) {
      this.context.stdout.write(script);
      return 0;
    }
    const result = installPreCommitHook(this.repo, script, { force: this.force });
    if (result.status === 'exists') {
      throw new UsageError(`${result.path} already exists and is not wfctl's; re-run with --force to replace it (a copy is kept as pre-commit.wfctl-backup) or --print to merge it by hand`);
    }
    this.context.stdout.write(`${result.status === 'replaced' ? 'replaced' : 'installed'} ${result.path}\n`);
    if (!process.env.WFCTL_WORKFLOW) {
      this.context.stdout.write('note: WFCTL_WORKFLOW was not set, so the hook runs only when WFCTL_WORKFLOW_ID is set at commit time\n');
    }
    return 0;
  }
}
