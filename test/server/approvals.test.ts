import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { edge, node } from '../queue/fixture.js';
import { runApi, type RunApiFixture } from './run-fixture.js';

const gated = (gate: Record<string, unknown> = {}) => ({
  nodes: [node('build', 'build'), node('gate', 'review', gate, 'humanApproval'), node('ship', 'ship')],
  edges: [edge('build', 'gate'), edge('gate', 'ship')],
});

async function atGate(f: RunApiFixture, name: string, gate: Record<string, unknown> = {}) {
  await f.workflow(name, gated(gate));
  const runId = (await f.start(name)).json().run_id;
  const run = await f.waitRun(runId, ['waiting_approval', 'failed']);
  assert.is(run.status, 'waiting_approval');
  assert.is(run.approvals.length, 1);
  return { runId, approvalId: run.approvals[0].id as string };
}

const post = (f: RunApiFixture, url: string, payload?: object) => f.req({ method: 'POST', url, token: f.operatorToken, ...(payload ? { payload } : {}) });

const Routes = suite('server/approvals');

Routes('list and detail :: filter by status and run; detail by id; unknown 404', async () => {
  const f = await runApi();
  try {
    const { runId, approvalId } = await atGate(f, 'Gate List');
    const list = (await f.req({ url: `/api/approvals?status=pending&run_id=${runId}`, token: f.operatorToken })).json();
    assert.equal(list.map((a: any) => a.id), [approvalId]);
    assert.equal(list[0].allowed_actions, ['approve', 'reject', 'request_revision']);
    assert.is(list[0].note_required, false);
    assert.ok(list[0].expires_at);
    assert.equal((await f.req({ url: '/api/approvals?status=approved', token: f.operatorToken })).json(), []);
    const one = (await f.req({ url: `/api/approvals/${approvalId}`, token: f.operatorToken })).json();
    assert.is(one.status, 'pending');
    assert.is((await f.req({ url: '/api/approvals/nope', token: f.operatorToken })).json().code, 'APPROVAL_NOT_FOUND');
    assert.is((await f.req({ url: '/api/approvals' })).statusCode, 401);
  } finally {
    await f.close();
  }
});

Routes('approve :: unprefixed spec path, note stored, run continues to completed; a second submission is 409', async () => {
  const f = await runApi();
  try {
    const { runId, approvalId } = await atGate(f, 'Gate Approve');
    const r = await post(f, `/workflow-runs/${runId}/approve/${approvalId}`, { note: 'ship it' });
    assert.is(r.statusCode, 200, r.body);
    assert.is(r.json().status, 'approved');
    assert.is(r.json().resolution_comment, 'ship it');
    assert.is(r.json().resolved_by_name, 'oscar');
    assert.is(r.json().run.status, 'running');
    assert.is((await f.waitRun(runId, ['completed', 'failed'])).status, 'completed');
    const again = await post(f, `/api/workflow-runs/${runId}/reject/${approvalId}`, { note: 'too late' });
    assert.is(again.statusCode, 409);
    assert.is(again.json().code, 'APPROVAL_NOT_PENDING');
  } finally {
    await f.close();
  }
});

Routes('reject / request-revision :: /api paths, body optional; run failed, approval status per route', async () => {
  const f = await runApi();
  try {
    const a = await atGate(f, 'Gate Reject');
    const r = await post(f, `/api/workflow-runs/${a.runId}/reject/${a.approvalId}`);
    assert.is(r.statusCode, 200, r.body);
    assert.is(r.json().status, 'rejected');
    assert.is((await f.waitRun(a.runId, ['failed'])).completed_at !== null, true);
    const b = await atGate(f, 'Gate Revise');
    const v = await post(f, `/workflow-runs/${b.runId}/request-revision/${b.approvalId}`, { note: 'needs tests' });
    assert.is(v.json().status, 'revision_requested');
    const run = await f.waitRun(b.runId, ['failed']);
    assert.is(run.approvals[0].resolution_comment, 'needs tests');
  } finally {
    await f.close();
  }
});

Routes('rules :: noteRequired 422 on an empty note, action not allowed 422, wrong run 404', async () => {
  const f = await runApi();
  try {
    const { runId, approvalId } = await atGate(f, 'Gate Rules', { noteRequired: true, allowedActions: ['approve'] });
    const empty = await post(f, `/workflow-runs/${runId}/approve/${approvalId}`, { note: '' });
    assert.is(empty.statusCode, 422);
    assert.is(empty.json().code, 'NOTE_REQUIRED');
    const none = await post(f, `/workflow-runs/${runId}/approve/${approvalId}`);
    assert.is(none.json().code, 'NOTE_REQUIRED');
    const notAllowed = await post(f, `/workflow-runs/${runId}/reject/${approvalId}`, { note: 'x' });
    assert.is(notAllowed.statusCode, 422);
    assert.is(notAllowed.json().code, 'ACTION_NOT_ALLOWED');
    assert.is((await post(f, `/workflow-runs/other/approve/${approvalId}`, { note: 'x' })).statusCode, 404);
    assert.is((await post(f, `/workflow-runs/${runId}/approve/${approvalId}`, { note: 'x', extra: true })).statusCode, 400);
    assert.is((await post(f, `/workflow-runs/${runId}/approve/${approvalId}`, { note: 'reasons' })).statusCode, 200);
  } finally {
    await f.close();
  }
});

Routes('expiry :: expired before listing; submission after expiry 409; run and step cancelled', async () => {
  const f = await runApi();
  try {
    const { runId, approvalId } = await atGate(f, 'Gate Expiry', { timeoutHours: 0.0001 });
    await new Promise((r) => setTimeout(r, 450));
    const list = (await f.req({ url: `/api/approvals?run_id=${runId}`, token: f.operatorToken })).json();
    assert.is(list[0].status, 'expired');
    const r = await post(f, `/workflow-runs/${runId}/approve/${approvalId}`, { note: 'late' });
    assert.is(r.statusCode, 409);
    assert.is(r.json().code, 'APPROVAL_EXPIRED');
    const run = (await f.req({ url: `/api/workflow-runs/${runId}`, token: f.operatorToken })).json();
    assert.is(run.status, 'cancelled');
    assert.ok(run.completed_at);
    assert.is(run.steps.find((s: any) => s.node_id === 'gate').status, 'cancelled');
  } finally {
    await f.close();
  }
});

Routes.run();
