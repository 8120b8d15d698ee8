import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listRuns } from '../../sql/runs.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gitRepo, runWfctl, tempDir, testEnv, FAKE_BIN } from '../helpers.js';
import { chain, cliHome, node } from './fixture.js';

const Run = suite('cli/run');

const TS = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

Run('run :: completes with exit 0 and plain timestamped lines off a terminal', async () => {
  const h = cliHome();
  h.workflow('Demo flow', chain('look [[fake:answer=all good]]', 'write [[fake:answer=report done]]'));
  const r = await runWfctl(['run', 'demo-flow', '--repo', h.repo], { env: h.env });
  assert.is(r.code, 0, r.stderr + r.stdout);
  const lines = r.stdout.trim().split('\n');
  for (const l of lines) assert.match(l, new RegExp(`^${TS} (info |warn |error) `), l);
  assert.match(r.stdout, new RegExp(`^${TS} info  starting run [0-9a-f-]{36}: workflow 'Demo flow' on ${h.repo} \\(read-only, sandboxed\\)$`, 'm'));
  assert.match(r.stdout, /info  run started: 2 nodes in 2 levels$/m);
  assert.match(r.stdout, /info  node 'A' \(a\) started$/m);
  assert.match(r.stdout, /info  node 'A' \(a\) completed in \d/m);
  assert.match(r.stdout, /info  node 'B' \(b\) completed in \d/m);
  assert.match(lines[lines.length - 1], / info  run [0-9a-f-]{36} completed in /);
  assert.not.match(r.stdout, /\x1b\[/, 'no escape sequences off a terminal');
  const [run] = listRuns(h.db);
  assert.is(run.status, 'completed');
  assert.is(run.executor, 'cli');
  assert.is(run.write, 0);
  assert.is(h.invocations().length, 2);
  // The agents worked in the run's own copy, never in the user's checkout.
  assert.ok(h.invocations().every((i) => !(i as unknown as { cwd: string }).cwd.startsWith(h.repo)));
});

Run('run :: --json prints one JSON object and nothing else on stdout', async () => {
  const h = cliHome();
  const id = h.workflow('Json flow', chain('look [[fake:answer=fine]]', 'write [[fake:answer=done]]'));
  const r = await runWfctl(['run', 'Json flow', '--repo', h.repo, '--json'], { env: h.env });
  assert.is(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.is(r.stdout.trim().split('\n').length, 1);
  assert.is(j.status, 'completed');
  assert.is(j.workflow_id, id);
  assert.is(j.workspace_path, h.repo);
  assert.match(j.run_id, /^[0-9a-f-]{36}$/);
  assert.ok(Date.parse(j.completed_at) > 0);
  assert.equal(j.steps.map((s: any) => [s.node_id, s.label, s.status, s.attempt]), [['a', 'A', 'completed', 1], ['b', 'B', 'completed', 1]]);
  assert.is(j.pull_request, undefined);
  assert.is(j.error, undefined);
});

Run('run :: a failing node gives exit 1, the error in JSON, and the failure in the run log', async () => {
  const h = cliHome();
  h.workflow('Failing', chain('look [[fake:fail=tests are red]]', 'never'));
  const r = await runWfctl(['run', 'failing', '--repo', h.repo, '--json'], { env: h.env });
  assert.is(r.code, 1, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.is(j.status, 'failed');
  assert.match(j.error, /node 'A' \(a\) failed: .*tests are red/);
  assert.equal(j.steps.map((s: any) => [s.node_id, s.status]), [['a', 'failed']]);
  const plain = await runWfctl(['run', 'failing', '--repo', h.repo], { env: h.env });
  assert.is(plain.code, 1);
  assert.match(plain.stdout, /error node 'A' \(a\) failed: /);
  assert.match(plain.stdout, /error run failed: node 'A' \(a\) failed$/m);
});

Run('run :: usage mistakes exit 2 with one line and the usage, never a stack', async () => {
  const h = cliHome();
  h.workflow('Demo', chain('x', 'y'));
  const cases = [['run', 'demo'], ['run', 'demo', '--repo', h.repo, '--timeout', 'soon'], ['run', '--repo', h.repo], ['run', 'demo', '--repo', h.repo, '--bogus']];
  const results = await Promise.all(cases.map((args) => runWfctl(args, { env: h.env })));
  results.forEach((r, i) => {
    assert.is(r.code, 2, `${cases[i].join(' ')}: ${r.stderr}`);
    assert.not.match(r.stderr, /\n\s+at /, 'no stack');
    assert.match(r.stderr + r.stdout, /wfctl run/);
  });
  assert.match(results[1].stderr, /^wfctl: --timeout 'soon' is not a duration; use e\.g\. 90s, 20m or 1h30m\n/);
  assert.is(listRuns(h.db).length, 0);
});

Run('run :: a missing workflow exits 3 naming the home it looked in', async () => {
  const h = cliHome();
  const r = await runWfctl(['run', 'nope', '--repo', h.repo], { env: h.env });
  assert.is(r.code, 3);
  assert.is(r.stderr, `wfctl: workflow 'nope' not found in ${h.home} (WFCTL_HOME); all users of one install must share the same WFCTL_HOME\n`);
  const j = await runWfctl(['run', 'nope', '--repo', h.repo, '--json'], { env: h.env });
  assert.is(j.code, 3);
  assert.equal(JSON.parse(j.stdout), { run_id: null, status: 'not_started', error: `workflow 'nope' not found in ${h.home} (WFCTL_HOME); all users of one install must share the same WFCTL_HOME`, code: 'WORKFLOW_NOT_FOUND' });
  // WFCTL_HOME relocation: the same workflow name under another home is found there.
  const other = cliHome();
  other.workflow('Nope', chain('x [[fake:answer=ok]]', 'y [[fake:answer=ok]]'));
  assert.is((await runWfctl(['run', 'nope', '--repo', other.repo], { env: other.env })).code, 0);
});

Run('run :: an unapproved repository exits 4 before any agent starts', async () => {
  const h = cliHome();
  h.workflow('Demo', chain('x', 'y'));
  const outside = gitRepo();
  const r = await runWfctl(['run', 'demo', '--repo', outside], { env: h.env });
  assert.is(r.code, 4, r.stderr);
  assert.match(r.stderr, /^wfctl: workspace .* is not approved; approve it with `wfctl workspace approve /);
  assert.is(r.stderr.trim().split('\n').length, 1);
  assert.is(listRuns(h.db).length, 0);
  assert.is(h.invocations().length, 0);
  // Approving it makes the same command run.
  assert.is((await runWfctl(['workspace', 'approve', outside], { env: h.env })).code, 0);
  h.workflow('Ok', chain('x [[fake:answer=ok]]', 'y [[fake:answer=ok]]'));
  assert.is((await runWfctl(['run', 'ok', '--repo', outside], { env: h.env })).code, 0);
});

Run('run :: no OS sandbox exits 5 with one clear line unless --no-sandbox', async () => {
  const h = cliHome();
  h.workflow('Demo', chain('x', 'y'));
  // bubblewrap is found on PATH: a PATH of only the fakes' folder has none.
  const env = { ...h.env, PATH: FAKE_BIN };
  const r = await runWfctl(['run', 'demo', '--repo', h.repo], { env });
  assert.is(r.code, 5, r.stderr);
  assert.match(r.stderr, /^wfctl: no OS sandbox is available on this host .*pass --no-sandbox to run them unconfined\n$/);
  assert.is(listRuns(h.db).length, 0);
  // A workflow without direct-runtime agents needs no sandbox.
  h.workflow('Gate only', { nodes: [node('g', 'approve the release', {}, 'humanApproval')], edges: [] });
  const g = await runWfctl(['run', 'gate-only', '--repo', h.repo, '--timeout', '1s'], { env });
  assert.is.not(g.code, 5, g.stderr);
  assert.is(listRuns(h.db).length, 1, 'the gate-only run was created');
});

Run('run :: a built-in template runs by name on a home no server has started yet', async () => {
  const home = tempDir('wfctl-fresh-');
  const repo = path.join(home, 'codebases', 'svc');
  mkdirSync(repo, { recursive: true });
  writeFileSync(path.join(repo, 'main.py'), 'print(1)\n');
  const r = await runWfctl(['run', 'Code review', '--repo', repo, '--json'], { env: testEnv(home) });
  assert.is(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.is(j.status, 'completed');
  assert.is(j.workflow_name, 'Code review');
  assert.ok(j.steps.length >= 4);
});

Run.run();
