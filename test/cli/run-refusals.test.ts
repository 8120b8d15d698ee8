import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listRuns } from '../../sql/runs.js';
import { gitRepo, runWfctl, FAKE_BIN } from '../helpers.js';
import { chain, cliHome, node } from './fixture.js';

/** `wfctl run` refusing to start: usage (2), missing workflow (3), unapproved repository (4), no sandbox (5). */
const Run = suite('cli/run refusals');

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


Run('run :: a missing workflow exits 3 naming the home it looked in and the workflows it has', async () => {
  const h = cliHome();
  const r = await runWfctl(['run', 'nope', '--repo', h.repo], { env: h.env });
  assert.is(r.code, 3);
  const templates = `'Bug fix', 'Code review', 'Feature delivery', 'Security audit'`;
  const msg = `workflow 'nope' not found in ${h.home} (WFCTL_HOME); this home has templates ${templates} (all users of one install must share the same WFCTL_HOME)`;
  assert.is(r.stderr, `wfctl: ${msg}\n`);
  const j = await runWfctl(['run', 'nope', '--repo', h.repo, '--json'], { env: h.env });
  assert.is(j.code, 3);
  assert.equal(JSON.parse(j.stdout), { run_id: null, status: 'not_started', error: msg, code: 'WORKFLOW_NOT_FOUND' });
  // WFCTL_HOME relocation: the same workflow name under another home is found there.
  const other = cliHome();
  other.workflow('Nope', chain('x [[fake:answer=ok]]', 'y [[fake:answer=ok]]'));
  assert.is((await runWfctl(['run', 'nope', '--repo', other.repo], { env: other.env })).code, 0);
  // The user's own workflows are named first.
  const miss = await runWfctl(['run', 'nop', '--repo', other.repo], { env: other.env });
  assert.is(miss.code, 3);
  assert.match(miss.stderr, new RegExp(`this home has workflows 'Nope'; templates ${templates.replace(/'/g, "'")} \\(`));
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
  // --no-sandbox waives confinement: the run is created, unconfined (it then fails here only because this PATH
  // has no git either).
  const waived = await runWfctl(['run', 'demo', '--repo', h.repo, '--no-sandbox', '--json'], { env });
  assert.is.not(waived.code, 5, waived.stderr);
  assert.is(JSON.parse(waived.stdout).run_id, listRuns(h.db)[0].id);
  assert.is(listRuns(h.db)[0].sandbox, 0);
  // A workflow without direct-runtime agents needs no sandbox.
  h.workflow('Gate only', { nodes: [node('g', 'approve the release', {}, 'humanApproval')], edges: [] });
  const g = await runWfctl(['run', 'gate-only', '--repo', h.repo, '--timeout', '1s'], { env });
  assert.is.not(g.code, 5, g.stderr);
  assert.is(listRuns(h.db).length, 2, 'the gate-only run was created');
});


Run.run();
