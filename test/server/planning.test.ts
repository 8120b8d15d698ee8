/**
 * The planning routes over the real app, with the fake claude / codex / gemini CLIs scripted through
 * [[fake:answer=...]] in the objective, a real approved git repository, and the real sandbox when the host has one.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync } from 'node:fs';
import { graphProblems, type Graph } from '../../core/graph.js';
import { approveWorkspace } from '../../workers/workspace.js';
import { Scheduler } from '../../queue/scheduler.js';
import { FAKE_BIN, gitRepo, waitFor } from '../helpers.js';
import { makeApp, type ApiFixture } from './api-fixture.js';

process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;

/** The fake's answer directive; the text must not contain `]]` (it ends the directive). */
function answer(text: string): string {
  if (text.includes(']]')) throw new Error('answer text must not contain ]]');
  return `[[fake:answer=${text.replace(/\n/g, '\\n')}]]`;
}

const PLAN = {
  subtasks: [
    { id: 'design', label: 'Design', role: 'architect', objective: 'Design the change', depends_on: [] },
    { id: 'build', label: 'Build', role: 'developer', objective: 'Implement the change', depends_on: ['design'] },
    { id: 'review', label: 'Review', role: 'reviewer', objective: 'Review the change', depends_on: ['build'] },
  ],
};

interface Ctx {
  f: ApiFixture;
  repo: string;
}

// One app for the file (each sign-in costs a bcrypt hash); each case starts with an empty agent_runs table.
let ctx: Ctx | undefined;
async function setup(): Promise<void> {
  if (!ctx) {
    const f = await makeApp();
    const repo = gitRepo({ 'README.md': '# app\n' });
    approveWorkspace(f.db, repo);
    ctx = { f, repo };
  }
  ctx.f.db.prepare('DELETE FROM agent_runs').run();
}

// Agent invocations as recorded by runRecordedAgent (the fakes' own log cannot be written from inside bwrap).
const calls = (): Array<{ agent: string; command: string; cwd: string; status: string; run_id: string | null }> =>
  ctx!.f.db.prepare('SELECT agent, command, cwd, status, run_id FROM agent_runs ORDER BY started_at, rowid').all() as never;

function plan(body: Record<string, unknown>, url = '/api/workflows/plan') {
  return ctx!.f.req({ method: 'POST', url, token: ctx!.f.operatorToken, payload: { supervisor_node_id: 'sup', runtime: 'direct', agent: 'claude', workspace_path: ctx!.repo, ...body } });
}

const Plan = suite('server/planning plan');
Plan.before.each(setup);

Plan('plan :: a fenced reply gives the supervisor plus the tagged subgraph', async () => {
  const reply = 'I read the repository. Here is the plan:\n```json\n' + JSON.stringify(PLAN) + '\n```\nDone.';
  const res = await plan({ objective: `Add a login page ${answer(reply)}` });
  assert.is(res.statusCode, 200, res.body);
  const g = res.json() as Graph;
  assert.equal(Object.keys(g).sort(), ['edges', 'nodes']);
  assert.equal(g.nodes.map((n) => n.id), ['sup', 'sup-design', 'sup-build', 'sup-review']);
  assert.is(g.nodes[0].type, 'supervisorAgent');
  assert.ok(g.nodes.slice(1).every((n) => n.data.generatedBy === 'sup' && n.data.sandboxAgent === 'claude'));
  assert.equal(g.edges.map((e) => `${e.source}>${e.target}`), ['sup>sup-design', 'sup-design>sup-build', 'sup-build>sup-review']);
  assert.ok(g.edges.every((e) => e.data?.generatedBy === 'sup'));
  assert.equal(graphProblems(g), []);
  assert.ok(g.nodes.every((n) => n.position && Number.isFinite(n.position.y)));
  // The agent ran once, read-only, in a throwaway copy that is gone again; the user's checkout is untouched.
  const c = calls();
  assert.is(c.length, 1);
  assert.equal([c[0].status, c[0].run_id], ['completed', null]);
  assert.is.not(c[0].cwd, ctx!.repo);
  assert.not.ok(existsSync(c[0].cwd), 'the throwaway copy is removed');
  assert.equal(readdirSync(ctx!.repo).sort(), ['.git', 'README.md']);
});

Plan('plan :: a bare reply inside prose, on the unprefixed path, with codex', async () => {
  const reply = `Sure. The plan is ${JSON.stringify(PLAN)} and that should do it.`;
  const res = await plan({ objective: `Fix the bug ${answer(reply)}`, agent: 'codex' }, '/workflows/plan');
  assert.is(res.statusCode, 200, res.body);
  assert.is(res.json().nodes.length, 4);
  assert.is(calls()[0].agent, 'codex');
  assert.match(calls()[0].command, /exec/);
});

Plan('plan :: gemini, with an approval gate and a memory write downstream', async () => {
  const reply = JSON.stringify({ ...PLAN, approval: { label: 'Sign-off', objective: 'Check the review' }, memory: { label: 'Remember', objective: 'Keep the decision', key: 'decision' } });
  const res = await plan({ objective: `Ship it ${answer(reply)}`, agent: 'gemini' });
  assert.is(res.statusCode, 200, res.body);
  const g = res.json() as Graph;
  assert.equal(g.edges.slice(-2).map((e) => `${e.source}>${e.target}`), ['sup-review>sup-approval', 'sup-approval>sup-memory']);
  assert.equal(graphProblems(g), []);
});

Plan('plan :: no JSON in the reply is 422 with the reply quoted', async () => {
  const res = await plan({ objective: `Plan ${answer('I would rather not plan today.')}` });
  assert.is(res.statusCode, 422);
  assert.is(res.json().code, 'PLAN_INVALID');
  assert.match(res.json().message, /contains no JSON plan.*I would rather not plan today/);
});

Plan('plan :: an unknown depends_on is 422 naming the subtask and the reference', async () => {
  const bad = { subtasks: [{ id: 'a', label: 'A', objective: 'a' }, { id: 'b', label: 'B', objective: 'b', depends_on: ['zeta'] }] };
  const res = await plan({ objective: `Plan ${answer(JSON.stringify(bad))}` });
  assert.is(res.statusCode, 422);
  assert.match(res.json().message, /subtask 'b' depends on 'zeta', which is not a subtask of the plan/);
});

Plan('plan :: a cycle is 422 listing its ids', async () => {
  const bad = { subtasks: [{ id: 'a', label: 'A', objective: 'a', depends_on: ['b'] }, { id: 'b', label: 'B', objective: 'b', depends_on: ['a'] }] };
  const res = await plan({ objective: `Plan ${answer(JSON.stringify(bad))}` });
  assert.is(res.statusCode, 422);
  assert.match(res.json().message, /cycle: a → b → a/);
  assert.equal(res.json().details.problems.length, 1);
});

Plan('plan :: a subtask without an objective is 422 naming it', async () => {
  const bad = { subtasks: [{ id: 'a', label: 'A', role: 'r' }] };
  const res = await plan({ objective: `Plan ${answer(JSON.stringify(bad))}` });
  assert.is(res.statusCode, 422);
  assert.match(res.json().message, /subtask 'a' has no "objective"/);
});

Plan('plan :: refinement keeps three manual nodes and their edges, replaces the generated ones', async () => {
  const first = await plan({ objective: `Build it ${answer(JSON.stringify(PLAN))}` });
  const current = first.json() as Graph;
  // The person adds three nodes of their own around the plan.
  current.nodes.push(
    { id: 'intake', type: 'specialistAgent', position: { x: -300, y: 0 }, data: { label: 'Intake', objective: 'Read the ticket' } },
    { id: 'report', type: 'reportWriter', position: { x: 0, y: 800 }, data: { label: 'Report', objective: 'Write the report' } },
    { id: 'notify', type: 'webhook', position: { x: 0, y: 950 }, data: { label: 'Notify', objective: 'Tell the team', url: 'https://example.com/hook' } },
  );
  current.edges.push(
    { id: 'm1', source: 'intake', target: 'sup' },
    { id: 'm2', source: 'sup-review', target: 'report' },
    { id: 'm3', source: 'report', target: 'notify' },
  );
  const refined = { subtasks: [PLAN.subtasks[0], { id: 'tests', label: 'Tests', objective: 'Write tests first', depends_on: ['design'] }, { ...PLAN.subtasks[1], depends_on: ['tests'] }, PLAN.subtasks[2]] };
  // The answer sits in the feedback: an agent that was not shown the feedback would not answer with the plan.
  const res = await plan({ objective: 'Build it', current_plan: current, feedback: `Add a test-first step before building ${answer(JSON.stringify(refined))}` });
  assert.is(res.statusCode, 200, res.body);
  const g = res.json() as Graph;
  for (const id of ['intake', 'report', 'notify', 'sup']) assert.equal(g.nodes.find((n) => n.id === id), current.nodes.find((n) => n.id === id), id);
  for (const id of ['m1', 'm2', 'm3']) assert.equal(g.edges.find((e) => e.id === id), current.edges.find((e) => e.id === id), id);
  assert.equal(g.nodes.filter((n) => n.data.generatedBy === 'sup').map((n) => n.id), ['sup-design', 'sup-tests', 'sup-build', 'sup-review']);
  assert.ok(g.edges.some((e) => e.source === 'sup-tests' && e.target === 'sup-build'));
  assert.not.ok(g.edges.some((e) => e.source === 'sup-design' && e.target === 'sup-build'), 'the old generated edge is replaced');
  assert.equal(graphProblems(g), []);
});

Plan('plan :: current_plan without feedback re-plans; feedback alone is refused', async () => {
  const current = (await plan({ objective: `x ${answer(JSON.stringify(PLAN))}` })).json() as Graph;
  // Shown the current plan, the agent would meet this directive and fail.
  current.nodes[1].data.objective += ' [[fake:fail=the current plan was shown]]';
  const res = await plan({ objective: `x ${answer(JSON.stringify({ subtasks: [{ id: 'solo', label: 'Solo', objective: 'all of it' }] }))}`, current_plan: current });
  assert.is(res.statusCode, 200, res.body);
  assert.equal(res.json().nodes.map((n: { id: string }) => n.id), ['sup', 'sup-solo']);
  const alone = await plan({ objective: 'x', feedback: 'more tests' });
  assert.is(alone.statusCode, 422);
  assert.match(alone.json().message, /send the current plan as current_plan/);
});

Plan('plan :: an unapproved workspace is 422 before any agent starts', async () => {
  const res = await plan({ objective: `x ${answer(JSON.stringify(PLAN))}`, workspace_path: gitRepo() });
  assert.is(res.statusCode, 422);
  assert.is(res.json().code, 'WORKSPACE_NOT_APPROVED');
  assert.is(calls().length, 0);
});

Plan('plan :: an agent failure is 502 AGENT_FAILED with its words', async () => {
  const res = await plan({ objective: 'x [[fake:fail=quota exhausted]]' });
  assert.is(res.statusCode, 502);
  assert.is(res.json().code, 'AGENT_FAILED');
  assert.match(res.json().message, /claude planner failed.*quota exhausted/);
});

Plan('plan :: bad bodies are 400 and no token is 401', async () => {
  assert.is((await plan({ objective: 'x', runtime: 'vm' })).statusCode, 400);
  assert.is((await plan({ objective: 'x', agent: 'gpt' })).statusCode, 400);
  assert.match((await plan({ objective: 'x', workspace_path: undefined })).json().message, /workspace_path/);
  assert.is((await plan({ objective: 'x', current_plan: { nodes: [{ id: 'a' }], edges: [] } })).statusCode, 400);
  assert.is((await plan({ objective: '   ' })).statusCode, 422);
  const anon = await ctx!.f.req({ method: 'POST', url: '/workflows/plan', payload: { objective: 'x' } });
  assert.is(anon.statusCode, 401);
  assert.is(calls().length, 0);
});

Plan('plan :: a client that goes away stops its planner agent; meanwhile a request over the cap is 429', async () => {
  const address = await ctx!.f.app.listen({ port: 0, host: '127.0.0.1' });
  const cap = ctx!.f.config.maxAgents;
  ctx!.f.config.maxAgents = 1;
  const ac = new AbortController();
  const pending = fetch(`${address}/api/workflows/plan`, {
    method: 'POST', signal: ac.signal,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx!.f.operatorToken}` },
    body: JSON.stringify({ objective: 'slow [[fake:sleep=60]]', supervisor_node_id: 'sup', runtime: 'direct', agent: 'claude', workspace_path: ctx!.repo }),
  }).catch((e: Error) => e);
  await waitFor(() => ctx!.f.db.prepare('SELECT pid FROM agent_runs WHERE pid IS NOT NULL').get(), 20_000, 20, 'the planner agent to start');
  try {
    const busy = await plan({ objective: `x ${answer(JSON.stringify(PLAN))}` });
    assert.is(busy.statusCode, 429);
    assert.match(busy.json().message, /already running .*WFCTL_MAX_AGENTS = 1/);
    const busyTune = await ctx!.f.req({ method: 'POST', url: '/workflows/plan/tune-node', token: ctx!.f.operatorToken, payload: { node_data: { label: 'L', objective: 'O' }, instruction: 'x', runtime: 'direct', agent: 'claude', workspace_path: ctx!.repo } });
    assert.is(busyTune.statusCode, 429);
  } finally {
    ctx!.f.config.maxAgents = cap;
  }
  ac.abort();
  assert.instance(await pending, Error);
  const row = await waitFor(() => ctx!.f.db.prepare("SELECT status FROM agent_runs WHERE status != 'running'").get() as { status: string } | undefined, 20_000, 50, 'the agent to stop');
  assert.is(row.status, 'cancelled');
});

const Tune = suite('server/planning tune-node');
Tune.before.each(setup);

function tune(body: Record<string, unknown>, url = '/api/workflows/plan/tune-node') {
  return ctx!.f.req({ method: 'POST', url, token: ctx!.f.operatorToken, payload: { runtime: 'direct', agent: 'claude', workspace_path: ctx!.repo, ...body } });
}

Tune('tune :: returns exactly the four fields, rewritten', async () => {
  const node_data = { label: 'Build', role: 'developer', objective: 'Implement it', systemInstructions: '', model: 'opus', skills: ['s1'], generatedBy: 'sup' };
  const reply = 'Here you go:\n```json\n' + JSON.stringify({ label: 'Build API', role: 'backend developer', objective: 'Implement the REST API', systemInstructions: 'Write tests', model: 'haiku' }) + '\n```';
  const res = await tune({ node_data, instruction: `Focus on the API ${answer(reply)}` });
  assert.is(res.statusCode, 200, res.body);
  assert.equal(res.json(), { label: 'Build API', role: 'backend developer', objective: 'Implement the REST API', systemInstructions: 'Write tests' });
});

Tune('tune :: unprefixed path; fields the agent leaves out keep their value', async () => {
  const res = await tune({ node_data: { label: 'Keep', objective: 'Old', role: 'r', systemInstructions: 'si' }, instruction: `x ${answer('{"objective": "New objective"}')}` }, '/workflows/plan/tune-node');
  assert.is(res.statusCode, 200, res.body);
  assert.equal(res.json(), { label: 'Keep', role: 'r', objective: 'New objective', systemInstructions: 'si' });
});

Tune('tune :: no usable JSON is 422; unapproved workspace is 422', async () => {
  const res = await tune({ node_data: { label: 'L', objective: 'O' }, instruction: `x ${answer('cannot help')}` });
  assert.is(res.statusCode, 422);
  assert.is(res.json().code, 'PLAN_INVALID');
  const ws = await tune({ node_data: { label: 'L', objective: 'O' }, instruction: 'x', workspace_path: '/etc' });
  assert.is(ws.statusCode, 422);
  assert.is(ws.json().code, 'WORKSPACE_NOT_APPROVED');
});

const Saved = suite('server/planning saved plan runs');
Saved.before.each(setup);

Saved('saved :: a plan saved through the workflows API runs at once to completion (no publish step)', async () => {
  const res = await plan({ objective: `Improve the README ${answer(JSON.stringify({ ...PLAN, memory: { label: 'Remember', objective: 'Keep the outcome', key: 'outcome' } }))}` });
  assert.is(res.statusCode, 200, res.body);
  const saved = await ctx!.f.req({ method: 'POST', url: '/api/workflows', token: ctx!.f.operatorToken, payload: { name: 'Planned workflow', graph: res.json() } });
  assert.is(saved.statusCode, 201, saved.body);
  const sched = new Scheduler(ctx!.f.db, ctx!.f.config).start();
  try {
    const started = await ctx!.f.req({ method: 'POST', url: '/api/workflow-runs', token: ctx!.f.operatorToken, payload: { workflow_id: saved.json().id, workspace_path: ctx!.repo } });
    assert.is(started.statusCode, 201, started.body);
    const runId = started.json().run_id;
    const done = await waitFor(async () => {
      const r = (await ctx!.f.req({ method: 'GET', url: `/api/workflow-runs/${runId}`, token: ctx!.f.operatorToken })).json();
      return ['completed', 'failed', 'cancelled'].includes(r.status) ? r : undefined;
    }, 60_000, 50, 'the planned run to finish');
    const logs = (await ctx!.f.req({ method: 'GET', url: `/api/workflow-runs/${runId}/logs`, token: ctx!.f.operatorToken })).body;
    assert.is(done.status, 'completed', logs);
    const ran = new Set((done.steps as Array<{ node_id: string; status: string }>).filter((x) => x.status === 'completed').map((x) => x.node_id));
    for (const id of ['sup', 'sup-design', 'sup-build', 'sup-review', 'sup-memory']) assert.ok(ran.has(id), `${id} ran`);
  } finally {
    await sched.stop();
  }
});

Plan.run();
Tune.run();
Saved.after(async () => {
  await ctx?.f.close();
});
Saved.run();
