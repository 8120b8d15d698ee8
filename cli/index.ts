/** The wfctl command tree; bin.ts is the executable that runs it. */
import { Builtins, Cli } from 'clipanion';
import { EXIT } from './base.js';
import { ServeCommand } from './commands/serve.js';
import { WorkerCommand } from './commands/worker.js';
import { HookPreCommitCommand } from './commands/hook/pre-commit.js';
import { RunnerCommand } from './commands/runner.js';
import { WorkspaceApproveCommand } from './commands/workspace/approve.js';
import { WorkspaceListCommand } from './commands/workspace/list.js';
import { WorkspaceRevokeCommand } from './commands/workspace/revoke.js';
import { RunCommand } from './commands/run.js';
import { ResumeCommand } from './commands/resume.js';
import { RunsCommand } from './commands/runs.js';
import { UserCreateCommand } from './commands/user/create.js';

export function buildCli(opts: { colored?: boolean } = {}): Cli {
  const cli = new Cli({ binaryLabel: 'wfctl', binaryName: 'wfctl', binaryVersion: '0.1.0', enableCapture: false, enableColors: opts.colored });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  cli.register(ServeCommand);
  cli.register(WorkerCommand);
  cli.register(HookPreCommitCommand);
  cli.register(RunnerCommand);
  cli.register(WorkspaceApproveCommand);
  cli.register(WorkspaceListCommand);
  cli.register(WorkspaceRevokeCommand);
  cli.register(RunCommand);
  cli.register(ResumeCommand);
  cli.register(RunsCommand);
  cli.register(UserCreateCommand);
  return cli;
}

/** Runs one invocation; returns the exit code (usage errors are 2, as design.md §10 says). */
export async function main(argv: string[], context = Cli.defaultContext): Promise<number> {
  // Colour only on a terminal (help piped into a file or a pager stays plain); NO_COLOR is honoured by Node's getColorDepth.
  if (!(context.stdout as { isTTY?: boolean }).isTTY) context = { ...context, colorDepth: 1 };
  const colored = !process.env.NO_COLOR && context.colorDepth > 1;
  // Given to the Cli itself as well: `wfctl --help` (clipanion's HelpCommand) formats without a context and would
  // otherwise colour by TERM alone, even into a pipe.
  const cli = buildCli({ colored });
  let command;
  try {
    command = cli.process(argv, context);
  } catch (e) {
    context.stderr.write(cli.error(e, { colored }));
    return EXIT.usage;
  }
  return cli.run(command, context);
}

