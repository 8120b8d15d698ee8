import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { getRun, listRuns } from '../../sql/runs.js';
import { pidAlive, runWfctl, tempDir, waitFor, WFCTL_BIN } from '../helpers.js';
import { chain, cliHome, node, stripAnsi, type CliHome, inPty, start, type Proc } from './fixture.js';

const T = suite('cli/run on a terminal');


/** Pids whose process group is `pgid`. */
function groupPids(pgid: number): number[] {
  const r = spawnSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return r.stdout.split('\n').map((l) => l.trim().split(/\s+/)).filter((f) => Number(f[1]) === pgid && !f[2]?.startsWith('Z')).map((f) => Number(f[0]));
}

const runningAgentPid = (h: CliHome) =>
  (h.db.prepare(`SELECT pid FROM agent_runs WHERE status = 'running' AND pid IS NOT NULL`).get() as { pid: number } | undefined)?.pid;

T('tree :: levels and nodes with live status and durations under a pseudo-terminal; NO_COLOR turns colour off', async () => {
  const h = cliHome();
  const g = chain('look [[fake:sleep=1.5]] [[fake:fail-attempts=1]] [[fake:answer=all good]]', 'write [[fake:answer=done]]');
  g.nodes[0].data.maxIterations = 2;
  h.workflow('Tree', g);
  const colour = inPty(h, ['run', 'tree', '--repo', h.repo], { ...h.env, NO_COLOR: undefined, FORCE_COLOR: undefined });
  assert.is(await colour.exit, 0, colour.out());
  const text = stripAnsi(colour.out());
  assert.match(text, /Running 'Tree' on /);
  assert.match(text, /Level 1 · 1 node/);
  assert.match(text, /Level 2 · 1 node/);
  assert.match(text, /A \[claude\] · running · attempt 1\/2 · \d/);
  // The agent's latest message line sits under the running node (here the CLI's session start message).
  assert.match(text, /› session [0-9a-f-]+ · model /);
  assert.match(text, /A \[claude\] · running · attempt 2\/2 · \d/);
  assert.match(text, /A \[claude\] · completed · attempt 2\/2 · \d/);
  assert.match(text, /B \[claude\] · completed · \d/);
  assert.match(text, /run [0-9a-f-]{36} completed in /);
  // The last node's output under the tree, before the verdict.
  assert.match(text, /── B \(b\) ──\r?\ndone\r?\n\r?\nrun [0-9a-f-]{36} completed in /);
  assert.match(colour.out(), /\x1b\[1A/, 'redraws in place');
  assert.match(colour.out(), /\x1b\[3\dm/, 'coloured');
  const plain = inPty(h, ['run', 'tree', '--repo', h.repo], { ...h.env, WFCTL_FAKE_STATE: tempDir() });
  assert.is(await plain.exit, 0, plain.out());
  assert.match(stripAnsi(plain.out()), /B \[claude\] · completed/);
  assert.not.match(plain.out(), /\x1b\[3\dm/, 'no colour under NO_COLOR');
});

T('timeout :: --timeout cancels the run and exits 124 with no agent left', async () => {
  const h = cliHome();
  h.workflow('Slow', { nodes: [node('a', 'think [[fake:sleep=30]]')], edges: [] });
  const r = await runWfctl(['run', 'slow', '--repo', h.repo, '--timeout', '3s', '--json', '--no-sandbox'], { env: h.env });
  assert.is(r.code, 124, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.is(j.status, 'cancelled');
  assert.is(j.timed_out, true);
  assert.match(j.error, /timed out after 3s/);
  const agents = h.db.prepare('SELECT pid, status FROM agent_runs').all() as Array<{ pid: number; status: string }>;
  assert.is(agents.length, 1, 'the agent had started');
  assert.is.not(agents[0].status, 'running');
  assert.not.ok(pidAlive(agents[0].pid), 'agent stopped');
});

T('interrupt :: Ctrl-C cancels the run, kills the agent group (grandchild too) and exits 130', async () => {
  const h = cliHome();
  h.workflow('Sleepy', { nodes: [node('a', 'think [[fake:spawn-child]] [[fake:sleep=60]]')], edges: [] });
  const p = start(process.execPath, [WFCTL_BIN, 'run', 'sleepy', '--repo', h.repo, '--no-sandbox'], h.env);
  const pid = await waitFor(() => runningAgentPid(h), 20_000, 50, 'the agent to start');
  await waitFor(() => groupPids(pid).length >= 2, 10_000, 50, 'the grandchild');
  const group = groupPids(pid);
  process.kill(p.child.pid!, 'SIGINT');
  assert.is(await p.exit, 130, p.out());
  assert.match(p.out(), /cancelling the run: stopping agents \(Ctrl-C again to exit at once\)/);
  assert.match(p.out(), /run [0-9a-f-]{36} cancelled/);
  const run = listRuns(h.db)[0];
  assert.is(run.status, 'cancelled');
  assert.match(run.error!, /interrupted \(Ctrl-C in wfctl run\)/);
  for (const g of group) assert.not.ok(pidAlive(g), `process ${g} of the agent group is gone`);
  const inv = h.invocations();
  assert.ok(inv[0]?.child_pid, 'the fake reported its grandchild');
  assert.not.ok(pidAlive(inv[0].child_pid!));
});

T('interrupt :: a second Ctrl-C exits at once and still leaves no agent', async () => {
  const h = cliHome();
  // hang ignores SIGTERM, so the first Ctrl-C alone would wait for the kill grace period.
  h.workflow('Stuck', { nodes: [node('a', 'think [[fake:hang]]')], edges: [] });
  const p = start(process.execPath, [WFCTL_BIN, 'run', 'stuck', '--repo', h.repo, '--no-sandbox'], h.env);
  const pid = await waitFor(() => runningAgentPid(h), 20_000, 50, 'the agent to start');
  process.kill(p.child.pid!, 'SIGINT');
  await waitFor(() => /cancelling the run/.test(p.out()), 10_000, 20, 'the first interrupt');
  process.kill(p.child.pid!, 'SIGINT');
  assert.is(await p.exit, 130, p.out());
  assert.match(p.out(), /interrupted again: agents killed, exiting/);
  await waitFor(() => !pidAlive(pid), 5000, 50, 'the agent to be gone');
  assert.is(getRun(h.db, listRuns(h.db)[0].id)!.status, 'cancelled');
});

T.run();
