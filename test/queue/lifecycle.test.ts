import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expireApprovals, resolveApproval, resumeRun } from '../../queue/lifecycle.js';
import { createRun } from '../../queue/lifecycle.js';
import { listApprovals, toApproval } from '../../sql/approvals.js';
import { eventsAfter } from '../../sql/events.js';
import { listLogs } from '../../sql/logs.js';
import { getRun } from '../../sql/runs.js';
import { latestSteps } from '../../sql/steps.js';
import { waitFor } from '../helpers.js';
import { edge, engineFixture, node, scheduler, startRun, waitStatus, type EngineFixture } from './fixture.js';

const userId = (f: EngineFixture) => {
  f.db.prepare("INSERT OR IGNORE INTO users (id, username, password_hash, role) VALUES ('u1', 'rita', 'x', 'operator')").run();
  return { id: 'u1', username: 'rita' };
};

const gated = (gate: Record<string, unknown> = {}) => ({
  nodes: [node('build', 'build'), node('gate', 'review the build', gate, 'humanApproval'), node('ship', 'ship it')],
  edges: [edge('build', 'gate'), edge('gate', 'ship')],
});

async function atGate(f: EngineFixture, gate: Record<string, unknown> = {}) {
  const id = startRun(f, gated(gate));
  await waitStatus(f.db, id, ['waiting_approval', 'failed', 'completed']);
  const [a] = listApprovals(f.db, { runId: id });
  return { id, a: toApproval(a) };
}

const Gate = suite('queue/lifecycle approval gate');

Gate('gate :: run waiting_approval, step waiting, approval pending with expires_at from timeoutHours (default 24)', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const t0 = Date.now();
    const { id, a } = await atGate(f);
    assert.is(getRun(f.db, id)!.status, 'waiting_approval');
    assert.is(latestSteps(f.db, id).get('gate')!.status, 'waiting_approval');
    assert.is(a.status, 'pending');
    assert.equal(a.allowed_actions, ['approve', 'reject', 'request_revision']);
    const hours = (Date.parse(a.expires_at) - t0) / 3_600_000;
    assert.ok(hours > 23.99 && hours <= 24.01, `~24 h, got ${hours}`);
    assert.ok(eventsAfter(f.db, 0, id, 1000).some((e) => e.type === 'approval.required'));
    await waitFor(() => s.status().active_jobs === 0, 5000);
    assert.is(f.invocations().length, 1, 'nothing after the gate ran');
  } finally {
    await s.stop();
  }
});

Gate('approve :: approval approved with note and resolver, run continues to completed', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const { id, a } = await atGate(f, { timeoutHours: 2 });
    const r = resolveApproval(f.db, { runId: id, approvalId: a.id, action: 'approve', note: 'looks good', user: userId(f) });
    assert.is(r.approval.status, 'approved');
    assert.is(r.approval.resolution_comment, 'looks good');
    assert.is(r.approval.resolved_by, 'u1');
    assert.is(r.approval.resolved_by_name, 'rita');
    assert.ok(r.approval.resolved_at);
    assert.is(r.run.status, 'running');
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    assert.is(latestSteps(f.db, id).get('gate')!.status, 'completed');
    assert.ok(eventsAfter(f.db, 0, id, 1000).some((e) => e.type === 'approval.resolved' && e.payload.status === 'approved'));
  } finally {
    await s.stop();
  }
});

Gate('reject :: approval rejected, run failed with completed_at and an error log naming the gate', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const { id, a } = await atGate(f);
    const r = resolveApproval(f.db, { runId: id, approvalId: a.id, action: 'reject', note: 'no', user: userId(f) });
    assert.is(r.approval.status, 'rejected');
    assert.is(r.run.status, 'failed');
    assert.ok(r.run.completed_at);
    assert.is(latestSteps(f.db, id).get('gate')!.status, 'failed');
    assert.ok(listLogs(f.db, id).some((l) => l.level === 'error' && /approval gate 'GATE' \(gate\) rejected by rita: no/.test(l.message)));
  } finally {
    await s.stop();
  }
});

Gate('request-revision :: approval revision_requested, run failed', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const { id, a } = await atGate(f);
    const r = resolveApproval(f.db, { runId: id, approvalId: a.id, action: 'request_revision', note: 'add tests' });
    assert.is(r.approval.status, 'revision_requested');
    assert.is(r.approval.resolution_comment, 'add tests');
    assert.is(r.run.status, 'failed');
  } finally {
    await s.stop();
  }
});

Gate('rules :: noteRequired refuses an empty note (422); an action not allowed is 422; a resolved one is 409', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const { id, a } = await atGate(f, { noteRequired: true, allowedActions: ['approve', 'reject'] });
    assert.ok(a.note_required);
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as { code: string; statusCode: number }).code + ':' + (e as { statusCode: number }).statusCode;
      }
      return 'no error';
    };
    assert.is(code(() => resolveApproval(f.db, { runId: id, approvalId: a.id, action: 'approve', note: '  ' })), 'NOTE_REQUIRED:422');
    assert.is(code(() => resolveApproval(f.db, { runId: id, approvalId: a.id, action: 'request_revision', note: 'x' })), 'ACTION_NOT_ALLOWED:422');
    assert.is(code(() => resolveApproval(f.db, { runId: 'other', approvalId: a.id, action: 'approve', note: 'x' })), 'APPROVAL_NOT_FOUND:404');
    resolveApproval(f.db, { runId: id, approvalId: a.id, action: 'reject', note: 'because' });
    assert.is(code(() => resolveApproval(f.db, { runId: id, approvalId: a.id, action: 'approve', note: 'x' })), 'APPROVAL_NOT_PENDING:409');
  } finally {
    await s.stop();
  }
});

Gate('expiry :: past expires_at the approval expires, the waiting step and the run are cancelled, submission is 409', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const { id, a } = await atGate(f, { timeoutHours: 0.0001 }); // 0.36 s
    await new Promise((r) => setTimeout(r, 450));
    try {
      resolveApproval(f.db, { runId: id, approvalId: a.id, action: 'approve', note: 'late' });
      assert.unreachable('must refuse');
    } catch (e) {
      assert.is((e as { code: string }).code, 'APPROVAL_EXPIRED');
      assert.is((e as { statusCode: number }).statusCode, 409);
    }
    const run = getRun(f.db, id)!;
    assert.is(run.status, 'cancelled');
    assert.ok(run.completed_at);
    assert.is(latestSteps(f.db, id).get('gate')!.status, 'cancelled');
    assert.is(listApprovals(f.db, { runId: id })[0].status, 'expired');
    assert.is(expireApprovals(f.db), 0, 'applied once');
  } finally {
    await s.stop();
  }
});

const Resume = suite('queue/lifecycle resume');

Resume('resume :: a failed run a terminal started is adopted by server schedulers when resumed from the API', async () => {
  const f = engineFixture();
  const graph = { nodes: [node('ok', 'fine'), node('bad', 'bad [[fake:fail-attempts=1:adopt]]')], edges: [edge('ok', 'bad')] };
  const id = createRun(f.db, { workflowId: null, workflowName: 'cli started', graph, workspacePath: f.repo, sandbox: false, executor: 'cli' }).id;
  // The terminal's scheduler, scoped to its run, drives it to the failure.
  const cli = scheduler(f, { scope: { runId: id } });
  try {
    await waitStatus(f.db, id, ['failed', 'completed']);
  } finally {
    await cli.stop(0);
  }
  assert.is(getRun(f.db, id)!.status, 'failed');
  const server = scheduler(f);
  try {
    const resumed = resumeRun(f.db, id);
    assert.is(resumed.status, 'queued');
    assert.is(resumed.executor, 'server');
    const done = await waitStatus(f.db, id, ['completed', 'failed']);
    assert.is(done.status, 'completed');
  } finally {
    await server.stop(0);
  }
});

Resume('resume :: wfctl resume keeps the run its own (executor cli)', () => {
  const f = engineFixture();
  const id = createRun(f.db, { workflowId: null, workflowName: 'x', graph: { nodes: [node('a')], edges: [] }, workspacePath: f.repo, sandbox: false }).id;
  f.db.prepare(`UPDATE workflow_runs SET status = 'failed', completed_at = '2026-01-01T00:00:00.000Z' WHERE id = ?`).run(id);
  assert.is(resumeRun(f.db, id, 'cli').executor, 'cli');
});

Gate.run();
Resume.run();
