/**
 * The state machines of spec §3 as data: the run status table and the approval status table. Pure; the SQL
 * modules apply a transition with a guarded UPDATE (`WHERE status IN (from…)`), so two processes racing on one
 * run (cancel vs. completion, approve vs. expiry) cannot both win.
 */

export const RUN_STATUSES = ['queued', 'running', 'waiting_approval', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'waiting_approval'];
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

export type RunTrigger =
  | 'start' // queued → running (execution begins)
  | 'finish' // running → completed (all levels finished, no node failed)
  | 'node_failed' // running → failed (after the level's siblings finished)
  | 'gate' // running → waiting_approval (approval gate level reached)
  | 'approve' // waiting_approval → running
  | 'reject' // waiting_approval → failed
  | 'request_revision' // waiting_approval → failed
  | 'expire' // waiting_approval → cancelled
  | 'cancel' // queued | running | waiting_approval → cancelled
  | 'resume' // failed → queued (design §6)
  | 'executor_lost'; // a run whose executor died for good → failed

/** Every row of the run status table: trigger → (allowed from-states, to-state). */
export const RUN_TRANSITIONS: Readonly<Record<RunTrigger, { from: readonly RunStatus[]; to: RunStatus }>> = {
  start: { from: ['queued'], to: 'running' },
  finish: { from: ['running'], to: 'completed' },
  node_failed: { from: ['running'], to: 'failed' },
  gate: { from: ['running'], to: 'waiting_approval' },
  approve: { from: ['waiting_approval'], to: 'running' },
  reject: { from: ['waiting_approval'], to: 'failed' },
  request_revision: { from: ['waiting_approval'], to: 'failed' },
  expire: { from: ['waiting_approval'], to: 'cancelled' },
  // The spec's table names cancel from running; a queued or waiting run can be cancelled too (decisions.md).
  cancel: { from: ['queued', 'running', 'waiting_approval'], to: 'cancelled' },
  resume: { from: ['failed'], to: 'queued' },
  executor_lost: { from: ['queued', 'running', 'waiting_approval'], to: 'failed' },
};

/** The state a trigger leads to from `from`, or undefined when the table has no such row. */
export function runTransition(from: RunStatus, trigger: RunTrigger): RunStatus | undefined {
  const t = RUN_TRANSITIONS[trigger];
  return t.from.includes(from) ? t.to : undefined;
}

export function isTerminalRun(status: string): boolean {
  return (TERMINAL_RUN_STATUSES as readonly string[]).includes(status);
}

export function isActiveRun(status: string): boolean {
  return (ACTIVE_RUN_STATUSES as readonly string[]).includes(status);
}

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'revision_requested', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export type ApprovalTrigger = 'approve' | 'reject' | 'request_revision' | 'expire';

/** The approval status table: only a pending approval moves, and only once. */
export const APPROVAL_TRANSITIONS: Readonly<Record<ApprovalTrigger, ApprovalStatus>> = {
  approve: 'approved',
  reject: 'rejected',
  request_revision: 'revision_requested',
  expire: 'expired',
};

export function approvalTransition(from: ApprovalStatus, trigger: ApprovalTrigger): ApprovalStatus | undefined {
  return from === 'pending' ? APPROVAL_TRANSITIONS[trigger] : undefined;
}

/** Whether a pending approval is past its expiry at `nowMs`. */
export function isExpired(expiresAt: string, nowMs: number = Date.now()): boolean {
  return Date.parse(expiresAt) <= nowMs;
}

/** expires_at for a gate: timeoutHours (default 24, spec §8) after `fromMs`. */
export function approvalExpiry(timeoutHours: number | undefined, fromMs: number = Date.now()): string {
  const hours = typeof timeoutHours === 'number' && timeoutHours > 0 ? timeoutHours : 24;
  return new Date(fromMs + Math.round(hours * 3_600_000)).toISOString();
}
