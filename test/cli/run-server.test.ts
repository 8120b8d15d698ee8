import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSession } from '../../sql/sessions.js';
import { listRuns } from '../../sql/runs.js';
import { createUser } from '../../sql/users.js';
import { exited, runWfctl, spawnTracked, waitFor, WFCTL_BIN } from '../helpers.js';
import { chain, cliHome, node } from './fixture.js';

const S = suite('cli/run with a server and git');

S('api :: a run started by the CLI is visible through the API of a server on the same home while it runs', async () => {
  const h = cliHome();
  h.workflow('Visible', chain('look [[fake:sleep=3]] [[fake:answer=seen]]', 'write [[fake:answer=done]]'));
  const server = spawnTracked(process.execPath, [WFCTL_BIN, 'serve', '--port', '0'], { env: h.env });
  let serverOut = '';
  server.stdout!.on('data', (d) => (serverOut += d));
  const url = (await waitFor(() => /wfctl serving (http:\/\/\S+)/.exec(serverOut), 20_000, 50, 'the server to listen'))[1];
  const user = await createUser(h.db, { username: 'viewer', password: 'correct horse', role: 'operator' });
  const { token } = createSession(h.db, user.id);
  const get = async (p: string) => {
    const r = await fetch(`${url.replace(/\/$/, '')}${p}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: r.status, body: (await r.json()) as any };
  };

  const cli = spawnTracked(process.execPath, [WFCTL_BIN, 'run', 'visible', '--repo', h.repo], { env: h.env });
  let out = '';
  cli.stdout!.on('data', (d) => (out += d));
  const exit = new Promise<number | null>((resolve) => cli.on('close', resolve));
  const runId = await waitFor(() => listRuns(h.db).find((r) => r.status === 'running')?.id, 20_000, 50, 'the run to start');
  const live = await waitFor(async () => {
    const r = await get(`/api/workflow-runs/${runId}`);
    return r.body.steps?.some((s: any) => s.node_id === 'a' && s.status === 'running') && r;
  }, 20_000, 100, 'node a running in the API');
  assert.is(live.status, 200);
  assert.is(live.body.status, 'running');
  assert.is(live.body.executor, 'cli');
  assert.is(live.body.workspace_path, h.repo);
  const listed = await get('/api/workflow-runs');
  assert.ok(listed.body.some((r: any) => r.id === runId && r.status === 'running'));

  assert.is(await exit, 0, out);
  const done = await get(`/api/workflow-runs/${runId}`);
  assert.is(done.body.status, 'completed');
  assert.equal(done.body.steps.map((s: any) => [s.node_id, s.status]), [['a', 'completed'], ['b', 'completed']]);
  // The server's scheduler left the terminal's run alone: each node ran once.
  assert.is(h.invocations().length, 2);
  const logs = await get(`/api/workflow-runs/${runId}/logs`);
  assert.match(logs.body[0].message, /run started: 2 nodes in 2 levels/);
  server.kill('SIGTERM');
  await exited(server);
});

S('write :: --write delivers the change and ends with the bundle path; the checkout is untouched', async () => {
  const h = cliHome();
  h.workflow('Writer', { nodes: [node('a', 'change [[fake:write=NOTES.md:hello]] [[fake:answer=wrote notes]]')], edges: [] });
  const r = await runWfctl(['run', 'writer', '--repo', h.repo, '--write'], { env: h.env });
  assert.is(r.code, 0, r.stderr + r.stdout);
  const last = r.stdout.trim().split('\n').pop()!;
  assert.match(last, /info  bundle: .*\.bundle \(branch wfctl\/[0-9a-f]{8}-writer\)$/);
  const run = listRuns(h.db)[0];
  assert.ok(run.bundle_path && existsSync(run.bundle_path));
  assert.not.ok(existsSync(path.join(h.repo, 'NOTES.md')), 'user checkout untouched');
  const j = await runWfctl(['run', 'writer', '--repo', h.repo, '--write', '--json'], { env: h.env });
  assert.match(JSON.parse(j.stdout).pull_request.bundle_path, /\.bundle$/);
});

function commit(repo: string, env: NodeJS.ProcessEnv) {
  writeFileSync(path.join(repo, 'change.txt'), String(Math.random()));
  spawnSync('git', ['add', '-A'], { cwd: repo });
  return spawnSync('git', ['commit', '-m', 'change'], { cwd: repo, env, encoding: 'utf8' });
}

S('hook :: the pre-commit gate with the real wfctl blocks a commit when the workflow fails, passes when it completes, warns when unset', async () => {
  const h = cliHome();
  h.workflow('Red gate', { nodes: [node('a', 'check [[fake:fail=lint errors]]')], edges: [] });
  h.workflow('Green gate', { nodes: [node('a', 'check [[fake:answer=clean]]')], edges: [] });
  const env = { ...h.env, WFCTL_WORKFLOW: undefined, WFCTL_WORKFLOW_ID: undefined, WFCTL_BIN: undefined };
  assert.is((await runWfctl(['hook', 'pre-commit', '--repo', h.repo], { env })).code, 0);

  const unset = commit(h.repo, env);
  assert.is(unset.status, 0, unset.stderr);
  assert.match(unset.stderr, /WFCTL_WORKFLOW_ID is not set; the workflow gate is skipped and the commit allowed/);

  const red = commit(h.repo, { ...env, WFCTL_WORKFLOW_ID: 'red-gate' });
  assert.is.not(red.status, 0);
  assert.match(red.stdout + red.stderr, /run failed: node 'A' \(a\) failed/);
  assert.match(red.stderr, /workflow 'red-gate' did not complete \(exit 1\); commit blocked/);

  const green = commit(h.repo, { ...env, WFCTL_WORKFLOW_ID: 'Green gate' });
  assert.is(green.status, 0, green.stderr + green.stdout);
  assert.equal(listRuns(h.db).map((r) => [r.workflow_name, r.status]), [['Green gate', 'completed'], ['Red gate', 'failed']]);
});

S.run();
