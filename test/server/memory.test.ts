import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MASK } from '../../sql/memory-read.js';
import { count, insertRun, makeApp, type ApiFixture } from './api-fixture.js';

const Memory = suite('server/memory');

function entry(f: ApiFixture, runId: string, key: string, value: string, sensitivity: 'normal' | 'sensitive', at: string) {
  f.db.prepare('INSERT INTO memory_entries (id, run_id, node_id, key, value, scope, sensitivity, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    crypto.randomUUID(), runId, 'mem1', key, value, 'workflow', sensitivity, at,
  );
}

async function withMemory() {
  const f = await makeApp();
  const run = insertRun(f.db, null, 'completed');
  const other = insertRun(f.db, null, 'completed');
  entry(f, run, 'summary', 'all good', 'normal', '2026-01-01T00:00:01.000Z');
  entry(f, run, 'db_password', 'hunter2-secret', 'sensitive', '2026-01-01T00:00:02.000Z');
  entry(f, other, 'x', 'y', 'normal', '2026-01-01T00:00:03.000Z');
  return { f, run, other };
}

Memory('read :: entries in order, sensitive values masked for everyone by default', async () => {
  const { f, run } = await withMemory();
  for (const token of [f.operatorToken, f.adminToken]) {
    const res = await f.req({ url: `/api/workflow-runs/${run}/memory`, token });
    assert.is(res.statusCode, 200);
    const list = res.json();
    assert.equal(list.map((e: any) => [e.key, e.value, e.masked]), [['summary', 'all good', false], ['db_password', MASK, true]]);
    assert.not.ok(res.body.includes('hunter2'));
  }
  await f.close();
});

Memory('reveal :: an admin sees the value; an operator asking is 403; a bad flag 400', async () => {
  const { f, run } = await withMemory();
  const admin = await f.req({ url: `/api/workflow-runs/${run}/memory?reveal=true`, token: f.adminToken });
  assert.is(admin.json()[1].value, 'hunter2-secret');
  const op = await f.req({ url: `/api/workflow-runs/${run}/memory?reveal=true`, token: f.operatorToken });
  assert.is(op.statusCode, 403);
  assert.not.ok(op.body.includes('hunter2'));
  assert.is((await f.req({ url: `/api/workflow-runs/${run}/memory?reveal=maybe`, token: f.adminToken })).statusCode, 400);
  assert.is((await f.req({ url: `/api/workflow-runs/${run}/memory?limit=1`, token: f.adminToken })).statusCode, 400);
  await f.close();
});

Memory('clear :: 204 removes only that run\'s entries; unknown run 404 for read and clear', async () => {
  const { f, run, other } = await withMemory();
  const res = await f.req({ method: 'DELETE', url: `/api/workflow-runs/${run}/memory`, token: f.operatorToken });
  assert.is(res.statusCode, 204);
  assert.equal((await f.req({ url: `/api/workflow-runs/${run}/memory`, token: f.operatorToken })).json(), []);
  assert.is(count(f.db, `memory_entries WHERE run_id = '${other}'`), 1);
  for (const method of ['GET', 'DELETE'] as const) {
    const r = await f.req({ method, url: '/api/workflow-runs/no-such-run/memory', token: f.adminToken });
    assert.is(r.statusCode, 404);
    assert.is(r.json().code, 'RUN_NOT_FOUND');
  }
  await f.close();
});

Memory('clear :: 409 RUN_ACTIVE while the run may still read its memory', async () => {
  const f = await makeApp();
  for (const status of ['queued', 'running', 'waiting_approval']) {
    const run = insertRun(f.db, null, status);
    entry(f, run, 'k', 'v', 'normal', '2026-01-01T00:00:00.000Z');
    const res = await f.req({ method: 'DELETE', url: `/api/workflow-runs/${run}/memory`, token: f.adminToken });
    assert.is(res.statusCode, 409, status);
    assert.is(res.json().code, 'RUN_ACTIVE');
    assert.is(count(f.db, `memory_entries WHERE run_id = '${run}'`), 1);
  }
  await f.close();
});

Memory.run();
