/**
 * The scheduler (design §2; "supervisor process" on the design card): leases run.start and run.level jobs
 * and drives runs level by level. It runs inside `wfctl serve`, alone as `wfctl worker`, and scoped to one run
 * inside `wfctl run` (which heartbeats the run so the sweeper can tell a live terminal from a lost one).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Config } from '../core/config.js';
import { storageFault } from '../core/errors.js';
import { computeLevels, maxParallelNodes, type Graph, type Level } from '../core/graph.js';
import { isSkipped, type ParentState } from '../core/condition.js';
import { joinLevel } from '../core/context.js';
import { approvalExpiry } from '../core/run-state.js';
import { finalReport } from '../core/report.js';
import type { DB } from '../sql/db.js';
import { appendEvent } from '../sql/events.js';
import { appendLog } from '../sql/logs.js';
import { insertApproval, toApproval } from '../sql/approvals.js';
import { getRun, heartbeat, runContext, runGraph, setRunPlan, setRunProgress, transitionRun, type RunRow } from '../sql/runs.js';
import { closeLostAgentRuns, completedOutputs, finishStep, insertStep, latestSteps, type StepRow } from '../sql/steps.js';
import { runNode, type NodeOutcome, type NodeTask } from '../workers/executors/index.js';
import type { NodePool } from '../workers/pool.js';
import { deliverRun } from '../workers/delivery.js';
import { prepareWorkingCopy } from '../workers/workspace.js';
import { complete, enqueue, fail, lease, queueEvents, release as releaseJob, releaseOwned, renew, type Job, type JobScope, type LevelPayload } from './jobs.js';
import { failRun, failRunForNode } from './lifecycle.js';
import { Semaphore } from './semaphore.js';
import { broadcastInterrupt } from '../workers/shutdown.js';

/**
 * After the grace period, how long interrupted nodes get to wind down (runAgent's TERM → KILL of the agent's
 * group takes up to 2 s) before the remaining leases are released regardless.
 */
export const INTERRUPT_WAIT_MS = 5000;

/** Thrown by a job whose nodes were interrupted by shutdown: the job is released, not completed or failed. */
class JobInterrupted extends Error {}

/**
 * One line on stderr (the process log of `wfctl serve` / `wfctl worker`) for a storage fault the scheduler
 * survives (issue 9): the database cannot be written for a while; jobs are retried, nothing crashes.
 */
function logStorage(what: string, e: unknown): void {
  process.stderr.write(`wfctl scheduler: ${what}: ${storageFault(e) ?? (e as Error)?.message ?? String(e)}\n`);
}

/** Resolves true when `p` settles within `ms`, false otherwise. */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const tx = <T>(db: DB, fn: () => T): T => db.transaction(fn).immediate();

export interface SchedulerOptions {
  /** Lease owner name; default host:pid:random. */
  owner?: string;
  /** Which runs' jobs to take (default: every run not owned by a `wfctl run` process). */
  scope?: JobScope;
  /** Jobs worked on at once (different runs' levels); default 32. */
  maxJobs?: number;
  /** Pool for parallel levels; without one, parallel nodes run concurrently in this thread. */
  pool?: NodePool;
  /** Write heartbeat_at of the scoped run (wfctl run). */
  heartbeatRunId?: string;
  /** Called after every job (tests and `wfctl run` watch progress through it). */
  onJobDone?: (job: Job) => void;
  /** Delivers a completed write run; default workers/delivery.ts deliverRun. */
  deliver?: (runId: string) => Promise<{ message: string; branch?: string; pull_request_url?: string; bundle_path?: string }>;
}

export type SchedulerState = 'running' | 'stopping' | 'stopped';

export class Scheduler {
  readonly owner: string;
  private state: SchedulerState = 'stopped';
  private readonly active = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private hbTimer?: NodeJS.Timeout;
  private wakePending = false;
  /** Set when the shutdown grace period is over and in-flight nodes are being interrupted. */
  private interrupting = false;
  /** Set while leasing fails (database read-only, full…), so the fault is logged once, not every poll. */
  private leaseFault = false;
  private readonly agents: Semaphore;
  private readonly onEnqueued = () => this.wake();

  constructor(private readonly db: DB, private readonly config: Config, private readonly opts: SchedulerOptions = {}) {
    this.owner = opts.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.agents = new Semaphore(config.maxAgents);
  }

  status(): { status: SchedulerState; owner: string; active_jobs: number } {
    return { status: this.state, owner: this.owner, active_jobs: this.active.size };
  }

  start(): this {
    if (this.state === 'running') return this;
    this.state = 'running';
    queueEvents.on('enqueued', this.onEnqueued);
    this.timer = setInterval(() => this.wake(), this.config.pollIntervalMs);
    if (this.opts.heartbeatRunId) {
      const id = this.opts.heartbeatRunId;
      this.hbTimer = setInterval(() => {
        try {
          heartbeat(this.db, id);
        } catch {
          /* busy: the next beat will do */
        }
      }, Math.max(500, Math.floor(this.config.sweepIntervalMs / 2)));
    }
    this.wake();
    return this;
  }

  /**
   * Graceful stop (issue 9): stops leasing at once and lets in-flight jobs finish for up to graceMs. Nodes still
   * running then are interrupted (agent process groups killed, step closed as interrupted) and their jobs are
   * released: back to pending, lease cleared, the attempt not counted, so another process takes them over at
   * once instead of after the lease expires. A node interrupted this way runs again (at-least-once).
   */
  async stop(graceMs = this.config.shutdownGraceMs): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopping';
    queueEvents.off('enqueued', this.onEnqueued);
    clearInterval(this.timer);
    clearInterval(this.hbTimer);
    const settled = () => Promise.allSettled([...this.active]);
    if (!(await settlesWithin(settled(), graceMs))) {
      this.interrupting = true;
      broadcastInterrupt(this.owner);
      await settlesWithin(settled(), INTERRUPT_WAIT_MS);
      // A handler that ignored the interrupt still holds its lease: release it so nobody waits for expiry.
      try {
        releaseOwned(this.db, this.owner);
      } catch {
        /* busy or closed database: the leases then expire as after a crash */
      }
    }
    this.state = 'stopped';
  }

  /** Coalesced wake-up: one leasing pass per event-loop turn however many notifications arrive. */
  wake(): void {
    if (this.wakePending || this.state !== 'running') return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      this.fill();
    });
  }

  private fill(): void {
    const max = this.opts.maxJobs ?? 32;
    while (this.state === 'running' && this.active.size < max) {
      let job: Job | undefined;
      try {
        job = lease(this.db, this.owner, this.config.leaseMs, ['run.start', 'run.level'], this.opts.scope ?? { excludeCli: true });
        if (this.leaseFault) process.stderr.write('wfctl scheduler: the database is writable again; leasing resumed\n');
        this.leaseFault = false;
      } catch (e) {
        // SQLITE_BUSY beyond the busy timeout, or a read-only / full database: try again at the next poll.
        if (!this.leaseFault && !String((e as { code?: string }).code).startsWith('SQLITE_BUSY')) logStorage('cannot lease jobs (retrying every poll)', e);
        this.leaseFault = true;
        return;
      }
      if (!job) return;
      const p = this.handle(job).finally(() => {
        this.active.delete(p);
        this.opts.onJobDone?.(job!);
        this.wake();
      });
      this.active.add(p);
    }
  }

  private async handle(job: Job): Promise<void> {
    const renewEvery = Math.max(100, Math.floor(this.config.leaseMs / 3));
    const held = { lost: false };
    const renewer = setInterval(() => {
      try {
        // A lost lease (this process stalled past expiry and another scheduler took the job) means the level is
        // being redone elsewhere: this one must not advance the run.
        if (!renew(this.db, job, this.config.leaseMs)) held.lost = true;
      } catch {
        /* busy; the lease is long enough for another try */
      }
    }, renewEvery);
    try {
      if (job.kind === 'run.start') await this.startRun(job);
      else if (job.kind === 'run.level') await this.runLevel(job, Number((job.payload as unknown as LevelPayload).level ?? 0), held);
      complete(this.db, job);
    } catch (e) {
      if (e instanceof JobInterrupted) {
        releaseJob(this.db, job);
        return;
      }
      const msg = (e as Error)?.message ?? String(e);
      try {
        const retried = fail(this.db, job, msg, true);
        if (!retried && job.runId) failRun(this.db, job.runId, `internal error while running ${job.kind}: ${msg}`);
      } catch (e2) {
        // The database refuses writes (read-only folder, full disk): nothing can be recorded now. The lease
        // runs out and the job is leased again once writes work; the process keeps serving (issue 9).
        logStorage(`could not record the outcome of job ${job.id} (${job.kind}${job.runId ? ` of run ${job.runId}` : ''}); it runs again after its lease expires`, e2);
      }
    } finally {
      clearInterval(renewer);
    }
  }

  /** run.start: working copy, levels, status running, first level enqueued. */
  private async startRun(job: Job): Promise<void> {
    const run = job.runId ? getRun(this.db, job.runId) : undefined;
    if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
    let workdir: string;
    try {
      workdir = await prepareWorkingCopy(this.config, run.id, run.workspace_path);
    } catch (e) {
      failRun(this.db, run.id, `could not prepare the working copy of ${run.workspace_path}: ${(e as Error).message}`);
      return;
    }
    const graph = runGraph(run);
    const levels = computeLevels(graph);
    tx(this.db, () => {
      const cur = getRun(this.db, run.id)!;
      if (cur.status === 'queued' && !transitionRun(this.db, run.id, 'start')) return;
      if (cur.status !== 'queued' && cur.status !== 'running') return;
      setRunPlan(this.db, run.id, levels, workdir);
      appendLog(this.db, run.id, 'info', `run started: ${graph.nodes.length} node${graph.nodes.length === 1 ? '' : 's'} in ${levels.length} level${levels.length === 1 ? '' : 's'}`);
      enqueue(this.db, 'run.level', run.id, { level: 0 });
    });
  }

  /** run.level: skip finished nodes, run the rest (inline or pooled), join context, then next level or finish. */
  private async runLevel(job: Job, index: number, held: { lost: boolean } = { lost: false }): Promise<void> {
    const run = job.runId ? getRun(this.db, job.runId) : undefined;
    // Cancellation (and any other end) is checked between levels.
    if (!run || run.status !== 'running') return;
    const graph = runGraph(run);
    // Recomputed from the snapshot each time, so a graph that grew (run-time planning) gets its new levels.
    const levels = computeLevels(graph);
    if (JSON.stringify(levels) !== run.levels) setRunPlan(this.db, run.id, levels, null);
    if (index >= levels.length) return this.finish(run);
    const level = levels[index];
    setRunProgress(this.db, run.id, index);
    if (level.approval) return this.gate(run, graph, level);

    const latest = latestSteps(this.db, run.id);
    const toRun: string[] = [];
    tx(this.db, () => {
      for (const id of level.nodeIds) {
        const last = latest.get(id);
        if (last?.status === 'completed' || last?.status === 'skipped') continue;
        if (last && (last.status === 'running' || last.status === 'pending')) {
          // Left behind by a scheduler that died mid-node: that attempt is lost, the node runs again.
          finishStep(this.db, last, 'failed', { error: 'interrupted: the process running this node stopped; running it again' });
          closeLostAgentRuns(this.db, last.id);
        }
        if (isSkipped(graph, id, parentStates(graph, id, latest))) {
          insertStep(this.db, { runId: run.id, nodeId: id, nodeType: graph.nodes.find((n) => n.id === id)!.type, level: index, status: 'skipped' });
          appendLog(this.db, run.id, 'info', `node '${labelOf(graph, id)}' (${id}) skipped: no branch leads to it`, id);
        } else toRun.push(id);
      }
    });

    const limit = maxParallelNodes(graph, levels);
    const outcomes = await this.runNodes(run.id, index, toRun, limit);
    // Shutdown interrupted some of the level's nodes: hand the level back (completed nodes are skipped next time).
    if (this.interrupting && [...outcomes.values()].some((o) => o.status === 'cancelled')) throw new JobInterrupted();

    const now = getRun(this.db, run.id);
    if (!now || now.status !== 'running' || held.lost) return;
    const failed = level.nodeIds.map((id) => outcomes.get(id)).find((o) => o?.status === 'failed');
    if (failed) {
      failRunForNode(this.db, run.id, failed.nodeId, labelOf(graph, failed.nodeId), failed.error ?? 'unknown error');
      return;
    }
    if ([...outcomes.values()].some((o) => o.status === 'cancelled')) return;
    const outputs = completedOutputs(latestSteps(this.db, run.id), level.nodeIds);
    tx(this.db, () => {
      const cur = getRun(this.db, run.id);
      if (!cur || cur.status !== 'running') return;
      setRunProgress(this.db, run.id, index + 1, joinLevel(runContext(cur), graph, level, outputs));
      enqueue(this.db, 'run.level', run.id, { level: index + 1 });
    });
  }

  /**
   * Runs the level's nodes: one node or a limit of 1 → inline, one after another, in this process; otherwise
   * at most `limit` at once on the pool. Every node also holds a slot of the global agent cap. All nodes
   * finish (siblings of a failed node too) before this returns.
   */
  private async runNodes(runId: string, level: number, ids: string[], limit: number): Promise<Map<string, NodeOutcome>> {
    const out = new Map<string, NodeOutcome>();
    // A node that could not record its result because the database refused the write is not a node failure:
    // the error is rethrown once the level's other nodes are done, so the job is retried (issue 9).
    let storageError: unknown;
    const one = async (nodeId: string, pooled: boolean) => {
      const task: NodeTask = { runId, nodeId, level, owner: this.owner };
      const release = await this.agents.acquire();
      try {
        out.set(nodeId, pooled && this.opts.pool ? await this.opts.pool.run(task) : await runNode(this.db, this.config, task));
      } catch (e) {
        if (storageFault(e)) storageError ??= e;
        out.set(nodeId, { nodeId, status: 'failed', error: (e as Error)?.message ?? String(e) });
      } finally {
        release();
      }
    };
    if (ids.length <= 1 || limit === 1) {
      for (const id of ids) await one(id, false);
    } else {
      const queue = [...ids];
      await Promise.all(Array.from({ length: Math.min(limit, ids.length) }, async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) await one(id, true);
      }));
    }
    if (storageError) throw storageError;
    return out;
  }

  /** A humanApproval level: approval request + waiting step + run waiting_approval; the job then ends. */
  private gate(run: RunRow, graph: Graph, level: Level): void {
    const id = level.nodeIds[0];
    const node = graph.nodes.find((n) => n.id === id)!;
    const latest = latestSteps(this.db, run.id);
    const last = latest.get(id);
    if (last?.status === 'waiting_approval') return;
    tx(this.db, () => {
      const cur = getRun(this.db, run.id);
      if (!cur || cur.status !== 'running') return;
      if (last?.status === 'completed' || last?.status === 'skipped' || isSkipped(graph, id, parentStates(graph, id, latest))) {
        if (!last || (last.status !== 'completed' && last.status !== 'skipped')) {
          insertStep(this.db, { runId: run.id, nodeId: id, nodeType: node.type, level: level.index, status: 'skipped' });
          appendLog(this.db, run.id, 'info', `node '${node.data.label}' (${id}) skipped: no branch leads to it`, id);
        }
        enqueue(this.db, 'run.level', run.id, { level: level.index + 1 });
        return;
      }
      const step = insertStep(this.db, { runId: run.id, nodeId: id, nodeType: node.type, level: level.index, status: 'waiting_approval' });
      const a = insertApproval(this.db, {
        runId: run.id, stepRunId: step.id, nodeId: id, title: node.data.label,
        allowedActions: node.data.allowedActions?.length ? node.data.allowedActions : ['approve', 'reject', 'request_revision'],
        noteRequired: node.data.noteRequired === true, expiresAt: approvalExpiry(node.data.timeoutHours),
      });
      transitionRun(this.db, run.id, 'gate');
      appendEvent(this.db, run.id, 'approval.required', { approval: toApproval(a) });
      appendLog(this.db, run.id, 'info', `waiting for approval at '${node.data.label}' (${id}); expires ${a.expires_at}`, id);
    });
  }

  private async finish(run: RunRow): Promise<void> {
    if (run.write === 1) {
      // A write run's result leaves as a branch / pull request (or bundle); I/O outside any transaction.
      try {
        const d = await (this.opts.deliver ?? ((id: string) => deliverRun(this.db, this.config, id)))(run.id);
        tx(this.db, () => {
          appendLog(this.db, run.id, 'info', `delivery: ${d.message}`);
          appendEvent(this.db, run.id, 'run.artifacts', { ...d });
        });
      } catch (e) {
        failRun(this.db, run.id, `delivery failed: ${(e as Error).message}`);
        return;
      }
    }
    tx(this.db, () => {
      if (!transitionRun(this.db, run.id, 'finish')) return;
      appendLog(this.db, run.id, 'info', 'run completed');
      const outputs = completedOutputs(latestSteps(this.db, run.id));
      appendEvent(this.db, run.id, 'run.report', { ...finalReport(runGraph(getRun(this.db, run.id)!), outputs) });
    });
  }
}

function labelOf(graph: Graph, id: string): string {
  return graph.nodes.find((n) => n.id === id)?.data.label ?? id;
}

function parentStates(graph: Graph, id: string, latest: Map<string, StepRow>): Map<string, ParentState> {
  const m = new Map<string, ParentState>();
  for (const e of graph.edges) {
    if (e.target !== id) continue;
    const s = latest.get(e.source);
    if (s) m.set(e.source, { status: s.status, output: s.output });
  }
  return m;
}
