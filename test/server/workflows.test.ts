import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { seed } from '../../sql/seed.js';
import { count, graph, insertRun, makeApp, type ApiFixture } from './api-fixture.js';

const BUILTIN_TEMPLATES = ['builtin-bug-fix', 'builtin-code-review', 'builtin-feature-delivery', 'builtin-security-audit'];

async function create(f: ApiFixture, name: string, g: unknown = graph()) {
  const res = await f.req({ method: 'POST', url: '/api/workflows', token: f.operatorToken, payload: { name, graph: g } as object });
  assert.is(res.statusCode, 201, res.body);
  return res.json();
}

const List = suite('server/workflows list');

List('list :: user tab by default, templates tab holds the built-ins; bad kind 400', async () => {
  const f = await makeApp();
  const mine = await create(f, 'Mine');
  const users = (await f.req({ url: '/api/workflows', token: f.operatorToken })).json();
  assert.equal(users.map((w: any) => w.id), [mine.id]);
  assert.is(users[0].active_run, null);
  const templates = (await f.req({ url: '/api/workflows?kind=template', token: f.operatorToken })).json();
  assert.equal(templates.map((w: any) => w.id).sort(), BUILTIN_TEMPLATES);
  assert.ok(templates.every((t: any) => t.builtin === true && t.kind === 'template' && Array.isArray(t.graph.nodes)));
  const bad = await f.req({ url: '/api/workflows?kind=all', token: f.operatorToken });
  assert.is(bad.statusCode, 400);
  assert.is(bad.json().code, 'BAD_REQUEST');
  await f.close();
});

List('list :: active_run names the newest queued/running/waiting run; finished runs do not lock', async () => {
  const f = await makeApp();
  const a = await create(f, 'A');
  const b = await create(f, 'B');
  insertRun(f.db, a.id, 'completed');
  insertRun(f.db, b.id, 'failed');
  const run = insertRun(f.db, a.id, 'waiting_approval');
  const list = (await f.req({ url: '/api/workflows', token: f.operatorToken })).json();
  const byName = Object.fromEntries(list.map((w: any) => [w.name, w]));
  assert.equal(byName.A.active_run, { id: run, status: 'waiting_approval' });
  assert.is(byName.B.active_run, null);
  await f.close();
});

const Create = suite('server/workflows create and read');

Create('create :: 201 with slug; same slug in the tab 409 NAME_TAKEN', async () => {
  const f = await makeApp();
  const w = await create(f, 'Feature Delivery Plus');
  assert.is(w.slug, 'feature-delivery-plus');
  assert.is(w.kind, 'user');
  const dup = await f.req({ method: 'POST', url: '/api/workflows', token: f.operatorToken, payload: { name: 'feature delivery  PLUS!', graph: graph() } });
  assert.is(dup.statusCode, 409);
  assert.is(dup.json().code, 'NAME_TAKEN');
  assert.match(dup.json().message, 'feature-delivery-plus');
  await f.close();
});

Create('create :: invalid graphs are 422 naming the node; shape errors 400; nothing stored', async () => {
  const f = await makeApp();
  const before = count(f.db, 'workflows');
  const post = (payload: unknown) => f.req({ method: 'POST', url: '/api/workflows', token: f.operatorToken, payload: payload as object });
  const noLabel = await post({ name: 'x', graph: { nodes: [{ id: 'n9', type: 'specialistAgent', data: { objective: 'o' } }], edges: [] } });
  assert.is(noLabel.statusCode, 422);
  assert.is(noLabel.json().code, 'GRAPH_INVALID');
  assert.match(noLabel.json().message, "node 'n9'");
  assert.match(noLabel.json().message, 'Label is required');
  assert.is(noLabel.json().details.problems[0].node_id, 'n9');
  const cyc = await post({
    name: 'x',
    graph: {
      nodes: [{ id: 'a', type: 'specialistAgent', data: { label: 'A', objective: 'o' } }, { id: 'b', type: 'specialistAgent', data: { label: 'B', objective: 'o' } }],
      edges: [{ id: 'e1', source: 'a', target: 'b' }, { id: 'e2', source: 'b', target: 'a' }],
    },
  });
  assert.is(cyc.statusCode, 422);
  assert.match(cyc.json().message, 'cycle');
  const dangling = await post({ name: 'x', graph: { nodes: graph().nodes, edges: [{ id: 'e', source: 'n1', target: 'ghost' }] } });
  assert.is(dangling.statusCode, 422);
  assert.match(dangling.json().message, "missing node 'ghost'");
  assert.is((await post({ name: 'x' })).statusCode, 400);
  assert.is((await post({ name: 'x', graph: [] })).statusCode, 400);
  assert.is((await post({ name: 'x', graph: graph(), extra: 1 })).statusCode, 400);
  assert.is((await post({ name: '   ', graph: graph() })).statusCode, 422);
  assert.is((await post({ name: 'y'.repeat(201), graph: graph() })).statusCode, 400);
  assert.is(count(f.db, 'workflows'), before);
  await f.close();
});

Create('read :: by id, exact name or slug; a user workflow wins over a template of the same name; unknown 404', async () => {
  const f = await makeApp();
  const w = await create(f, 'Nightly Audit');
  for (const key of [w.id, 'Nightly Audit', 'nightly-audit', encodeURIComponent('NIGHTLY audit')]) {
    const res = await f.req({ url: `/api/workflows/${encodeURIComponent(decodeURIComponent(key))}`, token: f.operatorToken });
    assert.is(res.statusCode, 200, key);
    assert.is(res.json().id, w.id);
  }
  assert.is((await f.req({ url: '/api/workflows/bug-fix', token: f.operatorToken })).json().id, 'builtin-bug-fix');
  const copy = (await f.req({ method: 'POST', url: '/api/workflows/bug-fix/use', token: f.operatorToken })).json();
  assert.is(copy.name, 'Bug fix');
  assert.is((await f.req({ url: '/api/workflows/bug-fix', token: f.operatorToken })).json().id, copy.id);
  const missing = await f.req({ url: '/api/workflows/no-such-flow', token: f.operatorToken });
  assert.is(missing.statusCode, 404);
  assert.is(missing.json().code, 'WORKFLOW_NOT_FOUND');
  await f.close();
});

const Change = suite('server/workflows update, delete and the active-run lock');

Change('update :: rename and new graph; taken name 409; bad graph 422; empty body 400; unknown 404', async () => {
  const f = await makeApp();
  const a = await create(f, 'Alpha');
  await create(f, 'Beta');
  const put = (id: string, payload: unknown) => f.req({ method: 'PUT', url: `/api/workflows/${id}`, token: f.operatorToken, payload: payload as object });
  const res = await put(a.id, { name: 'Alpha 2', description: 'd', graph: graph('Renamed') });
  assert.is(res.statusCode, 200);
  assert.is(res.json().slug, 'alpha-2');
  assert.is(res.json().graph.nodes[0].data.label, 'Renamed');
  assert.is(res.json().description, 'd');
  assert.is((await put(a.id, { name: 'BETA' })).statusCode, 409);
  assert.is((await put(a.id, { name: 'Alpha 2' })).statusCode, 200);
  assert.is((await put(a.id, { graph: { nodes: [], edges: [] } })).statusCode, 422);
  assert.is((await put(a.id, {})).statusCode, 400);
  assert.is((await put('nope', { name: 'z' })).statusCode, 404);
  assert.is((await f.req({ url: `/api/workflows/${a.id}`, token: f.operatorToken })).json().name, 'Alpha 2');
  await f.close();
});

Change('lock :: update, delete and publish answer 409 RUN_ACTIVE while a run is queued, running or waiting', async () => {
  const f = await makeApp();
  for (const status of ['queued', 'running', 'waiting_approval']) {
    const w = await create(f, `Locked ${status}`);
    const run = insertRun(f.db, w.id, status);
    const put = await f.req({ method: 'PUT', url: `/api/workflows/${w.id}`, token: f.operatorToken, payload: { description: 'x' } });
    assert.is(put.statusCode, 409);
    assert.is(put.json().code, 'RUN_ACTIVE');
    assert.match(put.json().message, run);
    assert.is((await f.req({ method: 'DELETE', url: `/api/workflows/${w.id}`, token: f.operatorToken })).statusCode, 409);
    assert.is((await f.req({ method: 'POST', url: `/api/workflows/${w.id}/publish`, token: f.operatorToken })).statusCode, 409);
    f.db.prepare(`UPDATE workflow_runs SET status = 'completed' WHERE id = ?`).run(run);
    assert.is((await f.req({ method: 'PUT', url: `/api/workflows/${w.id}`, token: f.operatorToken, payload: { description: 'x' } })).statusCode, 200);
  }
  assert.is(count(f.db, "workflows WHERE kind = 'template' AND builtin_key IS NULL"), 0);
  await f.close();
});

Change('delete :: 204; its runs stay for the audit with workflow_id NULL; unknown 404', async () => {
  const f = await makeApp();
  const w = await create(f, 'Gone');
  const run = insertRun(f.db, w.id, 'completed');
  assert.is((await f.req({ method: 'DELETE', url: `/api/workflows/${w.id}`, token: f.operatorToken })).statusCode, 204);
  assert.is((await f.req({ url: `/api/workflows/${w.id}`, token: f.operatorToken })).statusCode, 404);
  assert.is(f.db.prepare('SELECT workflow_id FROM workflow_runs WHERE id = ?').pluck().get(run), null);
  assert.is((await f.req({ method: 'DELETE', url: `/api/workflows/${w.id}`, token: f.operatorToken })).statusCode, 404);
  await f.close();
});

const Copy = suite('server/workflows publish and use');

Copy('publish :: copies as a template; again gets "X (2)"; a given taken name 409; a template 422', async () => {
  const f = await makeApp();
  const w = await create(f, 'Release');
  const t1 = await f.req({ method: 'POST', url: `/api/workflows/${w.id}/publish`, token: f.operatorToken });
  assert.is(t1.statusCode, 201);
  assert.equal([t1.json().kind, t1.json().name, t1.json().builtin], ['template', 'Release', false]);
  assert.equal(t1.json().graph, w.graph);
  const t2 = await f.req({ method: 'POST', url: `/api/workflows/${w.id}/publish`, token: f.operatorToken, payload: {} });
  assert.is(t2.json().name, 'Release (2)');
  const named = await f.req({ method: 'POST', url: `/api/workflows/${w.id}/publish`, token: f.operatorToken, payload: { name: 'release' } });
  assert.is(named.statusCode, 409);
  assert.is(named.json().code, 'NAME_TAKEN');
  const fromTemplate = await f.req({ method: 'POST', url: `/api/workflows/${t1.json().id}/publish`, token: f.operatorToken });
  assert.is(fromTemplate.statusCode, 422);
  assert.is((await f.req({ method: 'POST', url: `/api/workflows/${w.id}/publish`, token: f.operatorToken, payload: { nme: 'x' } })).statusCode, 400);
  assert.is((await f.req({ method: 'POST', url: '/api/workflows/nope/publish', token: f.operatorToken })).statusCode, 404);
  await f.close();
});

Copy('use :: a template becomes a new editable user workflow with a unique name; a user workflow 422', async () => {
  const f = await makeApp();
  const u1 = await f.req({ method: 'POST', url: '/api/workflows/builtin-code-review/use', token: f.operatorToken });
  assert.is(u1.statusCode, 201);
  assert.equal([u1.json().kind, u1.json().name, u1.json().builtin], ['user', 'Code review', false]);
  const u2 = await f.req({ method: 'POST', url: '/api/workflows/builtin-code-review/use', token: f.operatorToken });
  assert.is(u2.json().name, 'Code review (2)');
  const u3 = await f.req({ method: 'POST', url: '/api/workflows/builtin-code-review/use', token: f.operatorToken, payload: { name: 'My review' } });
  assert.is(u3.json().name, 'My review');
  const edit = await f.req({ method: 'PUT', url: `/api/workflows/${u1.json().id}`, token: f.operatorToken, payload: { description: 'mine now' } });
  assert.is(edit.statusCode, 200);
  assert.is((await f.req({ method: 'POST', url: `/api/workflows/${u1.json().id}/use`, token: f.operatorToken })).statusCode, 422);
  await f.close();
});

const Builtins = suite('server/workflows built-in templates');

Builtins('builtins :: an edited template keeps its edit after re-seeding; a deleted one comes back', async () => {
  const f = await makeApp();
  const edit = await f.req({ method: 'PUT', url: '/api/workflows/builtin-bug-fix', token: f.adminToken, payload: { description: 'our way of fixing bugs' } });
  assert.is(edit.statusCode, 200);
  assert.is((await f.req({ method: 'DELETE', url: '/api/workflows/builtin-security-audit', token: f.adminToken })).statusCode, 204);
  let ids = (await f.req({ url: '/api/workflows?kind=template', token: f.adminToken })).json().map((t: any) => t.id);
  assert.not.ok(ids.includes('builtin-security-audit'));
  seed(f.db); // what every start-up does
  ids = (await f.req({ url: '/api/workflows?kind=template', token: f.adminToken })).json().map((t: any) => t.id);
  assert.equal(ids.sort(), BUILTIN_TEMPLATES);
  assert.is((await f.req({ url: '/api/workflows/builtin-bug-fix', token: f.adminToken })).json().description, 'our way of fixing bugs');
  await f.close();
});

const Runs = suite('server/workflows run history');

Runs('runs :: newest first, 20 by default, at most 100; bad limit 400; unknown workflow 404', async () => {
  const f = await makeApp();
  const w = await create(f, 'Busy');
  const other = await create(f, 'Other');
  insertRun(f.db, other.id, 'completed');
  const base = Date.parse('2026-01-01T00:00:00Z');
  const ids = Array.from({ length: 25 }, (_, i) => insertRun(f.db, w.id, 'completed', new Date(base + i * 1000).toISOString()));
  const res = await f.req({ url: `/api/workflows/${w.id}/runs`, token: f.operatorToken });
  assert.is(res.statusCode, 200);
  const runs = res.json();
  assert.is(runs.length, 20);
  assert.equal(runs.map((r: any) => r.id), ids.slice(5).reverse());
  assert.equal(Object.keys(runs[0]).sort(), ['branch', 'completed_at', 'created_at', 'error', 'executor', 'id', 'pull_request_url', 'started_at', 'status', 'workflow_id', 'workflow_name', 'workspace_path', 'write']);
  assert.is((await f.req({ url: `/api/workflows/busy/runs?limit=3`, token: f.operatorToken })).json().length, 3);
  assert.is((await f.req({ url: `/api/workflows/${w.id}/runs?limit=100`, token: f.operatorToken })).json().length, 25);
  for (const bad of ['101', '0', 'ten']) {
    assert.is((await f.req({ url: `/api/workflows/${w.id}/runs?limit=${bad}`, token: f.operatorToken })).statusCode, 400, bad);
  }
  assert.is((await f.req({ url: '/api/workflows/nope/runs', token: f.operatorToken })).statusCode, 404);
  await f.close();
});

List.run();
Create.run();
Change.run();
Copy.run();
Builtins.run();
Runs.run();
