import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir, waitFor } from '../helpers.js';
import { edge, node } from '../queue/fixture.js';
import { runApi } from './run-fixture.js';

const chain = { nodes: [node('a', 'first'), node('b', 'second')], edges: [edge('a', 'b')] };

const Start = suite('server/runs start');

Start('start :: 201 queued with run_id, workflow_id, workspace_path; the run completes; detail and logs', async () => {
  const f = await runApi();
  try {
    const wf = await f.workflow('Two Steps', chain);
    const res = await f.start('two-steps');
    assert.is(res.statusCode, 201, res.body);
    const body = res.json();
    assert.equal(Object.keys(body).sort(), ['run_id', 'status', 'workflow_id', 'workspace_path']);
    assert.is(body.status, 'queued');
    assert.is(body.workflow_id, wf);
    assert.is(body.workspace_path, f.repo);
    const run = await f.waitRun(body.run_id, ['completed', 'failed', 'cancelled']);
    assert.is(run.status, 'completed', JSON.stringify(run.steps));
    assert.ok(run.completed_at);
    assert.equal(run.steps.map((s: any) => [s.node_id, s.status]), [['a', 'completed'], ['b', 'completed']]);
    assert.equal(run.levels.map((l: any) => l.nodeIds), [['a'], ['b']]);
    assert.equal(run.approvals, []);
    assert.ok('pull_request_url' in run);
    assert.is(run.created_by, f.db.prepare("SELECT id FROM users WHERE username = 'oscar'").pluck().get());
    const logs = (await f.req({ url: `/api/workflow-runs/${body.run_id}/logs`, token: f.operatorToken })).json();
    assert.ok(Array.isArray(logs));
    assert.match(logs[0].message, /run started: 2 nodes in 2 levels/);
    assert.ok(logs.every((l: any, i: number) => i === 0 || l.id > logs[i - 1].id), 'time order');
    assert.ok(logs.every((l: any) => ['info', 'warn', 'error'].includes(l.level)));
  } finally {
    await f.close();
  }
});

Start('start :: refusals — unknown workflow 404, unapproved workspace 422 (no run row), invalid body 400, no token 401', async () => {
  const f = await runApi({ scheduler: false });
  try {
    await f.workflow('W', chain);
    assert.is((await f.start('nope')).json().code, 'WORKFLOW_NOT_FOUND');
    const other = tempDir('wfctl-unapproved-');
    const r = await f.req({ method: 'POST', url: '/api/workflow-runs', token: f.operatorToken, payload: { workflow_id: 'W', workspace_path: other } });
    assert.is(r.statusCode, 422);
    assert.is(r.json().code, 'WORKSPACE_NOT_APPROVED');
    assert.is(f.db.prepare('SELECT COUNT(*) FROM workflow_runs').pluck().get(), 0);
    assert.is((await f.req({ method: 'POST', url: '/api/workflow-runs', token: f.operatorToken, payload: { workflow_id: 'W' } })).statusCode, 400);
    assert.is((await f.req({ method: 'POST', url: '/api/workflow-runs', token: f.operatorToken, payload: { workflow_id: 'W', workspace_path: f.repo, extra: 1 } })).statusCode, 400);
    assert.is((await f.req({ method: 'POST', url: '/api/workflow-runs', payload: { workflow_id: 'W', workspace_path: f.repo } })).statusCode, 401);
  } finally {
    await f.close();
  }
});

Start('start :: a graph that no longer validates is refused with 422 GRAPH_INVALID at run time', async () => {
  const f = await runApi({ scheduler: false });
  try {
    const id = await f.workflow('Broken', chain);
    f.db.prepare('UPDATE workflows SET graph = ? WHERE id = ?').run(JSON.stringify({ nodes: [node('a')], edges: [edge('a', 'ghost')] }), id);
    const r = await f.start(id);
    assert.is(r.statusCode, 422);
    assert.is(r.json().code, 'GRAPH_INVALID');
  } finally {
    await f.close();
  }
});

const Read = suite('server/runs list and read');

Read('list :: filters by workflow and status, newest first, limit', async () => {
  const f = await runApi({ scheduler: false });
  try {
    await f.workflow('A', chain);
    await f.workflow('B', chain);
    const a1 = (await f.start('A')).json().run_id;
    const a2 = (await f.start('A')).json().run_id;
    const b1 = (await f.start('B')).json().run_id;
    const list = (q: string) => f.req({ url: `/api/workflow-runs${q}`, token: f.operatorToken }).then((r) => r.json().map((x: any) => x.id));
    assert.equal((await list('?workflow_id=A')).sort(), [a1, a2].sort());
    assert.equal(await list('?status=queued&limit=1'), [b1]);
    assert.equal(await list('?status=completed'), []);
    // Runs started within the same millisecond share created_at; newest first still holds (insertion order
    // breaks the tie, not the random run id).
    f.db.prepare("UPDATE workflow_runs SET created_at = '2026-01-01T00:00:00.000Z'").run();
    assert.equal(await list(''), [b1, a2, a1]);
    assert.equal(await list('?workflow_id=A&limit=1'), [a2]);
    assert.is((await f.req({ url: '/api/workflow-runs?status=bogus', token: f.operatorToken })).statusCode, 400);
    assert.is((await f.req({ url: '/api/workflow-runs/nope', token: f.operatorToken })).json().code, 'RUN_NOT_FOUND');
    assert.is((await f.req({ url: '/api/workflow-runs/nope/logs', token: f.operatorToken })).statusCode, 404);
  } finally {
    await f.close();
  }
});

const Control = suite('server/runs cancel and resume');

Control('cancel :: a running run is cancelled (its agent killed); cancelling again is 409', async () => {
  const f = await runApi();
  try {
    await f.workflow('Sleepy', { nodes: [node('s', 'sleep [[fake:sleep=30]]')], edges: [] });
    const id = (await f.start('Sleepy')).json().run_id;
    await waitFor(() => f.db.prepare("SELECT pid FROM agent_runs WHERE run_id = ? AND pid IS NOT NULL").pluck().get(id), 10_000);
    const r = await f.req({ method: 'POST', url: `/api/workflow-runs/${id}/cancel`, token: f.operatorToken });
    assert.is(r.statusCode, 200, r.body);
    assert.is(r.json().status, 'cancelled');
    assert.ok(r.json().completed_at);
    const again = await f.req({ method: 'POST', url: `/api/workflow-runs/${id}/cancel`, token: f.operatorToken });
    assert.is(again.statusCode, 409);
    assert.is(again.json().code, 'RUN_NOT_CANCELLABLE');
    await waitFor(() => f.db.prepare("SELECT status FROM agent_runs WHERE run_id = ?").pluck().get(id) !== 'running', 10_000);
  } finally {
    await f.close();
  }
});

Control('resume :: only a failed run (409 otherwise); it goes back to queued and re-runs the failed node', async () => {
  const f = await runApi();
  try {
    await f.workflow('Flaky', { nodes: [node('ok', 'fine'), node('bad', 'bad [[fake:fail-attempts=1:api-resume]]')], edges: [edge('ok', 'bad')] });
    const id = (await f.start('Flaky')).json().run_id;
    assert.is((await f.waitRun(id, ['failed', 'completed'])).status, 'failed');
    const r = await f.req({ method: 'POST', url: `/api/workflow-runs/${id}/resume`, token: f.operatorToken });
    assert.is(r.statusCode, 200, r.body);
    assert.is(r.json().status, 'queued');
    const done = await f.waitRun(id, ['failed', 'completed']);
    assert.is(done.status, 'completed');
    assert.equal(done.steps.map((s: any) => [s.node_id, s.attempt, s.status]), [['ok', 1, 'completed'], ['bad', 1, 'failed'], ['bad', 2, 'completed']]);
    const again = await f.req({ method: 'POST', url: `/api/workflow-runs/${id}/resume`, token: f.operatorToken });
    assert.is(again.statusCode, 409);
    assert.is(again.json().code, 'RUN_NOT_RESUMABLE');
  } finally {
    await f.close();
  }
});

const Load = suite('server/runs many at once');

Load('load :: 20 runs started at once all complete, no "database is locked" anywhere', async () => {
  const f = await runApi();
  try {
    await f.workflow('Burst', { nodes: [node('a', 'a'), node('b', 'b'), node('c', 'c')], edges: [edge('a', 'c'), edge('b', 'c')] });
    const started = await Promise.all(Array.from({ length: 20 }, () => f.start('Burst')));
    assert.ok(started.every((r) => r.statusCode === 201), started.map((r) => r.body).join('\n'));
    const ids = started.map((r) => r.json().run_id);
    await waitFor(() => (f.db.prepare(`SELECT COUNT(*) FROM workflow_runs WHERE status IN ('completed', 'failed', 'cancelled')`).pluck().get() as number) === 20, 60_000, 100, 'all 20 runs to end');
    const statuses = f.db.prepare('SELECT status, COUNT(*) AS n FROM workflow_runs GROUP BY status').all();
    assert.equal(statuses, [{ status: 'completed', n: 20 }]);
    const locked = f.db.prepare(`SELECT
      (SELECT COUNT(*) FROM run_logs WHERE message LIKE '%database is locked%') +
      (SELECT COUNT(*) FROM workflow_runs WHERE error LIKE '%locked%') +
      (SELECT COUNT(*) FROM jobs WHERE last_error LIKE '%locked%')`).pluck().get();
    assert.is(locked, 0);
    assert.is(new Set(ids).size, 20);
  } finally {
    await f.close();
  }
});

Start.run();
Read.run();
Control.run();
Load.run();
