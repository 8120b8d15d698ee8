/**
 * The terminal around one local run, shared by `wfctl run` and `wfctl resume`: picks the reporter (tree on a
 * terminal, plain lines otherwise, JSON under --json), the gate prompt (only with a terminal on both stdin and
 * stdout), Ctrl-C handling (first: cancel and wait for the agents to stop; second: kill them and exit at once),
 * and the exit code of design §10.
 */
import type { Config } from '../core/config.js';
import type { DB } from '../sql/db.js';
import { EXIT } from './base.js';
import { LocalRun } from './local-run.js';
import { terminalPrompter } from './prompt.js';
import { JsonReporter } from './reporter/json.js';
import { PlainReporter } from './reporter/plain.js';
import { TreeReporter } from './reporter/tree.js';
import type { Reporter, RunEnding } from './reporter/types.js';

export interface SessionStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

const ENDING_EXIT: Record<RunEnding, number> = { completed: EXIT.completed, failed: EXIT.failed, cancelled: EXIT.cancelled, timed_out: EXIT.timedOut };

export function pickReporter(io: SessionStreams, json: boolean): Reporter {
  if (json) return new JsonReporter(io.stdout, io.stderr);
  // A terminal reporting no width (some pseudo-terminals) would get an empty tree: plain lines are better there.
  return io.stdout.isTTY && (io.stdout.columns ?? 0) > 0 ? new TreeReporter(io.stdout) : new PlainReporter(io.stdout);
}

/** Executes the run in this process and returns its exit code. */
export async function runInTerminal(db: DB, config: Config, runId: string, io: SessionStreams, opts: { json: boolean; timeoutMs?: number; resumed?: boolean }): Promise<number> {
  const interactive = !opts.json && io.stdin.isTTY === true && io.stdout.isTTY === true;
  const run = new LocalRun(db, config, runId, {
    reporter: pickReporter(io, opts.json), prompter: interactive ? terminalPrompter(io.stdin, io.stderr) : undefined,
    timeoutMs: opts.timeoutMs, resumed: opts.resumed,
  });
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts++;
    if (interrupts === 1) return run.interrupt();
    // Second Ctrl-C: no more waiting, but no orphan either.
    run.killAgentsNow();
    io.stderr.write('\nwfctl: interrupted again: agents killed, exiting\n');
    process.exit(EXIT.cancelled);
  };
  const onTerm = () => run.interrupt('the wfctl run process was terminated (SIGTERM/SIGHUP)');
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onTerm);
  try {
    const { ending } = await run.execute();
    return ENDING_EXIT[ending];
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onTerm);
  }
}
