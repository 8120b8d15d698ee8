/**
 * Runs one node of a run to its outcome: up to maxIterations attempts (a workflow_step_runs row each), the
 * node-start / node-failed log lines, and a progress poller that aborts the node when the run is cancelled.
 * The same function runs inline in the scheduler and inside a Piscina worker (workers/task.ts).
 */
import type { Config } from '../../core/config.js';
import { summarize } from '../../core/context.js';
import { isAgentNode, type NodeType } from '../../core/graph.js';
import type { DB } from '../../sql/db.js';
import { appendLog } from '../../sql/logs.js';
import { getRun, runGraph, runStatus } from '../../sql/runs.js';
import { finishStep, insertStep, latestSteps, type StepRow } from '../../sql/steps.js';
import { agent } from './agent.js';
import { aggregator, conditional } from './control.js';
import { memoryWrite } from './memory.js';
import { NodeCancelled, type NodeExecutor } from './types.js';
import { webhook } from './webhook.js';
// Run-time planning lives with the planner (issue 6): see smartSupervisor in workers/planner.ts.
import { smartSupervisor } from '../planner.js';
// Graceful shutdown (issue 9): a stopping scheduler interrupts its nodes after the grace period.
import { NodeInterrupted, onInterrupt } from '../shutdown.js';

/** How often the progress poller reads the run's status (design §6: at most every 500 ms). */
export const PROGRESS_POLL_MS = 250;

export interface NodeTask {
  runId: string;
  nodeId: string;
  level: number;
  /** Lease owner of the scheduler running the node: its shutdown interrupts the node (queue/shutdown.ts). */
  owner?: string;
}

export interface NodeOutcome {
  nodeId: string;
  status: 'completed' | 'failed' | 'cancelled';
  output?: string;
  error?: string;
}

const EXECUTORS: Partial<Record<NodeType, NodeExecutor>> = { conditional, aggregator, memoryWrite, webhook };

export function executorFor(type: NodeType): NodeExecutor {
  // A smartSupervisor without generated specialists plans and grows the run's graph before the next level.
  if (type === 'smartSupervisor') return smartSupervisor;
  if (isAgentNode(type)) return agent;
  const ex = EXECUTORS[type];
  if (!ex) throw new Error(`no executor for node type '${type}'`);
  return ex;
}

const tx = <T>(db: DB, fn: () => T): T => db.transaction(fn).immediate();

export async function runNode(db: DB, config: Config, task: NodeTask): Promise<NodeOutcome> {
  const run0 = getRun(db, task.runId);
  if (!run0) return { nodeId: task.nodeId, status: 'cancelled', error: 'run not found' };
  const graph = runGraph(run0);
  const node = graph.nodes.find((n) => n.id === task.nodeId);
  if (!node) return { nodeId: task.nodeId, status: 'failed', error: `node '${task.nodeId}' is not in the run's graph` };
  const maxAttempts = node.data.maxIterations ?? 1;
  const exec = executorFor(node.type);
  const ac = new AbortController();
  const poll = setInterval(() => {
    try {
      if (runStatus(db, task.runId) !== 'running') ac.abort(new NodeCancelled());
    } catch {
      /* a busy database is not a cancellation; next tick reads again */
    }
  }, PROGRESS_POLL_MS);
  const name = `'${node.data.label}' (${node.id})`;
  // Shutdown past the grace period: abort like a cancel (the agent's group is killed), but with its own reason.
  const offInterrupt = onInterrupt(task.owner, () => ac.abort(new NodeInterrupted()));
  try {
    let lastError = '';
    for (let i = 1; i <= maxAttempts; i++) {
      // The first attempt uses the row just read; a retry reads it again (the run may have been cancelled).
      const run = i === 1 ? run0 : getRun(db, task.runId);
      if (!run || run.status !== 'running' || ac.signal.aborted) return { nodeId: node.id, status: 'cancelled' };
      const step = tx(db, () => {
        const s = insertStep(db, { runId: run.id, nodeId: node.id, nodeType: node.type, level: task.level, status: 'running' });
        appendLog(db, run.id, 'info', `node ${name} started${maxAttempts > 1 ? ` (attempt ${i} of ${maxAttempts})` : ''}`, node.id);
        return s;
      });
      try {
        // Read on first use: most executors (agents) never look, and the query grows with the run.
        let latest: Map<string, StepRow> | undefined;
        const output = await exec({ db, config, run, graph, node, step, signal: ac.signal, get latest() { return (latest ??= latestSteps(db, run.id)); } });
        if (ac.signal.aborted) throw new NodeCancelled();
        tx(db, () => finishStep(db, step, 'completed', { output, summary: summarize(output) }));
        return { nodeId: node.id, status: 'completed', output };
      } catch (e) {
        if (ac.signal.reason instanceof NodeInterrupted) {
          // Not a failure of the node: closed as interrupted; the scheduler releases the job so it runs again.
          const why = (ac.signal.reason as Error).message;
          tx(db, () => {
            if (finishStep(db, step, 'failed', { error: why })) appendLog(db, run.id, 'warn', `node ${name} ${why}`, node.id);
          });
          return { nodeId: node.id, status: 'cancelled', error: why };
        }
        if (e instanceof NodeCancelled || ac.signal.aborted) {
          tx(db, () => {
            if (finishStep(db, step, 'cancelled', { error: 'run cancelled' })) appendLog(db, run.id, 'warn', `node ${name} stopped: the run was cancelled`, node.id);
          });
          return { nodeId: node.id, status: 'cancelled' };
        }
        lastError = (e as Error)?.message ?? String(e);
        const final = i === maxAttempts;
        tx(db, () => {
          finishStep(db, step, 'failed', { error: lastError });
          appendLog(db, run.id, final ? 'error' : 'warn', final
            ? `node ${name} failed${maxAttempts > 1 ? ` after ${maxAttempts} attempts` : ''}: ${lastError}`
            : `node ${name} attempt ${i} of ${maxAttempts} failed, retrying: ${lastError}`, node.id);
        });
      }
    }
    return { nodeId: node.id, status: 'failed', error: lastError };
  } finally {
    clearInterval(poll);
    offInterrupt();
  }
}
