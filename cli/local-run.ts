/**
 * `wfctl run` as a library: prepares a run in the calling process (workflow, approved workspace, sandbox,
 * createRun with executor 'cli') and executes it with a Scheduler scoped to that run (heartbeat, node pool,
 * delivery), polling the database for the reporter until the run is over. No server, no token: the rows and
 * run_events it writes are what a server on the same home shows live. Server schedulers never lease jobs of
 * executor 'cli' runs, and the sweeper fails such a run only when its heartbeat stops (this process died).
 */
import os from 'node:os';
import type { Config } from '../core/config.js';
import { WfError, isWfError } from '../core/errors.js';
import { isAgentNode, type ApprovalAction, type Graph } from '../core/graph.js';
import { isTerminalRun } from '../core/run-state.js';
import { formatMs } from './format.js';
import type { DB } from '../sql/db.js';
import { cancelRun, createRun, expireApprovals, resolveApproval, resumeRun } from '../queue/lifecycle.js';
import { Scheduler } from '../queue/scheduler.js';
import { getApproval, pendingApprovalsOfRun, toApproval, type Approval } from '../sql/approvals.js';
import { eventBus, eventsAfter } from '../sql/events.js';
import { listLogs } from '../sql/logs.js';
import { getRun, heartbeat, runGraph, runLevels, type RunRow } from '../sql/runs.js';
import { listSteps } from '../sql/steps.js';
import { seed } from '../sql/seed.js';
import { listWorkflows, resolveWorkflow } from '../sql/workflows.js';
import { deliverRun } from '../workers/delivery.js';
import { createNodePool } from '../workers/pool.js';
import { detectSandbox } from '../workers/sandbox/detect.js';
import { resolveApprovedWorkspace } from '../workers/workspace.js';
import { approvalHowTo, type Reporter, type RunEnding, type RunResult, type RunSnapshot } from './reporter/types.js';

export interface StartInput {
  workflow: string;
  repo: string;
  write: boolean;
  /** false = --no-sandbox. */
  sandbox: boolean;
  timeoutMs?: number;
}

/** The home a lookup used, for messages that must say where wfctl looked (spec CLI rule 10). */
export function homeLabel(config: Config): string {
  const dbNote = config.dbPath.startsWith(config.home + '/') ? '' : `, database ${config.dbPath} (WFCTL_DB)`;
  return `${config.home} (WFCTL_HOME${dbNote})`;
}

/**
 * The refusal for an unknown workflow, naming what this home does have (by name, as `wfctl run` accepts it), so
 * a typo or the wrong WFCTL_HOME shows at once.
 */
export function workflowNotFound(db: DB, config: Config, asked: string): WfError {
  const names = (kind: 'user' | 'template') => {
    const all = listWorkflows(db, kind).map((w) => `'${w.name}'`);
    return all.length > 8 ? `${all.slice(0, 8).join(', ')} and ${all.length - 8} more` : all.join(', ');
  };
  const own = names('user');
  const templates = names('template');
  const known = [own && `workflows ${own}`, templates && `templates ${templates}`].filter(Boolean).join('; ');
  return new WfError('WORKFLOW_NOT_FOUND', `workflow '${asked}' not found in ${homeLabel(config)}; ${known ? `this home has ${known}` : 'this home has no workflows yet'} (all users of one install must share the same WFCTL_HOME)`);
}

/** Whether any node runs an agent CLI straight on the host (runtime direct), i.e. needs OS confinement. */
export function needsHostSandbox(graph: Graph): boolean {
  return graph.nodes.some((n) => isAgentNode(n.type) && (n.data.runtime ?? 'direct') === 'direct');
}

/**
 * Every refusal happens here, before a run row exists and long before an agent starts: unknown workflow
 * (WORKFLOW_NOT_FOUND), unapproved repository (WORKSPACE_NOT_APPROVED), no OS sandbox (SANDBOX_UNAVAILABLE).
 */
export function createLocalRun(db: DB, config: Config, input: StartInput): RunRow {
  // A home that no server has started yet lacks the built-in templates: seed them (as `serve` does at start-up)
  // before concluding the workflow is missing. Paid only on a miss, so ordinary runs stay fast.
  const wf = resolveWorkflow(db, input.workflow) ?? (seed(db), resolveWorkflow(db, input.workflow));
  if (!wf) throw workflowNotFound(db, config, input.workflow);
  const workspacePath = resolveApprovedWorkspace(db, config, input.repo);
  if (input.sandbox && needsHostSandbox(wf.graph)) {
    const kind = detectSandbox();
    if (kind === 'none') {
      throw new WfError('SANDBOX_UNAVAILABLE', `no OS sandbox is available on this host (bubblewrap is missing or user namespaces are disabled), so agents cannot be confined to the run's copy; install bubblewrap, set runtime: container on the agent nodes, or pass --no-sandbox to run them unconfined`);
    }
    if (kind !== 'bwrap') {
      throw new WfError('SANDBOX_UNAVAILABLE', `${kind} confinement is not supported yet, so agents cannot be confined to the run's copy; set runtime: container on the agent nodes, or pass --no-sandbox to run them unconfined`);
    }
  }
  return createRun(db, {
    workflowId: wf.id, workflowName: wf.name, graph: wf.graph, workspacePath, write: input.write, sandbox: input.sandbox, executor: 'cli',
    createdBy: null, timeoutAt: input.timeoutMs ? new Date(Date.now() + input.timeoutMs).toISOString() : null,
  });
}

/**
 * A failed run back to queued, claimed by this process (executor 'cli', fresh heartbeat) in the same
 * transaction as the resume, so no server scheduler leases its run.start job first.
 */
export function resumeLocalRun(db: DB, runId: string): RunRow {
  return db.transaction(() => {
    const run = resumeRun(db, runId, 'cli');
    heartbeat(db, runId);
    return run;
  }).immediate();
}

/** Interactive gate prompt (cli/prompt.ts on a terminal); undefined when the signal aborted it. */
export interface ApprovalPrompter {
  ask(approval: Approval, signal: AbortSignal): Promise<{ action: ApprovalAction; note: string } | undefined>;
}

export interface LocalRunOptions {
  reporter: Reporter;
  /** Absent: no prompt, the reporter prints how to resolve the gate elsewhere and the run waits. */
  prompter?: ApprovalPrompter;
  timeoutMs?: number;
  resumed?: boolean;
}

/** Executes one run in this process; interrupt() cancels it. */
export class LocalRun {
  private interrupted = false;
  private timedOut = false;
  private readonly handled = new Set<string>();
  private promptAbort?: AbortController;
  private prompting?: Promise<void>;
  private lastLogId = 0;
  private lastEventId = 0;
  private readonly lastMessage = new Map<string, string>();
  private wake?: () => void;

  constructor(private readonly db: DB, private readonly config: Config, readonly runId: string, private readonly opts: LocalRunOptions) {}

  /** First Ctrl-C: cancel the run; the engine's progress poller kills the agents' process groups. */
  interrupt(reason = 'interrupted (Ctrl-C in wfctl run)'): void {
    if (this.interrupted) return;
    this.interrupted = true;
    this.promptAbort?.abort();
    this.cancel(reason);
    void this.opts.reporter.notice('cancelling the run: stopping agents (Ctrl-C again to exit at once)');
  }

  /** Second Ctrl-C: kill whatever agent process group of this run is still alive, right now. */
  killAgentsNow(): void {
    const rows = this.db.prepare(`SELECT pid FROM agent_runs WHERE run_id = ? AND status = 'running' AND pid IS NOT NULL`).all(this.runId) as Array<{ pid: number }>;
    for (const { pid } of rows) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }

  private cancel(reason: string): void {
    try {
      cancelRun(this.db, this.runId, reason);
    } catch (e) {
      // Already over (completed a moment ago): nothing to cancel.
      if (!isWfError(e)) throw e;
    }
    this.wake?.();
  }

  async execute(): Promise<RunResult> {
    const { db, config, runId, opts } = this;
    const first = getRun(db, runId)!;
    opts.reporter.start(first, { resumed: opts.resumed === true });
    const pool = createNodePool(config);
    const scheduler = new Scheduler(db, config, {
      scope: { runId }, heartbeatRunId: runId, pool, deliver: (id) => deliverRun(db, config, id), onJobDone: () => this.wake?.(),
    }).start();
    const timer = opts.timeoutMs ? setTimeout(() => {
      this.timedOut = true;
      this.promptAbort?.abort();
      this.cancel(`timed out after ${formatMs(opts.timeoutMs!)} (--timeout)`);
    }, opts.timeoutMs) : undefined;
    const onEvent = () => this.wake?.();
    eventBus.on('event', onEvent);
    // Fast enough for a live display, slow enough not to compete for the write lock's readers.
    const pollMs = Math.min(250, Math.max(50, config.pollIntervalMs));
    let lastExpiry = 0;
    let snap: RunSnapshot;
    try {
      for (;;) {
        if (Date.now() - lastExpiry > config.sweepIntervalMs) {
          lastExpiry = Date.now();
          try {
            expireApprovals(db);
          } catch {
            /* busy: next time */
          }
        }
        snap = this.snapshot();
        opts.reporter.update(snap);
        if (isTerminalRun(snap.run.status)) break;
        if (snap.pendingApproval && !this.handled.has(snap.pendingApproval.id)) this.onGate(snap.pendingApproval);
        await new Promise<void>((resolve) => {
          const t = setTimeout(done, pollMs);
          function done() {
            clearTimeout(t);
            resolve();
          }
          this.wake = done;
        });
        this.wake = undefined;
      }
    } finally {
      clearTimeout(timer);
      eventBus.off('event', onEvent);
      this.promptAbort?.abort();
      await this.prompting;
      // In-flight level jobs end once their agents are stopped (the poller kills the group, TERM then KILL);
      // waiting for them here is what leaves no agent process behind.
      await scheduler.stop(Math.max(config.shutdownGraceMs, 10_000));
      await pool.close();
      this.killAgentsNow();
    }
    snap = this.snapshot();
    const ending: RunEnding = snap.run.status === 'completed' ? 'completed' : snap.run.status === 'failed' ? 'failed' : this.timedOut ? 'timed_out' : 'cancelled';
    const result = { ending, snapshot: snap };
    await opts.reporter.finish(result);
    return result;
  }

  private snapshot(): RunSnapshot {
    const run = getRun(this.db, this.runId)!;
    const newLogs = listLogs(this.db, this.runId).filter((l) => l.id > this.lastLogId);
    if (newLogs.length) this.lastLogId = newLogs[newLogs.length - 1].id;
    for (;;) {
      const evs = eventsAfter(this.db, this.lastEventId, this.runId, 500);
      for (const e of evs) {
        this.lastEventId = e.id;
        // A new attempt starts with a blank line, not the previous attempt's last words.
        if (e.type === 'agent.started' && typeof e.payload.node_id === 'string') this.lastMessage.delete(e.payload.node_id);
        if (e.type !== 'agent.message') continue;
        const line = String(e.payload.content ?? '').split('\n').map((l) => l.trim()).filter(Boolean).pop();
        if (line && typeof e.payload.node_id === 'string') this.lastMessage.set(e.payload.node_id, line.slice(0, 200));
      }
      if (evs.length < 500) break;
    }
    const pending = run.status === 'waiting_approval' ? pendingApprovalsOfRun(this.db, this.runId)[0] : undefined;
    return {
      run, graph: runGraph(run), levels: runLevels(run), steps: listSteps(this.db, this.runId), newLogs, lastMessage: this.lastMessage,
      pendingApproval: pending && toApproval(pending),
    };
  }

  private onGate(a: Approval): void {
    this.handled.add(a.id);
    const prompter = this.opts.prompter;
    if (!prompter) {
      void this.opts.reporter.notice(approvalHowTo(a));
      return;
    }
    this.prompting = this.promptFor(prompter, a).finally(() => (this.prompting = undefined));
  }

  /** The terminal prompt, closed as soon as the same approval is resolved elsewhere (UI, API) or the run ends. */
  private async promptFor(prompter: ApprovalPrompter, a: Approval): Promise<void> {
    const { db, opts } = this;
    const ac = new AbortController();
    this.promptAbort = ac;
    const watch = setInterval(() => {
      try {
        if (getApproval(db, a.id)?.status !== 'pending') ac.abort();
      } catch {
        /* busy */
      }
    }, 300);
    await opts.reporter.pause();
    try {
      for (;;) {
        const answer = await prompter.ask(a, ac.signal);
        if (!answer) break;
        try {
          const who = `${os.userInfo().username} (terminal)`;
          const r = resolveApproval(db, { runId: this.runId, approvalId: a.id, action: answer.action, note: answer.note, user: { id: null, username: who } });
          process.stderr.write(`approval ${r.approval.status.replace('_', ' ')}\n`);
          break;
        } catch (e) {
          if (!isWfError(e)) throw e;
          process.stderr.write(`wfctl: ${e.message}\n`);
          if (e.code !== 'NOTE_REQUIRED' && e.code !== 'ACTION_NOT_ALLOWED') break;
        }
      }
    } finally {
      clearInterval(watch);
      this.promptAbort = undefined;
    }
    const now = getApproval(db, a.id);
    if (ac.signal.aborted && now && now.status !== 'pending' && !this.interrupted && !this.timedOut) {
      await opts.reporter.notice(`approval '${a.title}' was ${now.status.replace('_', ' ')} elsewhere${now.resolved_by_name ? ` by ${now.resolved_by_name}` : ''}`);
    }
    opts.reporter.resume();
    this.wake?.();
  }
}
