import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  APPROVAL_STATUSES, RUN_STATUSES, approvalExpiry, approvalTransition, isActiveRun, isExpired, isTerminalRun, runTransition,
  type ApprovalTrigger, type RunStatus, type RunTrigger,
} from '../../core/run-state.js';

const Run = suite('core/run-state run table');

// Spec §3, row by row (plus cancel from queued / waiting and resume, design §6).
const ROWS: Array<[RunStatus, RunTrigger, RunStatus]> = [
  ['queued', 'start', 'running'],
  ['running', 'finish', 'completed'],
  ['running', 'node_failed', 'failed'],
  ['running', 'gate', 'waiting_approval'],
  ['waiting_approval', 'approve', 'running'],
  ['waiting_approval', 'reject', 'failed'],
  ['waiting_approval', 'request_revision', 'failed'],
  ['waiting_approval', 'expire', 'cancelled'],
  ['running', 'cancel', 'cancelled'],
  ['queued', 'cancel', 'cancelled'],
  ['waiting_approval', 'cancel', 'cancelled'],
  ['failed', 'resume', 'queued'],
];

Run('transitions :: every row of the table leads where the spec says', () => {
  for (const [from, trigger, to] of ROWS) assert.is(runTransition(from, trigger), to, `${from} --${trigger}-->`);
});

Run('transitions :: nothing else moves (terminal states stay, no shortcut from queued)', () => {
  const allowed = new Set(ROWS.map(([f, t]) => `${f}:${t}`));
  const triggers: RunTrigger[] = ['start', 'finish', 'node_failed', 'gate', 'approve', 'reject', 'request_revision', 'expire', 'cancel', 'resume'];
  for (const from of RUN_STATUSES) {
    for (const t of triggers) {
      if (allowed.has(`${from}:${t}`)) continue;
      assert.is(runTransition(from, t), undefined, `${from} --${t}--> must not exist`);
    }
  }
  assert.is(runTransition('completed', 'cancel'), undefined);
});

Run('status :: active and terminal sets', () => {
  assert.equal(RUN_STATUSES.filter(isActiveRun), ['queued', 'running', 'waiting_approval']);
  assert.equal(RUN_STATUSES.filter(isTerminalRun), ['completed', 'failed', 'cancelled']);
});

const Approval = suite('core/run-state approval table');

Approval('transitions :: pending moves once to each outcome', () => {
  const rows: Array<[ApprovalTrigger, string]> = [['approve', 'approved'], ['reject', 'rejected'], ['request_revision', 'revision_requested'], ['expire', 'expired']];
  for (const [t, to] of rows) assert.is(approvalTransition('pending', t), to);
  for (const from of APPROVAL_STATUSES.filter((s) => s !== 'pending')) {
    for (const [t] of rows) assert.is(approvalTransition(from, t), undefined, `${from} is final`);
  }
});

Approval('expiry :: default 24 hours, timeoutHours honoured, boundary is expired', () => {
  const t0 = Date.parse('2026-01-01T00:00:00.000Z');
  assert.is(approvalExpiry(undefined, t0), '2026-01-02T00:00:00.000Z');
  assert.is(approvalExpiry(0.5, t0), '2026-01-01T00:30:00.000Z');
  assert.ok(isExpired('2026-01-01T00:30:00.000Z', Date.parse('2026-01-01T00:30:00.000Z')));
  assert.not.ok(isExpired('2026-01-01T00:30:00.000Z', Date.parse('2026-01-01T00:29:59.999Z')));
});

Run.run();
Approval.run();
