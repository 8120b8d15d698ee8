/**
 * SIGKILL of a `wfctl worker` mid-level while `wfctl serve` (WFCTL_SCHEDULER=off) keeps serving the API on the
 * same home. The engine's own crash test (test/queue/crash.test.ts: a sequential chain, kill -9 of the worker,
 * another worker finishes) covers the recovery itself; this one adds the split deployment and a parallel level
 * on the Piscina pool: the API answers during and after the crash, a second worker takes the expired lease,
 * the finished sibling never runs twice, the in-flight node does.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stmt } from '../../sql/stmt.js';
import { pidAlive, waitFor } from '../helpers.js';
import { engineFixture, parallelFan, startRun } from '../queue/fixture.js';
import { adminToken, api, invocationsOf, kill, runningAgentPid, serveUrl, stepsOf, wfctl, type Proc } from './fixture.js';

const Crash = suite('faults/crash');
const procs: Proc[] = [];
Crash.after.each(() => {
  for (const p of procs.splice(0)) kill(p);
});

Crash('worker SIGKILL mid-level :: the API stays up, a new worker finishes the run, finished nodes are not run again', async () => {
  const f = engineFixture();
  const token = await adminToken(f);
  const env = { WFCTL_LEASE_MS: '1500' };
  const serve = wfctl(f, ['serve', '--port', '0'], { ...env, WFCTL_SCHEDULER: 'off' });
  procs.push(serve);
  const url = await serveUrl(serve);
  // Level 1 runs on the pool: p1 finishes, p2 is still running when the worker dies.
  const id = startRun(f, parallelFan([['p1', 'crash-p1'], ['p2', 'crash-p2 [[fake:sleep=5]]']]));
  const w1 = wfctl(f, ['worker'], env);
  procs.push(w1);
  const orphan = await runningAgentPid(f, id, 'p2');
  await waitFor(() => stepsOf(f, id, 'p1')[0]?.status === 'completed', 15_000, 20, 'p1 to complete');

  // The API is polled throughout: every answer must be a 200.
  const answers: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      for (const p of [`/api/workflow-runs/${id}`, `/api/workflow-runs/${id}/logs`, '/api/health']) {
        answers.push((await api(url + p, token).catch(() => ({ status: 0 }))).status);
      }
      await new Promise((r) => setTimeout(r, 30));
    }
  })();

  process.kill(w1.pid, 'SIGKILL');
  assert.is((await w1.exited).signal, 'SIGKILL');
  // The agent has its own process group and outlives its worker; it is stopped here so its late end cannot
  // blur the invocation counts (a real orphan's result is never recorded: its worker is gone).
  try {
    process.kill(-orphan, 'SIGKILL');
  } catch {
    /* already gone */
  }
  await waitFor(() => !pidAlive(orphan), 5000, 20, 'the orphaned agent to go');
  const during = await api(`${url}/api/workflow-runs/${id}`, token);
  assert.is(during.status, 200, during.text);
  assert.is(during.body.status, 'running');

  // The re-run of p2 need not sleep again (the test is about who runs it): drop the directive from the snapshot.
  stmt(f.db, "UPDATE workflow_runs SET graph = replace(graph, '[[fake:sleep=5]]', '') WHERE id = ?").run(id);
  const w2 = wfctl(f, ['worker'], env);
  procs.push(w2);
  const done = await waitFor(async () => {
    const r = await api(`${url}/api/workflow-runs/${id}`, token);
    return ['completed', 'failed', 'cancelled'].includes(r.body.status) ? r.body : undefined;
  }, 30_000, 100, 'the run to finish');
  polling = false;
  await poller;
  assert.is(done.status, 'completed', JSON.stringify(done));
  assert.ok(answers.length >= 3, 'the API was polled');
  assert.equal([...new Set(answers)], [200], `every answer during and after the crash was a 200 (${answers.join(',')})`);
  assert.is(serve.child.exitCode, null, 'serve kept running');

  // No completed node ran twice; the in-flight node ran again (its first attempt closed as interrupted).
  const finished = (marker: string) => invocationsOf(f, marker).filter((i) => i.exit === 0).length;
  assert.is(finished('[[fake:answer=plan ready]]'), 1, 'the supervisor ran once');
  assert.is(finished('crash-p1'), 1, 'p1 ran once');
  assert.is(finished('crash-p2'), 1, 'p2 finished once (the re-run)');
  assert.equal(stepsOf(f, id, 'p1').map((s) => s.status), ['completed']);
  const p2 = stepsOf(f, id, 'p2');
  assert.equal(p2.map((s) => s.status), ['failed', 'completed']);
  assert.match(p2[0].error ?? '', /interrupted/);
  const logs = await api(`${url}/api/workflow-runs/${id}/logs`, token);
  assert.is(logs.status, 200);
  assert.match(JSON.stringify(logs.body), /run completed/);
});

Crash.run();
