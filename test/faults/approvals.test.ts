/**
 * 20 concurrent runs, each stopped at an approval gate, resolved by parallel HTTP clients against a real
 * `wfctl serve` (several clients race on every approval with different decisions): each approval is resolved
 * exactly once (one 200, the rest 409), each run ends in the state its winning decision implies (no lost
 * update, the next level queued once), and nothing answers 5xx or reports "database is locked".
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stmt } from '../../sql/stmt.js';
import { approveWorkspace } from '../../workers/workspace.js';
import { waitFor } from '../helpers.js';
import { engineFixture, node } from '../queue/fixture.js';
import { adminToken, api, kill, serveUrl, stepsOf, wfctl, type Proc } from './fixture.js';

const RUNS = 20;
/** Racers per approval: the decision each client submits at the same moment. */
const RACERS = ['approve', 'reject', 'approve', 'request-revision'] as const;
const OUTCOME = { approve: { approval: 'approved', run: 'completed' }, reject: { approval: 'rejected', run: 'failed' }, 'request-revision': { approval: 'revision_requested', run: 'failed' } };

const Approvals = suite('faults/approvals');
const procs: Proc[] = [];
Approvals.after.each(() => {
  for (const p of procs.splice(0)) kill(p);
});

Approvals('20 runs at a gate, parallel racing clients :: each approval resolved once, no lost update, no 5xx, no lock errors', async () => {
  const f = engineFixture();
  const tokens = [await adminToken(f, 'admin1'), await adminToken(f, 'admin2')];
  approveWorkspace(f.db, f.repo);
  const serve = wfctl(f, ['serve', '--port', '0'], { WFCTL_LOG_LEVEL: 'info' });
  procs.push(serve);
  const url = await serveUrl(serve);
  const all: Array<{ status: number; text: string }> = [];
  const call = async (p: string, token: string, init?: { method?: string; body?: unknown }) => {
    const r = await api(url + p, token, init);
    all.push(r);
    return r;
  };

  const graph = {
    nodes: [{ id: 'gate', type: 'humanApproval', data: { label: 'Gate', objective: 'review the plan' } }, node('after', 'after-gate')],
    edges: [{ id: 'gate->after', source: 'gate', target: 'after' }],
  };
  const wf = await call('/api/workflows', tokens[0], { method: 'POST', body: { name: 'gated', graph } });
  assert.is(wf.status, 201, wf.text);
  const started = await Promise.all(Array.from({ length: RUNS }, (_, i) =>
    call('/api/workflow-runs', tokens[i % 2], { method: 'POST', body: { workflow_id: wf.body.id, workspace_path: f.repo } })));
  const runIds = started.map((r) => {
    assert.is(r.status, 201, r.text);
    return r.body.run_id as string;
  });
  const pending = await waitFor(async () => {
    const r = await call(`/api/approvals?status=pending&limit=100`, tokens[0]);
    return r.body.length === RUNS ? r.body as Array<{ id: string; run_id: string }> : undefined;
  }, 40_000, 100, `${RUNS} pending approvals`);

  // Every client of every approval fires at once.
  const races = await Promise.all(pending.map(async (a, k) => {
    // The racers' order rotates per approval, so different decisions get to be first on the wire.
    const order = RACERS.map((_, i) => RACERS[(i + k) % RACERS.length]);
    const results = await Promise.all(order.map((action, i) =>
      call(`/api/workflow-runs/${a.run_id}/${action}/${a.id}`, tokens[i % 2], { method: 'POST', body: { note: `${action} by racer ${i}` } })
        .then((r) => ({ action, ...r }))));
    return { approval: a, results };
  }));

  for (const { approval, results } of races) {
    const won = results.filter((r) => r.status === 200);
    assert.is(won.length, 1, `approval ${approval.id}: exactly one resolution wins (${results.map((r) => r.status).join(',')})`);
    for (const r of results.filter((x) => x.status !== 200)) {
      assert.is(r.status, 409, r.text);
      assert.is(r.body.code, 'APPROVAL_NOT_PENDING', r.text);
    }
    const winner = won[0].action;
    assert.is(won[0].body.status, OUTCOME[winner].approval);
    const row = stmt(f.db, 'SELECT status, resolution_comment AS comment FROM approval_requests WHERE id = ?').get(approval.id) as { status: string; comment: string };
    assert.is(row.status, OUTCOME[winner].approval);
    assert.match(row.comment, new RegExp(`^${winner} by racer`), 'the stored note is the winner\'s');
  }

  const expected = new Map(races.map(({ approval, results }) => [approval.run_id, results.find((r) => r.status === 200)!.action]));
  const final = await waitFor(async () => {
    const rows = await Promise.all(runIds.map((id) => call(`/api/workflow-runs/${id}`, tokens[0])));
    return rows.every((r) => ['completed', 'failed', 'cancelled'].includes(r.body.status)) ? rows.map((r) => r.body) : undefined;
  }, 45_000, 200, 'every run to finish');
  for (const run of final) {
    const winner = expected.get(run.id)!;
    assert.is(run.status, OUTCOME[winner].run, `run ${run.id} after ${winner}`);
    const after = stepsOf(f, run.id, 'after');
    assert.equal(after.map((s) => s.status), winner === 'approve' ? ['completed'] : [], `node after the gate of run ${run.id}`);
    const levelJobs = stmt(f.db, "SELECT count(*) AS n FROM jobs WHERE run_id = ? AND kind = 'run.level' AND json_extract(payload, '$.level') = 1").get(run.id) as { n: number };
    assert.is(levelJobs.n, winner === 'approve' ? 1 : 0, 'the next level was queued once per approval');
  }

  assert.ok(all.every((r) => r.status < 500), `no 5xx: ${all.filter((r) => r.status >= 500).map((r) => r.text).join('\n')}`);
  assert.not.ok(all.some((r) => /database is locked/i.test(r.text)), 'no answer mentions a locked database');
  assert.not.match(serve.out(), /database is locked|SQLITE_BUSY/i);
  serve.child.kill('SIGTERM');
  assert.is((await serve.exited).code, 0);
});

Approvals.run();
