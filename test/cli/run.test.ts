import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listRuns } from '../../sql/runs.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runWfctl, tempDir, testEnv } from '../helpers.js';
import { chain, cliHome } from './fixture.js';

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
  // The output of the last node (what the run produced) comes just before the verdict, prefixed like every line.
  assert.match(lines[lines.length - 3], / info  output of 'B' \(b\):$/);
  assert.match(lines[lines.length - 2], / info  │ report done$/);
  assert.not.match(r.stdout, /output of 'A'/, 'only the nodes nothing follows');
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
  assert.equal(j.steps.map((s: any) => [s.node_id, s.label, s.status, s.attempt, s.output]), [['a', 'A', 'completed', 1, 'fine'], ['b', 'B', 'completed', 1, 'done']]);
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
  assert.not.match(plain.stdout, /output of/, 'a failed run shows no result');
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
