import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LOCK_TOOLTIP, allowedActions, approvalView, canSubmitApproval, elapsed, formatDuration, isActive, lockState, maskValue, relativeTime } from '../../web-components/src/lib/format.js';

const Lock = suite('web/format lock');

Lock('lock :: queued, running and waiting_approval lock the row; Run reads Running or Awaiting approval', () => {
  assert.equal(lockState({ id: 'r', status: 'running' }), { locked: true, runLabel: 'Running', editTitle: LOCK_TOOLTIP });
  assert.equal(lockState({ id: 'r', status: 'queued' }), { locked: true, runLabel: 'Running', editTitle: LOCK_TOOLTIP });
  assert.equal(lockState({ id: 'r', status: 'waiting_approval' }), { locked: true, runLabel: 'Awaiting approval', editTitle: LOCK_TOOLTIP });
  assert.is(LOCK_TOOLTIP, 'Cannot edit while a run is active');
});

Lock('lock :: no active run, or a finished one, leaves the row unlocked', () => {
  for (const r of [null, undefined, { id: 'r', status: 'completed' }, { id: 'r', status: 'failed' }, { id: 'r', status: 'cancelled' }]) {
    assert.equal(lockState(r), { locked: false, runLabel: 'Run', editTitle: undefined });
  }
  assert.ok(isActive('queued') && isActive('running') && isActive('waiting_approval'));
  assert.not.ok(isActive('completed') || isActive(undefined) || isActive(''));
});

const Approval = suite('web/format approvals');
const NOW = Date.parse('2026-11-21T12:00:00Z');

Approval('approvals :: a pending gate offers only its allowed actions, in a fixed order', () => {
  const v = approvalView({ status: 'pending', expires_at: '2026-11-22T12:00:00Z', allowed_actions: ['reject', 'approve'] }, NOW);
  assert.ok(v.open);
  assert.equal(v.actions, ['approve', 'reject']);
  assert.equal(allowedActions('["request_revision"]'), ['request_revision']);
  assert.equal(allowedActions(undefined), ['approve', 'reject', 'request_revision']);
  assert.equal(allowedActions(['bogus']), ['approve', 'reject', 'request_revision']);
});

Approval('approvals :: noteRequired blocks every action until a note is typed', () => {
  const v = approvalView({ status: 'pending', expires_at: '2026-11-22T12:00:00Z', note_required: 1 }, NOW);
  assert.ok(v.noteRequired);
  assert.not.ok(canSubmitApproval(v, ''));
  assert.not.ok(canSubmitApproval(v, '   '));
  assert.ok(canSubmitApproval(v, 'looks good'));
  const free = approvalView({ status: 'pending', expires_at: '2026-11-22T12:00:00Z', note_required: false }, NOW);
  assert.ok(canSubmitApproval(free, ''));
});

Approval('approvals :: expired (by status or past expires_at) says so and offers nothing', () => {
  for (const a of [{ status: 'expired', expires_at: '2026-11-21T11:00:00Z' }, { status: 'pending', expires_at: '2026-11-21T11:59:59Z' }]) {
    const v = approvalView(a, NOW);
    assert.ok(v.expired);
    assert.not.ok(v.open);
    assert.equal(v.actions, []);
    assert.match(v.message, /expired/);
    assert.not.ok(canSubmitApproval(v, 'note'));
  }
});

Approval('approvals :: a resolved gate shows who decided and the note', () => {
  const v = approvalView({ status: 'approved', resolved_by_name: 'ana', resolution_comment: 'ship it' }, NOW);
  assert.not.ok(v.open);
  assert.is(v.message, 'approved by ana: “ship it”');
});

const Times = suite('web/format times');

Times('times :: durations and relative times read naturally', () => {
  assert.is(formatDuration(850), '850 ms');
  assert.is(formatDuration(12_300), '12.3 s');
  assert.is(formatDuration(245_000), '4 min 05 s');
  assert.is(formatDuration(2 * 3600_000 + 3 * 60_000), '2 h 03 min');
  assert.is(formatDuration(-1), '—');
  assert.is(relativeTime('2026-11-21T11:59:50Z', NOW), 'just now');
  assert.is(relativeTime('2026-11-21T11:30:00Z', NOW), '30 min ago');
  assert.is(relativeTime(null, NOW), '—');
  assert.is(elapsed('2026-11-21T11:59:00Z', '2026-11-21T11:59:30Z'), '30.0 s');
});

Times('memory :: sensitive values are masked, normal ones shown', () => {
  assert.is(maskValue('hunter2', 'sensitive'), '••••••');
  assert.is(maskValue('plain', 'normal'), 'plain');
});

Lock.run();
Approval.run();
Times.run();
