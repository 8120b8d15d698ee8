import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listRuns } from '../../sql/runs.js';
import { runWfctl } from '../helpers.js';
import { chain, cliHome } from './fixture.js';

const R = suite('cli/resume, runs, help');

R('resume :: a failed run resumes in the terminal; the completed node is kept, the failed one runs again', async () => {
  const h = cliHome();
  h.workflow('Flaky', chain('first [[fake:answer=ok]]', 'second [[fake:fail-attempts=1]] [[fake:answer=fixed]]'));
  const first = await runWfctl(['run', 'flaky', '--repo', h.repo, '--json'], { env: h.env });
  assert.is(first.code, 1, first.stderr);
  const runId = JSON.parse(first.stdout).run_id;
  const r = await runWfctl(['resume', runId, '--json'], { env: h.env });
  assert.is(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.is(j.run_id, runId);
  assert.is(j.status, 'completed');
  assert.equal(j.steps.map((s: any) => [s.node_id, s.attempt, s.status]), [['a', 1, 'completed'], ['b', 1, 'failed'], ['b', 2, 'completed']]);
  assert.is(h.invocations().length, 3, 'a ran once, b twice');
  assert.is(listRuns(h.db)[0].executor, 'cli');
  const plain = await runWfctl(['resume', runId], { env: h.env });
  assert.is(plain.code, 2);
  assert.match(plain.stderr, /^wfctl: run [0-9a-f-]{36} is completed; only a failed run can be resumed\n/);
  const unknown = await runWfctl(['resume', 'no-such-run'], { env: h.env });
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, new RegExp(`^wfctl: no run 'no-such-run' in ${h.home} \\(WFCTL_HOME\\)\\n`));
});

R('runs :: table and JSON, filtered by workflow', async () => {
  const h = cliHome();
  h.workflow('One', chain('x [[fake:answer=ok]]', 'y [[fake:answer=ok]]'));
  h.workflow('Two', chain('x [[fake:fail]]', 'y'));
  assert.is((await runWfctl(['run', 'one', '--repo', h.repo], { env: h.env })).code, 0);
  assert.is((await runWfctl(['run', 'two', '--repo', h.repo], { env: h.env })).code, 1);
  const [two, one] = listRuns(h.db);
  const t = await runWfctl(['runs'], { env: h.env });
  assert.is(t.code, 0, t.stderr);
  const lines = t.stdout.trim().split('\n');
  assert.match(lines[0], /^RUN\s+STATUS\s+WORKFLOW\s+CREATED \(UTC\)\s+TOOK\s+BY\s+WORKSPACE$/);
  assert.match(lines[1], new RegExp(`^${two.id}  failed\\s+Two\\s+.*terminal  ${h.repo}$`));
  assert.match(lines[2], new RegExp(`^${one.id}  completed\\s+One\\s+`));
  const j = await runWfctl(['runs', '--workflow', 'One', '--json'], { env: h.env });
  assert.equal(JSON.parse(j.stdout).map((r: any) => [r.run_id, r.status]), [[one.id, 'completed']]);
  const missing = await runWfctl(['runs', '--workflow', 'three'], { env: h.env });
  assert.is(missing.code, 3);
  assert.match(missing.stderr, /workflow 'three' not found in .* \(WFCTL_HOME\)/);
  assert.is((await runWfctl(['runs', '--limit', 'lots'], { env: h.env })).code, 2);
  const none = await runWfctl(['runs', '--status', 'queued'], { env: h.env });
  assert.match(none.stdout, /^no runs in /);
});

R('help :: lists the commands; each --help has examples; plain when piped', async () => {
  const h = cliHome();
  // A colour terminal type and no colour switches: only the pipe itself may keep the help plain.
  const colourTerm = { ...h.env, NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm-256color' };
  const top = await runWfctl(['--help'], { env: colourTerm });
  assert.is(top.code, 0);
  for (const c of ['wfctl run', 'wfctl resume', 'wfctl runs', 'wfctl user create']) assert.ok(top.stdout.includes(c), c);
  assert.not.match(top.stdout, /\x1b\[/);
  for (const c of [['run'], ['resume'], ['runs'], ['user', 'create']]) {
    const r = await runWfctl([...c, '--help'], { env: colourTerm });
    assert.is(r.code, 0);
    assert.match(r.stdout, /Examples/, c.join(' '));
    assert.not.match(r.stdout, /\x1b\[/, c.join(' '));
  }
  const typo = await runWfctl(['rn'], { env: colourTerm });
  assert.is(typo.code, 2);
  assert.match(typo.stderr, /Command not found/);
  assert.not.match(typo.stderr, /\x1b\[/);
});

R.run();
