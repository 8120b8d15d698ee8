/**
 * Base of every command: commands implement run() and return an exit code; mistakes the user can fix
 * (UsageError, domain errors) print one line (plus usage for UsageError), never a stack.
 */
import { Command, UsageError } from 'clipanion';
import { isWfError, type ErrorCode } from '../core/errors.js';

/** Exit codes of design.md §10. */
export const EXIT = {
  completed: 0,
  failed: 1,
  usage: 2,
  workflowNotFound: 3,
  workspaceNotApproved: 4,
  noSandbox: 5,
  timedOut: 124,
  cancelled: 130,
} as const;

const CODE_EXIT: Partial<Record<ErrorCode, number>> = {
  WORKFLOW_NOT_FOUND: EXIT.workflowNotFound,
  WORKSPACE_NOT_APPROVED: EXIT.workspaceNotApproved,
  SANDBOX_UNAVAILABLE: EXIT.noSandbox,
  BAD_REQUEST: EXIT.usage,
  CONFIG_INVALID: EXIT.usage,
};

export abstract class WfCommand extends Command {
  abstract run(): Promise<number>;

  async execute(): Promise<number> {
    try {
      return await this.run();
    } catch (e) {
      return this.report(e);
    }
  }

  /** Writes an error the way a person wants to read it and returns the exit code. */
  protected report(e: unknown): number {
    const err = this.context.stderr;
    if (e instanceof UsageError) {
      err.write(`wfctl: ${e.message}\n\n${this.cli.usage(this, { detailed: false })}`);
      return EXIT.usage;
    }
    if (isWfError(e)) {
      err.write(`wfctl: ${e.message}\n`);
      return CODE_EXIT[e.code] ?? EXIT.failed;
    }
    err.write(`wfctl: unexpected error: ${(e as Error)?.stack ?? String(e)}\n`);
    return EXIT.failed;
  }
}
