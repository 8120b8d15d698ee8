/**
 * Run and approval lifecycle operations shared by the routes, the scheduler, the sweeper and `wfctl run`.
 * Each is one short write transaction (BEGIN IMMEDIATE, no I/O inside) applying rows of spec §3's tables.
 */
import { WfError } from '../core/errors.js';
import { assertValidGraph, type ApprovalAction, type Graph } from '../core/graph.js';
import { approvalTransition, type ApprovalTrigger } from '../core/run-state.js';
import { nowIso } from '../core/time.js';
import type { DB } from '../sql/db.js';
import { appendEvent } from '../sql/events.js';
import { appendLog } from '../sql/logs.js';
import { duePendingApprovals, getApproval, pendingApprovalsOfRun, settleApproval, toApproval, type Approval } from '../sql/approvals.js';
import { getRun, insertRun, transitionRun, type RunRow } from '../sql/runs.js';
import { finishStep, getStep, openSteps } from '../sql/steps.js';
import { enqueue } from './jobs.js';

const tx = <T>(db: DB, fn: () => T): T => db.transaction(fn).immediate();

export interface StartRunInput {
  workflowId: string | null;
  workflowName: string;
  graph: unknown;
  /** Already resolved and approved (resolveApprovedWorkspace). */
  workspacePath: string;
  write?: boolean;
  sandbox?: boolean;
  executor?: 'server' | 'cli';
  createdBy?: string | null;
  timeoutAt?: string | null;
}

/** Validates the graph, then inserts the run (queued, graph snapshot) and its run.start job in one transaction. */
export function createRun(db: DB, input: StartRunInput): RunRow {
  assertValidGraph(input.graph);
  const graph = input.graph as Graph;
  return tx(db, () => {
    const id = insertRun(db, { ...input, graph });
    enqueue(db, 'run.start', id);
    return getRun(db, id)!;
  });
}

/** Cancels an active run: open steps cancelled, pending approvals closed, in-flight agents stopped by their poller. */
export function cancelRun(db: DB, runId: string, reason = 'cancelled by request'): RunRow {
  return tx(db, () => {
    const run = getRun(db, runId);
    if (!run) throw new WfError('RUN_NOT_FOUND', `no run '${runId}'`);
    if (!transitionRun(db, runId, 'cancel', { error: reason })) {
      throw new WfError('RUN_NOT_CANCELLABLE', `run ${runId} is already ${run.status}; only a queued, running or waiting run can be cancelled`);
    }
    for (const s of openSteps(db, runId)) finishStep(db, s, 'cancelled', { error: reason });
    for (const a of pendingApprovalsOfRun(db, runId)) {
      // No decision was made: the gate is closed as expired (the only non-decision status), with the reason.
      if (settleApproval(db, a.id, 'expired', { comment: reason })) appendEvent(db, runId, 'approval.resolved', { approval_id: a.id, node_id: a.node_id, status: 'expired' });
    }
    appendLog(db, runId, 'warn', `run cancelled: ${reason}`);
    return getRun(db, runId)!;
  });
}

/**
 * failed → queued; nodes whose latest step completed are skipped when the levels run again. `executor` says who
 * drives the resumed run: 'server' (API / UI: any server or worker scheduler adopts it, also when a terminal
 * started it) or 'cli' (`wfctl resume`, which runs it in its own process).
 */
export function resumeRun(db: DB, runId: string, executor: 'server' | 'cli' = 'server'): RunRow {
  return tx(db, () => {
    const run = getRun(db, runId);
    if (!run) throw new WfError('RUN_NOT_FOUND', `no run '${runId}'`);
    if (run.status !== 'failed' || !transitionRun(db, runId, 'resume')) {
      throw new WfError('RUN_NOT_RESUMABLE', `run ${runId} is ${run.status}; only a failed run can be resumed`);
    }
    db.prepare('UPDATE workflow_runs SET executor = ? WHERE id = ?').run(executor, runId);
    appendLog(db, runId, 'info', 'run resumed: completed nodes are kept, the failed node runs again');
    enqueue(db, 'run.start', runId, { resume: true });
    return getRun(db, runId)!;
  });
}

/** A node failed after its siblings finished: the run fails, with an error log naming the node. */
export function failRunForNode(db: DB, runId: string, nodeId: string, label: string, error: string): boolean {
  return tx(db, () => {
    const ok = transitionRun(db, runId, 'node_failed', { error: `node '${label}' (${nodeId}) failed: ${error}` });
    if (ok) appendLog(db, runId, 'error', `run failed: node '${label}' (${nodeId}) failed`, nodeId);
    return ok;
  });
}

/** A run that cannot go on for a reason outside any node (working copy, internal error, executor lost). */
export function failRun(db: DB, runId: string, message: string, trigger: 'node_failed' | 'executor_lost' = 'node_failed'): boolean {
  return tx(db, () => {
    const ok = transitionRun(db, runId, trigger, { error: message });
    if (ok) {
      for (const s of openSteps(db, runId)) finishStep(db, s, 'failed', { error: message });
      appendLog(db, runId, 'error', `run failed: ${message}`);
    }
    return ok;
  });
}

/**
 * Applies expiry to every pending approval past expires_at (or only those of one run): approval expired,
 * waiting step cancelled, run cancelled. Returns how many expired.
 */
export function expireApprovals(db: DB, now: string = nowIso()): number {
  let n = 0;
  for (const a of duePendingApprovals(db, now)) {
    tx(db, () => {
      if (!settleApproval(db, a.id, 'expired')) return;
      n++;
      const step = a.step_run_id ? getStep(db, a.step_run_id) : undefined;
      if (step) finishStep(db, step, 'cancelled', { error: `approval expired at ${a.expires_at}` });
      appendEvent(db, a.run_id, 'approval.resolved', { approval_id: a.id, node_id: a.node_id, status: 'expired' });
      if (transitionRun(db, a.run_id, 'expire', { error: `approval '${a.title}' expired at ${a.expires_at}` })) {
        appendLog(db, a.run_id, 'warn', `approval '${a.title}' (${a.node_id}) expired at ${a.expires_at}; run cancelled`, a.node_id);
      }
    });
  }
  return n;
}

export interface Resolution {
  runId: string;
  approvalId: string;
  action: ApprovalAction;
  note?: string | null;
  /** Who resolved it; id null for a person at a `wfctl run` terminal (no account involved). */
  user?: { id: string | null; username: string } | null;
}

/**
 * Resolves a pending approval. Expiry is applied first; then 404 (unknown / other run), 409 (expired or not
 * pending), 422 (action not allowed, note required and empty). approve → step completed, run running, next
 * level enqueued; reject / request_revision → step failed, run failed with an error log naming the gate.
 */
export function resolveApproval(db: DB, r: Resolution): { approval: Approval; run: RunRow } {
  expireApprovals(db);
  return tx(db, () => {
    const a = getApproval(db, r.approvalId);
    if (!a || a.run_id !== r.runId) throw new WfError('APPROVAL_NOT_FOUND', `no approval '${r.approvalId}' on run '${r.runId}'`);
    if (a.status === 'expired') throw new WfError('APPROVAL_EXPIRED', `approval ${a.id} expired at ${a.expires_at}; it can no longer be submitted`);
    if (a.status !== 'pending') throw new WfError('APPROVAL_NOT_PENDING', `approval ${a.id} is already ${a.status}`);
    const approval = toApproval(a);
    if (!approval.allowed_actions.includes(r.action)) {
      throw new WfError('ACTION_NOT_ALLOWED', `this gate allows ${approval.allowed_actions.join(', ')}; '${r.action}' is not one of them`);
    }
    const note = (r.note ?? '').trim();
    if (approval.note_required && !note) throw new WfError('NOTE_REQUIRED', 'this gate requires a note: say why before you submit');
    const run = getRun(db, r.runId)!;
    const to = approvalTransition('pending', r.action as ApprovalTrigger)!;
    if (!settleApproval(db, a.id, to, { userId: r.user?.id ?? null, username: r.user?.username ?? null, comment: note || null })) {
      throw new WfError('APPROVAL_NOT_PENDING', `approval ${a.id} was resolved by someone else a moment ago`);
    }
    if (!transitionRun(db, run.id, r.action)) {
      throw new WfError('CONFLICT', `run ${run.id} is ${run.status}, not waiting for approval`);
    }
    const step = a.step_run_id ? getStep(db, a.step_run_id) : undefined;
    const who = r.user?.username ?? 'someone';
    const verb = { approve: 'approved', reject: 'rejected', request_revision: 'sent back for revision' }[r.action];
    if (step) {
      if (r.action === 'approve') finishStep(db, step, 'completed', { output: `approved by ${who}${note ? `: ${note}` : ''}` });
      else finishStep(db, step, 'failed', { error: `${verb} by ${who}${note ? `: ${note}` : ''}` });
    }
    appendEvent(db, run.id, 'approval.resolved', { approval_id: a.id, node_id: a.node_id, status: to, resolved_by: who, note: note || null });
    if (r.action === 'approve') {
      appendLog(db, run.id, 'info', `approval '${a.title}' (${a.node_id}) approved by ${who}`, a.node_id);
      enqueue(db, 'run.level', run.id, { level: (step?.level ?? run.current_level) + 1 });
    } else {
      appendLog(db, run.id, 'error', `run failed: approval gate '${a.title}' (${a.node_id}) ${verb} by ${who}${note ? `: ${note}` : ''}`, a.node_id);
    }
    return { approval: toApproval(getApproval(db, a.id)!), run: getRun(db, run.id)! };
  });
}
