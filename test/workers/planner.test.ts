/**
 * workers/planner.ts: the host-runner path (a real HTTP server standing in for `wfctl runner`), and run-time
 * planning by a smartSupervisor through the real scheduler with the fake CLIs.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WfError } from '../../core/errors.js';
import { computeLevels, type Graph } from '../../core/graph.js';
import { eventsAfter } from '../../sql/events.js';
import { listLogs } from '../../sql/logs.js';
import { getRun, runGraph } from '../../sql/runs.js';
import { writeSecret } from '../../sql/secrets.js';
import { saveProvider } from '../../sql/catalogue.js';
import { readFakeLog } from './agents/fakelog.js';
import { latestSteps, listSteps } from '../../sql/steps.js';
import { askSupervisorAgent, planWorkflow } from '../../workers/planner.js';
import { buildRunnerApp, runnerSecret } from '../../server/routes/runtimes.js';
import { approveWorkspace } from '../../workers/workspace.js';
import { FAKE_BIN, gitRepo, tempDir, testConfig, testDb } from '../helpers.js';
import { edge, engineFixture, node, scheduler, startRun, waitStatus } from '../queue/fixture.js';

interface Seen {
  url: string;
  auth?: string;
  body: Record<string, unknown>;
}

/** A stand-in host runner answering each request with `respond`. */
async function fakeRunner(respond: (seen: Seen) => { status?: number; body: unknown }): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const s: Seen = { url: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw || '{}') };
      seen.push(s);
      const r = respond(s);
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((r) => server.close(() => r())) };
}

async function agentError(p: Promise<unknown>): Promise<WfError> {
  try {
    await p;
  } catch (e) {
    assert.instance(e, WfError);
    return e as WfError;
  }
  throw new Error('expected an error');
}

const Runner = suite('workers/planner host runner');

Runner('runner :: the runtime picks the route; the shared secret goes as Bearer; the output is the answer', async () => {
  const plan = { subtasks: [{ id: 'a', label: 'A', objective: 'do a' }] };
  const runner = await fakeRunner(() => ({ body: { exit_code: 0, output: '```json\n' + JSON.stringify(plan) + '\n```', messages: [], usage: {} } }));
  try {
    const { db, config } = testDb(testConfig({ runnerUrl: runner.url + '/' }));
    writeSecret(config.home, 'runner', 's3cret\n');
    const g = await planWorkflow(db, config, { objective: 'o', supervisorNodeId: 'sup', runtime: 'container', agent: 'gemini', model: 'flash', workspacePath: '/srv/repo' });
    assert.equal(g.nodes.map((n) => n.id), ['sup', 'sup-a']);
    assert.is(g.nodes[1].data.runtime, 'container');
    const answer = await askSupervisorAgent(db, config, { prompt: 'p', runtime: 'direct', agent: 'claude', workspacePath: '/srv/repo' });
    assert.match(answer, /subtasks/);
    assert.equal(runner.seen.map((s) => s.url), ['/api/runtimes/container-sandbox/run', '/api/runtimes/direct-cli/run']);
    assert.ok(runner.seen.every((s) => s.auth === 'Bearer s3cret'));
    const b = runner.seen[0].body;
    assert.equal([b.agent, b.model, b.workspace_path, b.write], ['gemini', 'flash', '/srv/repo', false]);
    assert.match(String(b.prompt), /Objective:\no/);
    assert.ok(Number(b.timeout_s) > 0);
    assert.not.ok('model' in runner.seen[1].body);
    // Nothing ran in this process.
    assert.is(db.prepare('SELECT count(*) FROM agent_runs').pluck().get(), 0);
  } finally {
    await runner.close();
  }
});

Runner('runner :: a failed agent, a refusal and an unreachable runner are AGENT_FAILED with the reason', async () => {
  let mode = 'exit';
  const runner = await fakeRunner(() =>
    mode === 'exit' ? { body: { exit_code: 1, output: '', error: 'rate limited' } } : { status: 401, body: { statusCode: 401, message: 'bad runner token' } });
  try {
    const { db, config } = testDb(testConfig({ runnerUrl: runner.url }));
    const ask = () => askSupervisorAgent(db, config, { prompt: 'p', runtime: 'direct', agent: 'codex', workspacePath: '/r' });
    let e = await agentError(ask());
    assert.is(e.code, 'AGENT_FAILED');
    assert.match(e.message, /codex planner failed \(exit 1\): rate limited/);
    mode = 'refuse';
    e = await agentError(ask());
    assert.match(e.message, /refused the planner \(HTTP 401\): bad runner token/);
  } finally {
    await runner.close();
  }
  const { db, config } = testDb(testConfig({ runnerUrl: 'http://127.0.0.1:9' }));
  const e = await agentError(askSupervisorAgent(db, config, { prompt: 'p', runtime: 'direct', agent: 'claude', workspacePath: '/r' }));
  assert.match(e.message, /could not be reached/);
});

Runner('runner :: against the real `wfctl runner` app: the fake agent plans read-only in the approved workspace', async () => {
  process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;
  const { db, config: base } = testDb(testConfig());
  const repo = gitRepo();
  approveWorkspace(db, repo);
  const secret = runnerSecret(base);
  const runner = await buildRunnerApp(db, base, secret);
  await runner.listen({ port: 0, host: '127.0.0.1' });
  try {
    const config = { ...base, runnerUrl: `http://127.0.0.1:${(runner.server.address() as AddressInfo).port}` };
    const plan = JSON.stringify({ subtasks: [{ id: 'x', label: 'X', objective: 'x' }, { id: 'y', label: 'Y', objective: 'y', depends_on: ['x'] }] });
    const g = await planWorkflow(db, config, { objective: `o [[fake:answer=${plan}]]`, supervisorNodeId: 'S', runtime: 'direct', agent: 'codex', workspacePath: repo });
    assert.equal(g.edges.map((e) => `${e.source}>${e.target}`), ['S>S-x', 'S-x>S-y']);
    const wrong = await agentError(askSupervisorAgent(db, { ...config, home: tempDir() }, { prompt: 'p', runtime: 'direct', agent: 'claude', workspacePath: repo }));
    assert.match(wrong.message, /HTTP 401/);
  } finally {
    await runner.close();
  }
});

const Providers = suite('workers/planner model providers');

Providers('providers :: the planning agent gets the first configured provider fitting it, as agent nodes do', async () => {
  process.env.PATH = `${FAKE_BIN}:${process.env.PATH}`;
  const { db, config } = testDb(testConfig());
  const repo = gitRepo();
  approveWorkspace(db, repo);
  saveProvider(db, config.home, undefined, { name: 'gateway', type: 'anthropic-compatible', base_url: 'http://127.0.0.1:9/', api_key: 'sk-plan' });
  const log = path.join(tempDir(), 'fake.jsonl');
  process.env.WFCTL_FAKE_LOG = log;
  try {
    assert.is(await askSupervisorAgent(db, config, { prompt: 'p [[fake:answer=ok]]', runtime: 'direct', agent: 'claude', workspacePath: repo }), 'ok');
    const [inv] = readFakeLog(log);
    assert.equal([inv.env.ANTHROPIC_BASE_URL, inv.env.ANTHROPIC_AUTH_TOKEN], ['http://127.0.0.1:9', 'sk-plan']);
    assert.not.ok(inv.argv.join(' ').includes('sk-plan'), 'the key is never on the command line');
  } finally {
    delete process.env.WFCTL_FAKE_LOG;
  }
});

const RunTime = suite('workers/planner smartSupervisor at run time');

/** A plan file for the fake (answer-file), each specialist answering with its own marker. */
function planFile(plan: unknown): string {
  const file = path.join(tempDir('wfctl-plan-'), 'plan.json');
  writeFileSync(file, 'Here is the plan:\n```json\n' + JSON.stringify(plan, null, 2) + '\n```\n');
  return file;
}

RunTime('run :: a smartSupervisor plans, the run graph grows with a run.graph event, the specialists run, the run completes', async () => {
  const f = engineFixture();
  const file = planFile({
    subtasks: [
      { id: 'api', label: 'API', role: 'backend', objective: 'build the api [[fake:answer=API-DONE]]' },
      { id: 'ui', label: 'UI', role: 'frontend', objective: 'build the ui [[fake:answer=UI-DONE]]' },
      { id: 'check', label: 'Check', objective: 'check both [[fake:answer=CHECKED]]', depends_on: ['api', 'ui'] },
    ],
  });
  const graph: Graph = {
    nodes: [
      node('sup', `Deliver the feature [[fake:answer-file=${file}]]`, { delegationStrategy: 'parallel_delegation' }, 'smartSupervisor'),
      node('report', 'write the report [[fake:answer=REPORTED]]', {}, 'reportWriter'),
    ],
    edges: [edge('sup', 'report')],
  };
  const s = scheduler(f);
  try {
    const id = startRun(f, graph);
    const run = await waitStatus(f.db, id, ['completed', 'failed']);
    assert.is(run.status, 'completed', JSON.stringify(listLogs(f.db, id)));
    const grown = runGraph(getRun(f.db, id)!);
    assert.equal(grown.nodes.map((n) => n.id), ['sup', 'report', 'sup-api', 'sup-ui', 'sup-check']);
    assert.ok(grown.nodes.slice(2).every((n) => n.data.generatedBy === 'sup'));
    assert.equal(computeLevels(grown).map((l) => l.nodeIds), [['sup'], ['sup-api', 'sup-ui'], ['sup-check'], ['report']]);
    const st = latestSteps(f.db, id);
    assert.equal(['sup-api', 'sup-ui', 'sup-check', 'report'].map((n) => st.get(n)?.output), ['API-DONE', 'UI-DONE', 'CHECKED', 'REPORTED']);
    assert.match(st.get('sup')!.output ?? '', /Planned 3 subtasks/);
    // The growth is an event, written before any specialist started.
    const events = eventsAfter(f.db, 0, id, 10_000);
    const grew = events.find((e) => e.type === 'run.graph');
    assert.ok(grew, 'a run.graph event');
    assert.equal(grew!.payload.added_nodes, ['sup-api', 'sup-ui', 'sup-check']);
    assert.is(grew!.payload.node_id, 'sup');
    const firstSpecialist = events.find((e) => e.type === 'agent.started' && String(e.payload.node_id).startsWith('sup-'));
    assert.ok(firstSpecialist && firstSpecialist.id > grew!.id);
    assert.ok(listLogs(f.db, id).some((l) => /planned 3 subtasks: api, ui, check/.test(l.message)));
    // The supervisor planned read-only in the run's working copy.
    const supRun = f.db.prepare("SELECT cwd, command FROM agent_runs WHERE run_id = ? AND node_id = 'sup'").get(id) as { cwd: string; command: string };
    assert.is(supRun.cwd, run.workdir);
  } finally {
    await s.stop();
  }
});

RunTime('run :: a smartSupervisor that already has generated specialists runs as a plain agent', async () => {
  const f = engineFixture();
  const graph: Graph = {
    nodes: [
      node('sup', 'coordinate [[fake:answer=COORDINATED]]', {}, 'smartSupervisor'),
      node('sup-a', 'do a [[fake:answer=A]]', { generatedBy: 'sup' }),
    ],
    edges: [{ ...edge('sup', 'sup-a'), data: { generatedBy: 'sup' } }],
  };
  const s = scheduler(f);
  try {
    const id = startRun(f, graph);
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed');
    assert.equal(latestSteps(f.db, id).get('sup')!.output, 'COORDINATED');
    assert.equal(runGraph(getRun(f.db, id)!), graph, 'the graph did not grow');
    assert.not.ok(eventsAfter(f.db, 0, id, 10_000).some((e) => e.type === 'run.graph'));
  } finally {
    await s.stop();
  }
});

RunTime('run :: a reply without a valid plan fails the supervisor with the reason; nothing grows', async () => {
  const f = engineFixture();
  const file = planFile({ subtasks: [{ id: 'a', label: 'A', objective: 'a', depends_on: ['ghost'] }] });
  const s = scheduler(f);
  try {
    const id = startRun(f, { nodes: [node('sup', `plan [[fake:answer-file=${file}]]`, {}, 'smartSupervisor')], edges: [] });
    const run = await waitStatus(f.db, id, ['completed', 'failed']);
    assert.is(run.status, 'failed');
    assert.match(listSteps(f.db, id).find((x) => x.node_id === 'sup')!.error ?? '', /subtask 'a' depends on 'ghost'/);
    assert.ok(listLogs(f.db, id).some((l) => l.level === 'error' && /depends on 'ghost'/.test(l.message)));
    assert.is(runGraph(getRun(f.db, id)!).nodes.length, 1);
  } finally {
    await s.stop();
  }
});

Runner.run();
Providers.run();
RunTime.run();
