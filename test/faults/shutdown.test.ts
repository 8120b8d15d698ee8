/**
 * Graceful shutdown of `wfctl worker` and `wfctl serve` (issue 9), with real child processes and real signals:
 * SIGTERM stops leasing, in-flight nodes get WFCTL_SHUTDOWN_GRACE_MS to finish, then they are interrupted and
 * their leases released (pending, lease cleared, attempt not counted) so another process continues the run.
 * Leases are long (60 s) in these tests, so a takeover within the test can only come from the release.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { getRun } from '../../sql/runs.js';
import { stmt } from '../../sql/stmt.js';
import { pidAlive, waitFor } from '../helpers.js';
import { edge, engineFixture, node, parallelFan, startRun, waitStatus, type EngineFixture } from '../queue/fixture.js';
import { invocationsOf, jobsOf, kill, runningAgentPid, stepsOf, wfctl, type Proc } from './fixture.js';

const LONG_LEASE = { WFCTL_LEASE_MS: '60000' };

/** Removes the sleep directives from the run's graph snapshot, so a node's re-run answers at once. */
function unsleep(f: EngineFixture, runId: string): void {
  stmt(f.db, "UPDATE workflow_runs SET graph = replace(replace(graph, '[[fake:sleep=6]]', ''), '[[fake:sleep=3]]', '') WHERE id = ?").run(runId);
}

const Shutdown = suite('faults/shutdown');
const procs: Proc[] = [];
Shutdown.after.each(() => {
  for (const p of procs.splice(0)) kill(p);
});

Shutdown('worker :: SIGTERM while a node runs shorter than the grace: the node finishes, exit 0, the next worker goes on without re-running it', async () => {
  const f = engineFixture();
  const id = startRun(f, { nodes: [node('a', 'first-a [[fake:sleep=3]]'), node('b', 'second-b')], edges: [edge('a', 'b')] });
  const w1 = wfctl(f, ['worker'], { ...LONG_LEASE, WFCTL_SHUTDOWN_GRACE_MS: '20000' });
  procs.push(w1);
  const agentPid = await runningAgentPid(f, id, 'a');
  w1.child.kill('SIGTERM');
  const exit = await w1.exited;
  assert.equal(exit, { code: 0, signal: null }, w1.out());
  assert.not.ok(pidAlive(agentPid));
  // The node finished inside the grace period; the next level was queued but not taken by the stopping worker.
  assert.equal(stepsOf(f, id, 'a').map((s) => s.status), ['completed']);
  assert.equal(stepsOf(f, id, 'b'), []);
  const jobs = jobsOf(f, id);
  assert.equal(jobs.map((j) => [j.kind, j.status]), [['run.start', 'completed'], ['run.level', 'completed'], ['run.level', 'pending']]);
  assert.is(getRun(f.db, id)!.status, 'running');

  const w2 = wfctl(f, ['worker'], LONG_LEASE);
  procs.push(w2);
  assert.is((await waitStatus(f.db, id, ['completed', 'failed'], 20_000)).status, 'completed');
  assert.is(invocationsOf(f, 'first-a').length, 1, 'a ran once');
  assert.is(invocationsOf(f, 'second-b').length, 1, 'b ran once');
  w2.child.kill('SIGTERM');
  assert.is((await w2.exited).code, 0);
});

Shutdown('worker :: SIGTERM with a grace shorter than a pooled node: agent group killed, lease released at once, the next worker re-runs only that node', async () => {
  const f = engineFixture();
  // A parallel level (Piscina worker threads): p1 outlives the grace, p2 finishes before the SIGTERM.
  const id = startRun(f, parallelFan([['p1', 'slow-p1 [[fake:sleep=6]] [[fake:spawn-child]]'], ['p2', 'quick-p2']]));
  const w1 = wfctl(f, ['worker'], { ...LONG_LEASE, WFCTL_SHUTDOWN_GRACE_MS: '200' });
  procs.push(w1);
  const agentPid = await runningAgentPid(f, id, 'p1');
  await waitFor(() => stepsOf(f, id, 'p2')[0]?.status === 'completed', 15_000, 20, 'p2 to complete');
  w1.child.kill('SIGTERM');
  assert.equal(await w1.exited, { code: 0, signal: null }, w1.out());
  assert.match(w1.out(), /wfctl worker stopping: no new work is leased; 1 job in flight: up to 200 ms to finish, then handed back to the queue/);
  assert.match(w1.out(), /wfctl worker stopped\n/);
  assert.not.ok(pidAlive(agentPid), 'the agent was killed');
  // The level job is back in the queue: pending, no lease, the interrupted attempt not counted.
  const level = jobsOf(f, id).filter((j) => j.kind === 'run.level').pop()!;
  assert.is(JSON.parse(level.payload).level, 1);
  assert.equal([level.status, level.lease_owner, level.lease_expires_at, level.attempts], ['pending', null, null, 0]);
  const [first] = stepsOf(f, id, 'p1');
  assert.is(first.status, 'failed');
  assert.match(first.error ?? '', /interrupted/);
  const killed = invocationsOf(f, 'slow-p1');
  assert.is(killed.length, 1);
  assert.is(killed[0].end, null, 'the first invocation was stopped, not finished');
  const grandchild = (killed[0] as unknown as { child_pid?: number }).child_pid;
  assert.ok(grandchild && !pidAlive(grandchild), 'the grandchild went with the group');

  // The re-run need not sleep again (the test is about who runs it, not how long): drop the directive.
  unsleep(f, id);
  const w2 = wfctl(f, ['worker'], LONG_LEASE);
  procs.push(w2);
  assert.is((await waitStatus(f.db, id, ['completed', 'failed'], 20_000)).status, 'completed');
  assert.equal(stepsOf(f, id, 'p1').map((s) => s.status), ['failed', 'completed'], 'at-least-once: the interrupted node ran again');
  assert.equal(stepsOf(f, id, 'p2').map((s) => s.status), ['completed'], 'the finished sibling did not');
  assert.is(invocationsOf(f, 'slow-p1').length, 2);
  assert.is(invocationsOf(f, 'quick-p2').length, 1);
  w2.child.kill('SIGTERM');
  assert.is((await w2.exited).code, 0);
});

Shutdown('serve :: SIGTERM of `wfctl serve` with its embedded scheduler also releases an in-flight node for a worker', async () => {
  const f = engineFixture();
  const id = startRun(f, { nodes: [node('a', 'served-a [[fake:sleep=3]]')], edges: [] });
  const s = wfctl(f, ['serve', '--port', '0'], { ...LONG_LEASE, WFCTL_SHUTDOWN_GRACE_MS: '200' });
  procs.push(s);
  const agentPid = await runningAgentPid(f, id, 'a');
  s.child.kill('SIGTERM');
  assert.equal(await s.exited, { code: 0, signal: null }, s.out());
  assert.not.ok(pidAlive(agentPid));
  const level = jobsOf(f, id).find((j) => j.kind === 'run.level')!;
  assert.equal([level.status, level.lease_owner, level.attempts], ['pending', null, 0]);

  unsleep(f, id);
  const w = wfctl(f, ['worker'], LONG_LEASE);
  procs.push(w);
  assert.is((await waitStatus(f.db, id, ['completed', 'failed'], 20_000)).status, 'completed');
  await waitFor(() => invocationsOf(f, 'served-a').length === 2, 5000, 20, 'two invocations of a');
});

Shutdown.run();
